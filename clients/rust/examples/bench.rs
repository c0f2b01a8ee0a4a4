//! Client CPU per request: `NenClient` against the same hyper client sending plain HTTP, in one
//! run, on one warm session: 1 KB and 100 KB echo (`/api/echo` sealed, `/api/plain/echo` plain,
//! on the repository's Hono target, started here), and a handshake. Prints µs of client CPU per
//! request (all threads of this process, from /proc/self/task/*/schedstat), the CPU Nen adds and
//! the ratio. Run: `cargo run --release --example bench [-- --rounds 5 --n 2000]`.
//!
//! Pitfalls: CPU, not wall time (the server shares the machine); plain and Nen alternate within
//! each round and the median round is reported, so drift in machine load affects both alike.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use nen_client::NenClient;

fn cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return 0 };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(default)
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        // Closing stdin makes the fixture stop the server.
        drop(self.0.stdin.take());
        let _ = self.0.wait();
    }
}

fn start_server(port: u16) -> Result<Server, String> {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/server.mjs");
    let child = Command::new("node")
        .args([fixture, "--port", &port.to_string()])
        .env("NEN_SERVER_KEYS", "k1:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA")
        .env("NEN_LOG", "silent")
        .env("NEN_HANDSHAKE_RATE", "0")
        .env("NEN_HANDSHAKES_PER_SECOND", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("node: {e}"))?;
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if std::time::Instant::now() > deadline {
            return Err("the server did not start".into());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(Server(child))
}

type Plain = hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

async fn plain_echo(http: &Plain, url: &str, body: &Bytes) -> Result<(), String> {
    let req = http::Request::post(url).header("content-type", "application/octet-stream").body(Full::new(body.clone()));
    let res = http.request(req.map_err(|e| e.to_string())?).await.map_err(|e| e.to_string())?;
    let got = res.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
    if got.len() != body.len() { Err("plain echo differs".into()) } else { Ok(()) }
}

async fn nen_echo(c: &NenClient, url: &str, body: &Bytes) -> Result<(), String> {
    let req = http::Request::post(url).header("content-type", "application/octet-stream").body(body.clone());
    let res = c.send(req.map_err(|e| e.to_string())?).await.map_err(|e| e.to_string())?;
    if res.body().len() != body.len() { Err("nen echo differs".into()) } else { Ok(()) }
}

/// µs of CPU per call of `f`, over `n` calls.
async fn per_call<F, Fut>(n: usize, mut f: F) -> Result<f64, String>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), String>>,
{
    let start = cpu_ns();
    for _ in 0..n {
        f().await?;
    }
    Ok((cpu_ns() - start) as f64 / n as f64 / 1000.0)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

async fn run() -> Result<(), String> {
    let rounds = arg("--rounds", 5);
    let n = arg("--n", 2000);
    let port =
        std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| e.to_string())?.port();
    let _server = start_server(port)?;
    let base = format!("http://127.0.0.1:{port}");
    let pin = {
        use base64::Engine;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let seed = b64.decode("AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA").map_err(|e| e.to_string())?;
        let sk =
            nen_core::hpke::PrivateKey::from_bytes(nen_core::hpke::Kem::XWing, &seed).map_err(|e| e.to_string())?;
        format!("k1:{}", b64.encode(sk.public_key_bytes()))
    };
    let http: Plain = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new()).build_http();
    let nen = NenClient::builder().pin(pin).build_with(http.clone()).map_err(|e| e.to_string())?;
    let (plain_url, nen_url) = (format!("{base}/api/plain/echo"), format!("{base}/api/echo"));
    println!("client CPU per request (µs), median of {rounds} rounds; plain = the same hyper client without Nen");
    println!("{:<10} {:>10} {:>10} {:>10} {:>7}", "case", "plain", "nen", "added", "ratio");
    for (name, size, count) in [("1 KB", 1024, n), ("100 KB", 100 * 1024, n / 10)] {
        let body = Bytes::from(vec![b'x'; size]);
        plain_echo(&http, &plain_url, &body).await?; // warm the connection and the session
        nen_echo(&nen, &nen_url, &body).await?;
        let (mut p, mut e) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            p.push(per_call(count, || plain_echo(&http, &plain_url, &body)).await?);
            e.push(per_call(count, || nen_echo(&nen, &nen_url, &body)).await?);
        }
        let (p, e) = (median(p), median(e));
        println!("{name:<10} {p:>10.1} {e:>10.1} {:>10.1} {:>6.2}x", e - p, e / p);
    }
    let mut h = Vec::new();
    for _ in 0..rounds {
        h.push(per_call(n / 40, || async { nen.handshake(&base).await.map(|_| ()).map_err(|e| e.to_string()) }).await?);
    }
    println!("{:<10} {:>10} {:>10.1}", "handshake", "-", median(h));
    Ok(())
}

fn main() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build();
    let result = rt.map_err(|e| e.to_string()).and_then(|rt| rt.block_on(run()));
    if let Err(e) = result {
        eprintln!("bench: {e}");
        std::process::exit(1);
    }
}
