//! Interop driver for Nen's OHTTP mode, on implementations we did not write: the Rust `ohttp` 0.8
//! and `bhttp` 0.8 crates (X-Wing 0x647a, DHKEM(X25519) 0x0020; the `stream` feature for chunked
//! OHTTP, draft-ietf-ohai-chunked-ohttp). A line protocol on stdin / stdout, hex for bytes, so a
//! JavaScript test moves the bytes over real HTTP:
//!
//! `ohttp-interop client [--chunked] [--index N] --path P --date D --body B` (N: which config of the list)
//!   in:  the gateway's `application/ohttp-keys` (hex line)
//!   out: the encapsulated request (hex line)
//!   in:  the gateway's answer body (hex line)
//!   out: `status <code>`, then `body <hex>` (the inner Binary HTTP response, opened)
//!
//! `ohttp-interop gateway --kem xwing|x25519`
//!   out: a fresh key configuration list (hex line)
//!   in:  an encapsulated request (hex line; `message/ohttp-req`)
//!   out: `request <method> <path> <body hex>`, then the encapsulated answer (hex line): 200 with
//!        body `rust-gateway:` + the request body.
//!
//! Pitfall: a failure prints `error <message>` and exits 1 (no panic paths: no unwrap).

use std::error::Error;
use std::io::{BufRead, Write};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bhttp::{Message, Mode};
use futures::io::{AsyncReadExt, AsyncWrite, AsyncWriteExt, Cursor};
use ohttp::hpke::{Aead, Kdf, Kem};
use ohttp::{ClientRequest, KeyConfig, Server, SymmetricSuite};

type Res<T> = Result<T, Box<dyn Error>>;

/// An AsyncWrite into a shared buffer (the chunked request is read while its writer lives on).
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl AsyncWrite for Shared {
    fn poll_write(self: Pin<&mut Self>, _: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match self.0.lock() {
            Ok(mut v) => {
                v.extend_from_slice(buf);
                Poll::Ready(Ok(buf.len()))
            }
            Err(_) => Poll::Ready(Err(std::io::Error::other("poisoned"))),
        }
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned())
}

fn read_hex_line(input: &mut impl BufRead) -> Res<Vec<u8>> {
    let mut line = String::new();
    input.read_line(&mut line)?;
    Ok(hex::decode(line.trim())?)
}

fn request_bytes(args: &[String], mode: Mode) -> Res<Vec<u8>> {
    let path = arg(args, "--path").ok_or("--path missing")?;
    let mut m = Message::request(b"POST".to_vec(), b"https".to_vec(), Vec::new(), path.into_bytes());
    m.put_header("content-type", "application/json");
    if let Some(d) = arg(args, "--date") {
        m.put_header("date", d);
    }
    m.write_content(arg(args, "--body").unwrap_or_default());
    let mut out = Vec::new();
    m.write_bhttp(mode, &mut out)?;
    Ok(out)
}

fn print_response(out: &mut impl Write, bytes: &[u8]) -> Res<()> {
    let m = Message::read_bhttp(&mut std::io::Cursor::new(bytes))?;
    let status = m.control().status().map(u16::from).ok_or("not a response")?;
    writeln!(out, "status {status}")?;
    writeln!(out, "body {}", hex::encode(m.content()))?;
    Ok(())
}

fn client(args: &[String], input: &mut impl BufRead, out: &mut impl Write) -> Res<()> {
    // the list is decoded (and so checked) whole; the chosen config is the one given by --index
    let list = read_hex_line(input)?;
    let index: usize = arg(args, "--index").unwrap_or_else(|| "0".into()).parse()?;
    let mut config = KeyConfig::decode_list(&list)?.into_iter().nth(index).ok_or("no such config in the list")?;
    let chunked = args.iter().any(|a| a == "--chunked");
    let req = ClientRequest::from_config(&mut config)?;
    if !chunked {
        let (enc, response) = req.encapsulate(&request_bytes(args, Mode::KnownLength)?)?;
        writeln!(out, "{}", hex::encode(enc))?;
        out.flush()?;
        let answer = read_hex_line(input)?;
        return print_response(out, &response.decapsulate(&answer)?);
    }
    let buf = Shared::default();
    let mut w = req.encapsulate_stream(buf.clone())?;
    let body = request_bytes(args, Mode::IndeterminateLength)?;
    futures::executor::block_on(async {
        w.write_all(&body).await?;
        w.close().await
    })?;
    let sent = buf.0.lock().map_err(|_| "poisoned")?.clone();
    writeln!(out, "{}", hex::encode(sent))?;
    out.flush()?;
    let answer = read_hex_line(input)?;
    let mut r = w.response(Cursor::new(answer))?;
    let mut plain = Vec::new();
    futures::executor::block_on(r.read_to_end(&mut plain))?;
    print_response(out, &plain)
}

fn gateway(args: &[String], input: &mut impl BufRead, out: &mut impl Write) -> Res<()> {
    let kem = match arg(args, "--kem").as_deref() {
        Some("x25519") => Kem::X25519Sha256,
        _ => Kem::XWing,
    };
    let suites = vec![
        SymmetricSuite::new(Kdf::HkdfSha256, Aead::ChaCha20Poly1305),
        SymmetricSuite::new(Kdf::HkdfSha256, Aead::Aes128Gcm),
    ];
    let config = KeyConfig::new(7, kem, suites)?;
    writeln!(out, "{}", hex::encode(KeyConfig::encode_list(&[&config])?))?;
    out.flush()?;
    let server = Server::new(config)?;
    let (request, response) = server.decapsulate(&read_hex_line(input)?)?;
    let m = Message::read_bhttp(&mut std::io::Cursor::new(&request))?;
    let method = String::from_utf8_lossy(m.control().method().unwrap_or_default()).into_owned();
    let path = String::from_utf8_lossy(m.control().path().unwrap_or_default()).into_owned();
    writeln!(out, "request {method} {path} {}", hex::encode(m.content()))?;
    let mut answer = Message::response(bhttp::StatusCode::try_from(200u16)?);
    answer.put_header("content-type", "text/plain");
    let mut content = b"rust-gateway:".to_vec();
    content.extend_from_slice(m.content());
    answer.write_content(content);
    let mut bytes = Vec::new();
    answer.write_bhttp(Mode::KnownLength, &mut bytes)?;
    writeln!(out, "{}", hex::encode(response.encapsulate(&bytes)?))?;
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout();
    let r = match args.first().map(String::as_str) {
        Some("client") => client(&args, &mut input, &mut out),
        Some("gateway") => gateway(&args, &mut input, &mut out),
        _ => Err("usage: ohttp-interop client|gateway ...".into()),
    };
    if let Err(e) = r {
        let _ = writeln!(out, "error {e}");
        std::process::exit(1);
    }
}
