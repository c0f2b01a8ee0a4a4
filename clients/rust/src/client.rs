//! `NenClient`: sends requests through a Nen session over any HTTP service (hyper by default),
//! with the handshake, multi-pin fallback, session renewal and the 1.1 retry rules (PROTOCOL.md
//! §3, §5, §7.1).
//!
//! Pitfalls: a request is never executed twice on a forged error: after an unauthenticated
//! 401-class answer the client re-handshakes and sends one RETRY naming the original (never for
//! a request older than 60 s); every other failure after sending is reported, and a failed retry
//! is `NEN_OUTCOME_UNKNOWN`. One session per client; a request to another origin re-handshakes.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request, Response};
use http_body_util::Full;
use http_body_util::combinators::UnsyncBoxBody;

use crate::envelope::{self, FLAG_STREAM, Prepared, RequestMeta};
use crate::error::{BoxError, Error, Recovery, codes};
use crate::retry::{Decision, decide, refused_retry};
use crate::schedule::{EpochKeys, HelloState, Pin as ServerPin, kem_name};
use crate::session::{Session, now_ms};
use crate::stream::{NenBody, RecordReceiver};
use crate::wire::{ENVELOPE_RESPONSE_HEADERS, network, origin_of, prepare, read_bounded, timeout_error, wire_request};
use nen_core::hpke::Kem;

/// The boxed response body of the HTTP layer underneath.
pub type WireBody = UnsyncBoxBody<Bytes, BoxError>;
type WireFuture = Pin<Box<dyn Future<Output = Result<Response<WireBody>, BoxError>> + Send>>;
/// The HTTP layer underneath, as a shared function.
pub(crate) type HttpFn = Arc<dyn Fn(Request<Full<Bytes>>) -> WireFuture + Send + Sync>;

/// Client settings (see [`crate::NenClientBuilder`]).
#[derive(Clone, Debug)]
pub(crate) struct Config {
    pub pins: Vec<ServerPin>,
    pub kem: Kem,
    pub session_path: String,
    pub lifetime: u32,
    pub timeout: Duration,
    pub max_response_bytes: usize,
    pub retry: bool,
    pub confidential_query: bool,
}

impl Default for Config {
    /// The builder's defaults: no pins, X-Wing, `/api/nen`, the server's maximum lifetime, 30 s,
    /// 4 MiB responses, the protocol 1.1 retry on, the query string in the clear.
    fn default() -> Self {
        Self {
            pins: Vec::new(),
            kem: Kem::XWing,
            session_path: "/api/nen".to_owned(),
            lifetime: 0,
            timeout: Duration::from_secs(30),
            max_response_bytes: 4 << 20,
            retry: true,
            confidential_query: false,
        }
    }
}

/// What a handshake established (for logs and tests; no secrets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionInfo {
    /// The session id, 22 base64url characters.
    pub session_id: String,
    /// The pinned key id used, `None` when unpinned.
    pub key_id: Option<String>,
    /// `"xwing"` or `"mlkem768"`.
    pub kem: &'static str,
}

pub(crate) struct Inner {
    pub http: HttpFn,
    pub cfg: Config,
    session: Mutex<Option<Arc<Session>>>,
    handshake_lock: tokio::sync::Mutex<()>,
    backoff: Mutex<Duration>,
}

/// A Nen client: one session, pinned by default. Cheap to clone (shared state); use it directly
/// ([`NenClient::send`], [`NenClient::send_streaming`]) or as a `tower::Service`.
#[derive(Clone)]
pub struct NenClient {
    pub(crate) inner: Arc<Inner>,
}

