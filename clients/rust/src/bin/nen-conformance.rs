//! The conformance driver (conformance/DRIVER.md): JSON Lines on stdin/stdout driving
//! [`nen_client::NenClient`], and the `vectors` op checked with this crate's implementation.
//!
//! Pitfalls: one command at a time, one answer line each, flushed, nothing else on stdout;
//! errors map to their Nen code (`NETWORK` for an unclassified transport failure, `DRIVER` for a
//! bug here); byte strings are standard base64 with padding (this contract, not the protocol).

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use nen_client::{Error, Kem, NenClient};
use serde_json::{Map, Value, json};

struct Instance {
    client: NenClient,
    base: String,
    origin: String,
}

fn error_answer(e: &Error, partial: Option<&[u8]>) -> Value {
    let mut a = json!({ "ok": false, "code": e.code(), "message": e.to_string() });
    if let Some(s) = e.status() {
        a["status"] = json!(s);
    }
    if let Some(c) = e.cause_code() {
        a["cause"] = json!(c);
    }
    if let Some(p) = partial {
        a["partial"] = json!(STANDARD.encode(p));
    }
    a
}

fn driver_error(m: impl Into<String>) -> Value {
    json!({ "ok": false, "code": "DRIVER", "message": m.into() })
}

fn origin_of(base: &str) -> String {
    match base.find("://") {
        Some(i) => base[i + 3..].find('/').map_or(base.to_owned(), |j| base[..i + 3 + j].to_owned()),
        None => base.to_owned(),
    }
}

fn make_client(c: &Value) -> Result<Instance, Value> {
    let base = c["base"].as_str().unwrap_or("").to_owned();
    let mut b = NenClient::builder()
        .session_path(c["sessionPath"].as_str().unwrap_or("/api/nen"))
        .timeout(Duration::from_millis(c["timeoutMs"].as_u64().unwrap_or(30_000)));
    if let Some(n) = c["maxBodyBytes"].as_u64() {
        b = b.max_response_bytes(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let pins: Vec<&str> =
        c["pins"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    if pins.is_empty() {
        let kem = if c["kem"].as_str() == Some("mlkem768") { Kem::MlKem768 } else { Kem::XWing };
        b = b.insecure_unpinned(kem);
    }
    for p in pins {
        b = b.pin(p);
    }
    let client = b.build().map_err(|e| error_answer(&e, None))?;
    Ok(Instance { client, origin: origin_of(&base), base })
}

async fn fetch(inst: &Instance, c: &Value) -> Result<Value, Value> {
    let mut req = http::Request::builder().method(c["method"].as_str().unwrap_or("GET")).uri(format!(
        "{}{}",
        inst.base,
        c["path"].as_str().unwrap_or("")
    ));
    if let Some(h) = c["headers"].as_object() {
        for (k, v) in h {
            req = req.header(k.as_str(), v.as_str().unwrap_or(""));
        }
    }
    let body = match c["body"].as_str() {
        Some(b) => Bytes::from(STANDARD.decode(b).map_err(|e| driver_error(format!("body: {e}")))?),
        None => Bytes::new(),
    };
    let req = req.body(body).map_err(|e| driver_error(format!("request: {e}")))?;
    let res = inst.client.send_streaming(req).await.map_err(|e| error_answer(&e, None))?;
    let (parts, mut body) = res.into_parts();
    let mut headers = Map::new();
    for (k, v) in &parts.headers {
        headers.insert(k.as_str().to_owned(), json!(v.to_str().unwrap_or("")));
    }
    let mut all = Vec::new();
    let mut chunks = Vec::new();
    while let Some(chunk) = body.chunk().await {
        match chunk {
            Ok(b) => {
                all.extend_from_slice(&b);
                chunks.push(json!(STANDARD.encode(&b)));
            }
            Err(e) => return Err(error_answer(&e, Some(&all))),
        }
    }
    let mut a =
        json!({ "ok": true, "status": parts.status.as_u16(), "headers": headers, "body": STANDARD.encode(&all) });
    if c["stream"].as_bool() == Some(true) {
        a["chunks"] = Value::Array(chunks);
    }
    Ok(a)
}

async fn handle(clients: &mut HashMap<String, Instance>, c: &Value) -> Value {
    let name = |k: &str| c[k].as_str().unwrap_or("").to_owned();
    match c["op"].as_str().unwrap_or("") {
        "hello" => json!({ "ok": true, "client": "rust", "version": env!("CARGO_PKG_VERSION"),
            "features": ["xwing", "mlkem768", "stream", "retry", "pin", "unpinned", "query"] }),
        "vectors" => {
            match nen_client::conformance::check_vectors(std::path::Path::new(c["dir"].as_str().unwrap_or("."))) {
                Ok(results) => {
                    let r: Vec<Value> = results
                        .into_iter()
                        .map(|r| {
                            let mut v = json!({ "file": r.file, "name": r.name, "ok": r.ok });
                            if let Some(d) = r.detail {
                                v["detail"] = json!(d);
                            }
                            v
                        })
                        .collect();
                    json!({ "ok": true, "results": r })
                }
                Err(e) => driver_error(e),
            }
        }
        "client" => match make_client(c) {
            Ok(inst) => {
                clients.insert(name("name"), inst);
                json!({ "ok": true })
            }
            Err(a) => a,
        },
        "handshake" => {
            let Some(inst) = clients.get(&name("client")) else { return driver_error("no such client") };
            match inst.client.handshake(&inst.origin).await {
                Ok(info) => json!({ "ok": true, "keyId": info.key_id, "kem": info.kem,
                    "pinned": info.key_id.is_some(), "sessionId": info.session_id }),
                Err(e) => error_answer(&e, None),
            }
        }
        "fetch" => {
            let Some(inst) = clients.get(&name("client")) else { return driver_error("no such client") };
            fetch(inst, c).await.unwrap_or_else(|a| a)
        }
        "close" => {
            if let Some(inst) = clients.remove(&name("client")) {
                inst.client.close();
            }
            json!({ "ok": true })
        }
        op => driver_error(format!("unknown op {op}")),
    }
}

fn main() {
    let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("nen-conformance: cannot start the runtime: {e}");
            std::process::exit(1);
        }
    };
    let mut clients = HashMap::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let (id, mut answer) = match serde_json::from_str::<Value>(&line) {
            Ok(c) => (c["id"].clone(), rt.block_on(handle(&mut clients, &c))),
            Err(e) => (Value::Null, driver_error(format!("bad command: {e}"))),
        };
        answer["id"] = id;
        if writeln!(out, "{answer}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
