//! Nen client for Rust: post-quantum end-to-end payload encryption for HTTP APIs protected by
//! `@nen/server` (`withNen`), on the `nen-core` crate (X-Wing / ML-KEM-768 HPKE,
//! ChaCha20-Poly1305). The wire format is PROTOCOL.md in the repository.
//!
//! ```no_run
//! # async fn run() -> Result<(), nen_client::Error> {
//! let pin = std::env::var("NEXT_PUBLIC_NEN_SERVER_KEY").unwrap_or_default();
//! let client = nen_client::NenClient::builder().pin(pin).build()?;
//! let req = http::Request::post("http://127.0.0.1:3000/api/echo")
//!     .header("content-type", "application/json")
//!     .body(bytes::Bytes::from_static(br#"{"hello":"world"}"#))
//!     .map_err(|_| unreachable!())?;
//! let res = client.send(req).await?;
//! println!("{} {:?}", res.status(), res.body());
//! # Ok(()) }
//! ```
//!
//! [`NenClient`] is also a `tower::Service<http::Request<Bytes>>`, and [`NenLayer`] wraps any
//! HTTP service (`hyper_util`'s client, or your own stack) in one. Errors carry the codes
//! `@nen/client` reports (ERROR_CODES.md). Pitfall: the client is pinned by default; running
//! without a pin must be asked for ([`NenClientBuilder::insecure_unpinned`]).

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod client;
pub mod conformance;
mod envelope;
mod error;
mod retry;
mod schedule;
mod session;
mod stream;
mod target;
mod wire;

use std::future::Future;
use std::pin::Pin as StdPin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
pub use nen_core::hpke::Kem;

pub use client::{NenClient, SessionInfo, WireBody};
pub use error::{BoxError, Error, codes};
pub use schedule::{Pin, kem_name};
pub use stream::NenBody;

/// Settings of a [`NenClient`]. Pinned by default: [`build`](Self::build) refuses to run
/// without a pin unless [`insecure_unpinned`](Self::insecure_unpinned) was called.
#[derive(Clone, Debug, Default)]
pub struct NenClientBuilder {
    pins: Vec<String>,
    unpinned: bool,
    /// Every other setting, with its default (`client::Config::default`); `pins` stays empty here.
    cfg: client::Config,
}

impl NenClientBuilder {
    /// Adds a pin `kid:base64url(publicKey)` (call again for more, newest first).
    pub fn pin(mut self, pin: impl Into<String>) -> Self {
        self.pins.push(pin.into());
        self
    }

    /// Runs unpinned with this KEM: the handshake then authenticates nothing beyond TLS.
    pub fn insecure_unpinned(mut self, kem: Kem) -> Self {
        self.unpinned = true;
        self.cfg.kem = kem;
        self
    }

    /// The absolute path of the session routes (default `/api/nen`).
    pub fn session_path(mut self, path: impl Into<String>) -> Self {
        self.cfg.session_path = path.into().trim_end_matches('/').to_owned();
        self
    }

    /// The session lifetime to ask for, in seconds (0, the default: the server's maximum).
    pub fn lifetime(mut self, seconds: u32) -> Self {
        self.cfg.lifetime = seconds;
        self
    }

    /// The whole-exchange timeout (default 30 s): `NEN_TIMEOUT` when it passes.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.cfg.timeout = timeout;
        self
    }

    /// The largest response body accepted (default 4 MiB); a larger one is refused unread.
    pub fn max_response_bytes(mut self, n: usize) -> Self {
        self.cfg.max_response_bytes = n;
        self
    }

    /// Whether to send the one protocol 1.1 retry after a 401-class answer (default on).
    pub fn retry(mut self, on: bool) -> Self {
        self.cfg.retry = on;
        self
    }

    /// Moves the query string inside the envelope (PROTOCOL.md §5.4; default off).
    pub fn confidential_query(mut self, on: bool) -> Self {
        self.cfg.confidential_query = on;
        self
    }

    fn config(&self) -> Result<client::Config, Error> {
        let pins = self.pins.iter().map(|p| Pin::parse(p)).collect::<Result<Vec<_>, _>>()?;
        if pins.is_empty() && !self.unpinned {
            return Err(Error::new(
                codes::BAD_SERVER_KEY,
                "no pin given (pins are required; call insecure_unpinned() to run without one)",
            ));
        }
        let mut kids: Vec<&str> = pins.iter().map(Pin::kid).collect();
        kids.sort_unstable();
        kids.dedup();
        if kids.len() != pins.len() {
            return Err(Error::new(codes::BAD_SERVER_KEY, "two pins have the same key id"));
        }
        if !self.cfg.session_path.starts_with('/') {
            return Err(Error::new(codes::BAD_INPUT, "the session path must be absolute"));
        }
        Ok(client::Config { pins, ..self.cfg.clone() })
    }

    /// A client over `hyper_util`'s pooled HTTP/1.1 client (plain HTTP; put TLS in front with
    /// [`build_with`](Self::build_with) and a TLS connector).
    pub fn build(self) -> Result<NenClient, Error> {
        let http = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
            .build_http::<Full<Bytes>>();
        self.build_with(http)
    }

    /// A client over any HTTP service (e.g. a `hyper_util` client with a TLS connector, or a
    /// tower stack).
    pub fn build_with<S, B>(self, service: S) -> Result<NenClient, Error>
    where
        S: tower_service::Service<Request<Full<Bytes>>, Response = Response<B>> + Clone + Send + Sync + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError>,
        B: http_body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        Ok(NenClient::from_parts(http_fn(service), self.config()?))
    }

    /// A [`NenLayer`] with these settings (checked now).
    pub fn layer(self) -> Result<NenLayer, Error> {
        Ok(NenLayer { cfg: self.config()? })
    }
}

fn http_fn<S, B>(service: S) -> client::HttpFn
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = Response<B>> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    Arc::new(move |req| {
        let mut svc = service.clone();
        Box::pin(async move {
            std::future::poll_fn(|cx| svc.poll_ready(cx)).await.map_err(Into::into)?;
            let res = svc.call(req).await.map_err(Into::into)?;
            Ok(res.map(|b| b.map_err(Into::into).boxed_unsync()))
        })
    })
}

impl NenClient {
    /// The settings, starting from the defaults.
    pub fn builder() -> NenClientBuilder {
        NenClientBuilder::default()
    }
}

/// A `tower::Layer` turning an HTTP service into a [`NenClient`] (itself a `tower::Service`).
#[derive(Clone, Debug)]
pub struct NenLayer {
    cfg: client::Config,
}

impl<S, B> tower_layer::Layer<S> for NenLayer
where
    S: tower_service::Service<Request<Full<Bytes>>, Response = Response<B>> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Service = NenClient;

    fn layer(&self, inner: S) -> NenClient {
        NenClient::from_parts(http_fn(inner), self.cfg.clone())
    }
}

impl tower_service::Service<Request<Bytes>> for NenClient {
    type Response = Response<NenBody>;
    type Error = Error;
    type Future = StdPin<Box<dyn Future<Output = Result<Response<NenBody>, Error>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<Bytes>) -> Self::Future {
        let client = self.clone();
        Box::pin(async move { client.send_streaming(req).await })
    }
}
