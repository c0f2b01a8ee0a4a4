//! Test support: a real `@nen/server` (the repository's Hono target) on a free loopback port,
//! started once per environment and stopped when the test process ends (its stdin closes).
//!
//! Pitfalls: the server needs `node` and the built `packages/server/dist`; without them the tests
//! skip with a message, unless `NEN_REQUIRE_SERVER=1` (the suite's stage) makes that a failure.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use nen_client::NenClient;

/// The X-Wing seed of the test key `k1` (test-only secret).
pub const SERVER_KEYS: &str = "k1:AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA";

/// The pin of `k1`.
pub fn pin() -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let seed = b64.decode("AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA").expect("seed");
    let sk = nen_core::hpke::PrivateKey::from_bytes(nen_core::hpke::Kem::XWing, &seed).expect("seed");
    format!("k1:{}", b64.encode(sk.public_key_bytes()))
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

static SERVERS: OnceLock<Mutex<HashMap<String, (String, Child)>>> = OnceLock::new();

/// The base URL of a server started with `env` (extra environment variables), or `None` when
/// node or the built server is missing (and not required).
pub fn server(env: &[(&str, &str)]) -> Option<String> {
    let key = format!("{env:?}");
    let mut servers = SERVERS.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some((url, _)) = servers.get(&key) {
        return Some(url.clone());
    }
    let dist = repo_root().join("packages/server/dist/index.js");
    let node_ok = Command::new("node").arg("--version").stdout(Stdio::null()).status().is_ok_and(|s| s.success());
    if !node_ok || !dist.exists() {
        assert!(
            std::env::var("NEN_REQUIRE_SERVER").as_deref() != Ok("1"),
            "node or the built @nen/server is missing ({})",
            dist.display()
        );
        eprintln!("skipped: node or the built @nen/server is missing (build the repository: pnpm turbo run build)");
        return None;
    }
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let mut cmd = Command::new("node");
    cmd.arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/server.mjs"))
        .args(["--port", &port.to_string()])
        .env("NEN_SERVER_KEYS", SERVER_KEYS)
        .env("NEN_LOG", "silent")
        .env("NEN_HANDSHAKE_RATE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("start the test server");
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the test server did not start within 20 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    let url = format!("http://127.0.0.1:{port}");
    servers.insert(key, (url.clone(), child));
    Some(url)
}

/// A pinned client with test settings.
pub fn client() -> NenClient {
    NenClient::builder().pin(pin()).timeout(Duration::from_secs(20)).build().expect("client")
}

/// A request with a body.
pub fn request(method: &str, url: &str, content_type: Option<&str>, body: &[u8]) -> http::Request<bytes::Bytes> {
    let mut b = http::Request::builder().method(method).uri(url);
    if let Some(ct) = content_type {
        b = b.header("content-type", ct);
    }
    b.body(bytes::Bytes::copy_from_slice(body)).expect("request")
}