impl std::fmt::Debug for NenClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NenClient").field("config", &self.inner.cfg).finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl NenClient {
    pub(crate) fn from_parts(http: HttpFn, cfg: Config) -> Self {
        let inner = Inner {
            http,
            cfg,
            session: Mutex::new(None),
            handshake_lock: tokio::sync::Mutex::new(()),
            backoff: Mutex::new(Duration::ZERO),
        };
        Self { inner: Arc::new(inner) }
    }

    /// Runs a fresh handshake with `origin` now (replacing any session).
    pub async fn handshake(&self, origin: &str) -> Result<SessionInfo, Error> {
        let _guard = self.inner.handshake_lock.lock().await;
        let s = self.run_handshake(origin).await?;
        Ok(s)
    }

    /// Drops the session (no network call).
    pub fn close(&self) {
        lock(&self.inner.session).take();
    }

    fn info(s: &Session) -> SessionInfo {
        SessionInfo { session_id: crate::schedule::b64u(&s.sid), key_id: s.kid.clone(), kem: kem_name(s.kem) }
    }

    async fn run_handshake(&self, origin: &str) -> Result<SessionInfo, Error> {
        let cfg = &self.inner.cfg;
        let pins: Vec<Option<&ServerPin>> =
            if cfg.pins.is_empty() { vec![None] } else { cfg.pins.iter().map(Some).collect() };
        let mut last = None;
        for pin in pins {
            match tokio::time::timeout(cfg.timeout, self.handshake_once(origin, pin)).await {
                Err(_) => return Err(timeout_error()),
                Ok(Ok(s)) => {
                    let info = Self::info(&s);
                    *lock(&self.inner.session) = Some(Arc::new(s));
                    return Ok(info);
                }
                Ok(Err(e)) if e.code() == codes::UNKNOWN_KEY_ID && e.status() == Some(400) => last = Some(e),
                Ok(Err(e)) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| Error::new(codes::HANDSHAKE_FAILED, "no pin to try")))
    }

    async fn handshake_once(&self, origin: &str, pin: Option<&ServerPin>) -> Result<Session, Error> {
        let cfg = &self.inner.cfg;
        let st = HelloState::start(cfg.kem, cfg.lifetime, pin)?;
        let uri = format!("{origin}{}/handshake", cfg.session_path);
        let req = Request::post(uri)
            .header(http::header::CONTENT_TYPE, "application/nen-handshake")
            .body(Full::new(Bytes::from(st.hello.clone())))
            .map_err(|e| Error::new(codes::BAD_INPUT, "invalid handshake URI").with_cause(e))?;
        let sent = now_ms();
        let res = (self.inner.http)(req).await.map_err(network)?;
        let (parts, body) = res.into_parts();
        if parts.status != http::StatusCode::OK {
            let code = parts.headers.get("nen-error").and_then(|v| v.to_str().ok());
            let e = Error::from_answer(parts.status.as_u16(), code, "handshake answer without a Nen envelope");
            return Err(if e.code() == codes::RESPONSE_UNAUTHENTICATED {
                Error::new(codes::HANDSHAKE_FAILED, "the handshake was refused without a protocol error")
            } else {
                e
            });
        }
        let ct = parts.headers.get(http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
        if envelope::media_type(ct) != "application/nen-handshake" {
            return Err(Error::new(codes::HANDSHAKE_FAILED, "the ServerHello has the wrong content type"));
        }
        let sh = read_bounded(body, &parts.headers, 4096).await.map_err(|e| {
            if e.code() == codes::NETWORK { e } else { Error::new(codes::HANDSHAKE_FAILED, "ServerHello too long") }
        })?;
        let received = Instant::now();
        let received_ms = now_ms();
        let est = st.finish(&sh)?;
        let keys = EpochKeys::derive(&est.s0)?;
        let skew = i64::try_from(est.server_time).unwrap_or(i64::MAX).saturating_sub((sent + received_ms) / 2);
        let kem = pin.map_or(cfg.kem, ServerPin::kem);
        Ok(Session::new(&est, keys, skew, received, origin.to_owned(), pin.map(|p| p.kid().to_owned()), kem))
    }

    /// The session for `origin`: the current one, or a new handshake.
    async fn ensure(&self, origin: &str) -> Result<Arc<Session>, Error> {
        if let Some(s) = lock(&self.inner.session).as_ref().filter(|s| s.usable_for(origin)) {
            return Ok(Arc::clone(s));
        }
        let _guard = self.inner.handshake_lock.lock().await;
        if let Some(s) = lock(&self.inner.session).as_ref().filter(|s| s.usable_for(origin)) {
            return Ok(Arc::clone(s));
        }
        self.run_handshake(origin).await?;
        lock(&self.inner.session)
            .clone()
            .ok_or_else(|| Error::new(codes::HANDSHAKE_FAILED, "the session was closed during the handshake"))
    }

    fn invalidate(&self, s: &Arc<Session>) {
        let mut cur = lock(&self.inner.session);
        if cur.as_ref().is_some_and(|c| Arc::ptr_eq(c, s)) {
            *cur = None;
        }
    }

    fn next_backoff(&self) -> Duration {
        let mut b = lock(&self.inner.backoff);
        *b = (*b * 2).clamp(Duration::from_millis(250), Duration::from_secs(10));
        *b
    }

    /// Sends a request and reads the whole answer (a stream answer is read to its authenticated
    /// end, up to the response limit).
    pub async fn send(&self, req: Request<Bytes>) -> Result<Response<Bytes>, Error> {
        let res = self.send_streaming(req).await?;
        let (parts, body) = res.into_parts();
        let body = body.collect(self.inner.cfg.max_response_bytes).await?;
        Ok(Response::from_parts(parts, body))
    }

    /// Sends a request; the answer's body is a [`NenBody`] (a stream is read incrementally).
    pub async fn send_streaming(&self, req: Request<Bytes>) -> Result<Response<NenBody>, Error> {
        let (parts, body) = req.into_parts();
        let origin = origin_of(&parts.uri)?;
        let p = prepare(&parts, body)?;
        let s = self.ensure(&origin).await?; // not sent on failure
        let sent_at = Instant::now();
        let (meta, err) = match self.attempt(&parts.headers, &p, &s, None).await {
            Ok(res) => {
                *lock(&self.inner.backoff) = Duration::ZERO;
                return Ok(res);
            }
            Err(Failure::NotSent(e)) => return Err(e),
            Err(Failure::Sent(meta, e)) => (meta, e),
        };
        if err.recovery() != Recovery::Fail {
            self.invalidate(&s);
        }
        match decide(err, false, sent_at.elapsed(), false, self.inner.cfg.retry) {
            Decision::Throw(e) => return Err(e),
            Decision::Retry { backoff: true } => tokio::time::sleep(self.next_backoff()).await,
            Decision::Retry { backoff: false } => {}
        }
        let s = self.ensure(&origin).await.map_err(Error::outcome_unknown)?;
        let original = meta.reference();
        let res = match self.attempt(&parts.headers, &p, &s, Some(&original)).await {
            Ok(res) => res,
            Err(Failure::NotSent(e) | Failure::Sent(_, e)) => {
                if e.recovery() != Recovery::Fail {
                    self.invalidate(&s);
                }
                return Err(e.outcome_unknown());
            }
        };
        refused_retry(&res)?;
        *lock(&self.inner.backoff) = Duration::ZERO;
        Ok(res)
    }

    /// One sealed exchange under session `s`.
    async fn attempt(
        &self,
        app_headers: &HeaderMap,
        p: &Prepared,
        s: &Arc<Session>,
        retry: Option<&str>,
    ) -> Result<Response<NenBody>, Failure> {
        let cfg = &self.inner.cfg;
        let seq = s.seq.acquire().await;
        let mut meta = RequestMeta { sid: s.sid, epoch: s.epoch, seq, ts: s.timestamp(), flags: 0 };
        let sealed = match envelope::seal(&s.keys, p, &mut meta, cfg.confidential_query, retry) {
            Ok(v) => v,
            Err(e) => {
                s.seq.release(seq);
                return Err(Failure::NotSent(e));
            }
        };
        let req = match wire_request(&s.origin, app_headers, p, sealed) {
            Ok(v) => v,
            Err(e) => {
                s.seq.release(seq);
                return Err(Failure::NotSent(e));
            }
        };
        let deadline = tokio::time::Instant::now() + cfg.timeout;
        let head = tokio::time::timeout_at(deadline, (self.inner.http)(req)).await;
        s.seq.release(seq); // the server has committed or refused it by the response head
        let res = match head {
            Err(_) => return Err(Failure::Sent(meta, timeout_error())),
            Ok(Err(e)) => return Err(Failure::Sent(meta, network(e))),
            Ok(Ok(res)) => res,
        };
        let open = self.open_response(res, p, s, seq);
        match tokio::time::timeout_at(deadline, open).await {
            Err(_) => Err(Failure::Sent(meta, timeout_error())),
            Ok(Err(e)) => Err(Failure::Sent(meta, e)),
            Ok(Ok(res)) => Ok(res),
        }
    }

    async fn open_response(
        &self,
        res: Response<WireBody>,
        p: &Prepared,
        s: &Arc<Session>,
        seq: u64,
    ) -> Result<Response<NenBody>, Error> {
        let (mut parts, body) = res.into_parts();
        let status = parts.status.as_u16();
        let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
        let Some(flags) = header("nen").and_then(envelope::parse_response_nen) else {
            let detail = format!("response (HTTP {status}) has no Nen envelope");
            return Err(Error::from_answer(status, header("nen-error"), &detail));
        };
        let nen_type = header("nen-type").unwrap_or("").to_owned();
        let aad = envelope::response_aad(&s.sid, s.epoch, seq, status, flags, &nen_type);
        let body = if flags & FLAG_STREAM != 0 {
            let ct = envelope::media_type(header("content-type").unwrap_or(""));
            if flags != FLAG_STREAM || status != 200 || ct != "application/nen-stream" {
                return Err(Error::new(
                    codes::RESPONSE_UNAUTHENTICATED,
                    "stream envelope with a wrong status, content type or flags",
                ));
            }
            NenBody::records(body, RecordReceiver::new(Arc::clone(&s.keys), false, seq, &aad))
        } else {
            let bodiless = envelope::null_body_status(status) || p.method == "HEAD";
            let nen_body: Vec<&str> =
                parts.headers.get_all("nen-body").iter().filter_map(|v| v.to_str().ok()).collect();
            let wire = if bodiless {
                Vec::new()
            } else {
                read_bounded(body, &parts.headers, self.inner.cfg.max_response_bytes + envelope::TAG_LEN).await?
            };
            let record = envelope::response_record(bodiless, &nen_body, header("content-type"), wire)?;
            let plain = envelope::open_single(&s.keys, seq, &aad, flags, &record)?;
            NenBody::full(if bodiless { Bytes::new() } else { Bytes::from(plain) })
        };
        for name in ENVELOPE_RESPONSE_HEADERS {
            parts.headers.remove(name);
        }
        if !nen_type.is_empty() {
            if let Ok(v) = HeaderValue::from_str(&nen_type) {
                parts.headers.insert(http::header::CONTENT_TYPE, v);
            }
        }
        Ok(Response::from_parts(parts, body))
    }
}

/// How an attempt failed: before sending (safe to repeat) or after (with the request's fields).
enum Failure {
    NotSent(Error),
    Sent(RequestMeta, Error),
}
