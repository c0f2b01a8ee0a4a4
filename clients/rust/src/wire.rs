//! The HTTP side of one exchange: the request as prepared from the application's
//! `http::Request`, the wire request with the envelope headers, bounded body reads, and the
//! classification of transport failures.
//!
//! Pitfalls: the application's own `content-type`, `nen*` and `content-length` headers never
//! reach the wire (the envelope sets them); a body is read only up to its limit, and a declared
//! `content-length` over the limit is refused before reading.

use bytes::Bytes;
use http::{HeaderMap, HeaderValue, Request};
use http_body_util::{BodyExt, Full};

use crate::client::WireBody;
use crate::envelope::{self, Prepared};
use crate::error::{BoxError, Error, codes};

pub(crate) const ENVELOPE_REQUEST_HEADERS: [&str; 6] =
    ["content-type", "content-length", "nen", "nen-type", "nen-body", "nen-retry"];
pub(crate) const ENVELOPE_RESPONSE_HEADERS: [&str; 6] =
    ["content-type", "content-length", "content-encoding", "nen", "nen-type", "nen-body"];

pub(crate) fn network(e: BoxError) -> Error {
    Error::new(codes::NETWORK, "the HTTP exchange failed").with_cause(e)
}

pub(crate) fn timeout_error() -> Error {
    Error::new(codes::TIMEOUT, "no complete response within the timeout")
}

/// The scheme and authority of an absolute URI (`http://host:port`).
pub(crate) fn origin_of(uri: &http::Uri) -> Result<String, Error> {
    match (uri.scheme_str(), uri.authority()) {
        (Some(s), Some(a)) => Ok(format!("{s}://{a}")),
        _ => Err(Error::new(codes::BAD_INPUT, "the request URI must be absolute (scheme and host)")),
    }
}

/// Reads a body whole, refusing more than `limit` bytes (checked on `content-length` first).
pub(crate) async fn read_bounded(body: WireBody, headers: &HeaderMap, limit: usize) -> Result<Vec<u8>, Error> {
    let too_large = || Error::new(codes::RESPONSE_UNAUTHENTICATED, "the response body exceeds the response limit");
    let declared = headers.get(http::header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    let mut out = Vec::with_capacity(declared.map_or(0, |n| n as usize));
    let mut body = body;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(network)?;
        if let Ok(data) = frame.into_data() {
            if out.len() + data.len() > limit {
                return Err(too_large());
            }
            out.extend_from_slice(&data);
        }
    }
    Ok(out)
}

pub(crate) fn prepare(parts: &http::request::Parts, body: Bytes) -> Result<Prepared, Error> {
    let method = parts.method.as_str().to_ascii_uppercase();
    if (method == "GET" || method == "HEAD") && !body.is_empty() {
        return Err(Error::new(codes::BAD_INPUT, "a GET or HEAD request cannot have a body"));
    }
    let pq = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let (path, query) = crate::target::split_target(pq);
    let content_type = parts
        .headers
        .get(http::header::CONTENT_TYPE)
        .map(|v| v.to_str().map(str::to_owned))
        .transpose()
        .map_err(|e| Error::new(codes::BAD_INPUT, "the content type is not ASCII").with_cause(e))?
        .unwrap_or_default();
    Ok(Prepared { method, path, query, content_type, body })
}

pub(crate) fn wire_request(
    origin: &str,
    app_headers: &HeaderMap,
    p: &Prepared,
    sealed: envelope::Sealed,
) -> Result<Request<Full<Bytes>>, Error> {
    let bad = |e: http::Error| Error::new(codes::BAD_INPUT, "the request cannot be built").with_cause(e);
    let mut req = Request::builder()
        .method(p.method.as_str())
        .uri(format!("{origin}{}", sealed.path_and_query))
        .body(Full::new(sealed.body.map(Bytes::from).unwrap_or_default()))
        .map_err(bad)?;
    let h = req.headers_mut();
    for (k, v) in app_headers {
        if !ENVELOPE_REQUEST_HEADERS.contains(&k.as_str()) {
            h.append(k, v.clone());
        }
    }
    for (k, v) in sealed.headers {
        let v = HeaderValue::from_str(&v)
            .map_err(|e| Error::new(codes::BAD_INPUT, "a header value is not valid").with_cause(e))?;
        h.insert(k, v);
    }
    Ok(req)
}
