//! Integration tests against a real `@nen/server` (the repository's Hono target, started by the
//! tests): every method and the query string, bodiless answers, a stream read incrementally,
//! the confidential query, the response limit, pinning, concurrency on one session, the tower
//! Service interface, and session expiry followed by a new handshake.
//!
//! Pitfalls: the server is shared by the tests of one environment, so tests do not depend on
//! its session count; expiry uses its own server with a 3 s lifetime.

mod common;

use std::time::Duration;

use common::{client, pin, request, server};
use nen_client::{NenClient, codes};

macro_rules! server_or_skip {
    ($env:expr) => {
        match server($env) {
            Some(url) => url,
            None => return,
        }
    };
}

fn json(b: &[u8]) -> serde_json::Value {
    serde_json::from_slice(b).expect("json")
}

#[tokio::test]
async fn every_method_and_the_query_string() {
    let base = server_or_skip!(&[]);
    let c = client();
    let res = c
        .send(request("POST", &format!("{base}/api/echo?b=2&a=~"), Some("application/json"), br#"{"x":1}"#))
        .await
        .expect("post");
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/json");
    assert_eq!(json(res.body()), serde_json::json!({"x": 1}));
    for method in ["PUT", "PATCH"] {
        let res =
            c.send(request(method, &format!("{base}/api/echo"), Some("text/plain"), b"hello")).await.expect(method);
        assert_eq!((res.status().as_u16(), res.body().as_ref()), (200, &b"hello"[..]), "{method}");
    }
    let res = c.send(request("GET", &format!("{base}/api/echo?q=a%20b&r=%7e&flag"), None, b"")).await.expect("get");
    assert_eq!(json(res.body())["query"], serde_json::json!({"q": "a b", "r": "~", "flag": ""}));
    for method in ["DELETE", "OPTIONS"] {
        let res = c.send(request(method, &format!("{base}/api/echo"), None, b"")).await.expect(method);
        assert_eq!((res.status().as_u16(), res.body().len()), (204, 0), "{method}");
    }
    let res = c.send(request("HEAD", &format!("{base}/api/echo"), None, b"")).await.expect("head");
    assert_eq!((res.status().as_u16(), res.body().len()), (200, 0));
    let err = c.send(request("GET", &format!("{base}/api/echo"), None, b"x")).await.expect_err("GET with a body");
    assert_eq!(err.code(), codes::BAD_INPUT);
}

#[tokio::test]
async fn a_stream_is_read_incrementally() {
    let base = server_or_skip!(&[]);
    let c = client();
    let res = c.send_streaming(request("POST", &format!("{base}/api/stream?n=8"), None, b"")).await.expect("stream");
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let mut body = res.into_body();
    assert!(body.is_stream());
    let mut chunks = Vec::new();
    while let Some(chunk) = body.chunk().await {
        chunks.push(chunk.expect("an authenticated chunk"));
    }
    assert!(chunks.len() >= 2, "{} chunks", chunks.len());
    let text: String = chunks.iter().map(|c| String::from_utf8_lossy(c).into_owned()).collect();
    assert!(text.starts_with("data: "), "{text}");
}

#[tokio::test]
async fn the_confidential_query_reaches_the_handler() {
    let base = server_or_skip!(&[]);
    let c = NenClient::builder().pin(pin()).confidential_query(true).build().expect("client");
    let res = c.send(request("GET", &format!("{base}/api/echo?secret=a%20b"), None, b"")).await.expect("get");
    assert_eq!(json(res.body())["query"], serde_json::json!({"secret": "a b"}));
}

#[tokio::test]
async fn pins_are_required_and_checked() {
    let base = server_or_skip!(&[]);
    assert_eq!(NenClient::builder().build().expect_err("unpinned").code(), codes::BAD_SERVER_KEY);
    assert_eq!(NenClient::builder().pin("k1:abc").build().expect_err("bad pin").code(), codes::BAD_SERVER_KEY);
    // A valid key that is not the server's: key confirmation fails.
    let other = nen_core::hpke::Kem::XWing.generate_key_pair().expect("key");
    use base64::Engine;
    let wrong = format!("k1:{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(other.public_key_bytes()));
    let c = NenClient::builder().pin(wrong).build().expect("client");
    let err = c.send(request("POST", &format!("{base}/api/echo"), None, b"x")).await.expect_err("wrong pin");
    assert_eq!(err.code(), codes::HANDSHAKE_FAILED);
    // Unpinned only when asked for.
    let c = NenClient::builder().insecure_unpinned(nen_core::hpke::Kem::MlKem768).build().expect("client");
    let info = c.handshake(&base).await.expect("handshake");
    assert_eq!((info.key_id, info.kem), (None, "mlkem768"));
}

#[tokio::test]
async fn an_answer_over_the_limit_is_refused() {
    let base = server_or_skip!(&[]);
    let c = NenClient::builder().pin(pin()).max_response_bytes(100).build().expect("client");
    let err = c.send(request("POST", &format!("{base}/api/echo"), None, &[b'a'; 1000])).await.expect_err("too large");
    assert_eq!(err.code(), codes::RESPONSE_UNAUTHENTICATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_requests_share_one_session() {
    let base = server_or_skip!(&[]);
    let c = client();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..48 {
        let (c, url) = (c.clone(), format!("{base}/api/echo"));
        tasks.spawn(async move { c.send(request("POST", &url, Some("text/plain"), format!("n{i}").as_bytes())).await });
    }
    let mut n = 0;
    while let Some(r) = tasks.join_next().await {
        let res = r.expect("task").expect("request");
        assert!(res.body().starts_with(b"n"));
        n += 1;
    }
    assert_eq!(n, 48);
}

#[tokio::test]
async fn the_tower_service_interface() {
    use tower_service::Service;
    let base = server_or_skip!(&[]);
    let layer = NenClient::builder().pin(pin()).layer().expect("layer");
    let http = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<http_body_util::Full<bytes::Bytes>>();
    let mut svc = tower_layer::Layer::layer(&layer, http);
    std::future::poll_fn(|cx| svc.poll_ready(cx)).await.expect("ready");
    let res = svc.call(request("POST", &format!("{base}/api/echo"), None, b"via tower")).await.expect("call");
    let body = res.into_body().collect(1 << 20).await.expect("body");
    assert_eq!(body.as_ref(), b"via tower");
}

#[tokio::test]
async fn an_expired_session_is_replaced_by_a_new_handshake() {
    let base = server_or_skip!(&[("NEN_SESSION_TTL", "3")]);
    let c = client();
    let first = c.handshake(&base).await.expect("handshake");
    let res = c.send(request("POST", &format!("{base}/api/echo"), None, b"one")).await.expect("first");
    assert_eq!(res.body().as_ref(), b"one");
    tokio::time::sleep(Duration::from_millis(3200)).await;
    let res = c.send(request("POST", &format!("{base}/api/echo"), None, b"two")).await.expect("after expiry");
    assert_eq!(res.body().as_ref(), b"two");
    let second = c.handshake(&base).await.expect("handshake");
    assert_ne!(first.session_id, second.session_id);
    // A closed client starts over with a new session too.
    c.close();
    assert_eq!(
        c.send(request("POST", &format!("{base}/api/echo"), None, b"3")).await.expect("after close").body().as_ref(),
        b"3"
    );
}
