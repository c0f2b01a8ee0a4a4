//! The message envelope (PROTOCOL.md §5, §5.2, §5.4): request flags, the `nen` and `nen-retry`
//! headers, the request and response AADs, sealing a request and opening a single response.
//!
//! Pitfalls: the AAD binds the canonical target (§5.3) while the wire carries the path and raw
//! query; with the confidential query the wire has no `?` and the AAD target is the path alone.
//! GET/HEAD put the sealed record in `nen-body`; so do null-body statuses and every HEAD answer.
//! A COMPRESSED response is refused: this client never sends ACCEPT_COMPRESSED (0x08).

use crate::error::{Error, codes};
use crate::schedule::{EpochKeys, b64u, b64u_decode, nonce};

pub(crate) const FLAG_COMPRESSED: u8 = 0x01;
pub(crate) const FLAG_CONFIDENTIAL: u8 = 0x02;
pub(crate) const FLAG_STREAM: u8 = 0x04;
pub(crate) const FLAG_RETRY: u8 = 0x10;
pub(crate) const TAG_LEN: usize = 16;

/// The `nen` fields of a request; its first four also name it in `nen-retry`.
#[derive(Clone, Debug)]
pub(crate) struct RequestMeta {
    pub sid: [u8; 16],
    pub epoch: u32,
    pub seq: u64,
    pub ts: u64,
    pub flags: u8,
}

impl RequestMeta {
    /// `<sid>.<epoch>.<seq>.<ts>` (the `nen-retry` value naming this request).
    pub(crate) fn reference(&self) -> String {
        format!("{}.{}.{}.{}", b64u(&self.sid), self.epoch, self.seq, self.ts)
    }

    pub(crate) fn header(&self) -> String {
        format!("1.{}.{}", self.reference(), self.flags)
    }
}

fn lp(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u16).to_be_bytes());
    out.extend_from_slice(b);
}

/// The request AAD (§5).
pub(crate) fn request_aad(
    m: &RequestMeta,
    method: &str,
    target: &str,
    content_type: &str,
    retry: Option<&str>,
) -> Vec<u8> {
    let mut a = Vec::with_capacity(64 + method.len() + target.len() + content_type.len());
    a.extend_from_slice(b"nen/1 request");
    a.push(1);
    a.extend_from_slice(&m.sid);
    a.extend_from_slice(&m.epoch.to_be_bytes());
    a.extend_from_slice(&m.seq.to_be_bytes());
    a.extend_from_slice(&m.ts.to_be_bytes());
    a.push(m.flags);
    lp(&mut a, method.as_bytes());
    lp(&mut a, target.as_bytes());
    lp(&mut a, content_type.as_bytes());
    if let Some(r) = retry {
        lp(&mut a, r.as_bytes());
    }
    a
}

/// The response AAD (§5.2).
pub(crate) fn response_aad(sid: &[u8; 16], epoch: u32, seq: u64, status: u16, flags: u8, nen_type: &str) -> Vec<u8> {
    let mut a = Vec::with_capacity(64 + nen_type.len());
    a.extend_from_slice(b"nen/1 response");
    a.push(1);
    a.extend_from_slice(sid);
    a.extend_from_slice(&epoch.to_be_bytes());
    a.extend_from_slice(&seq.to_be_bytes());
    a.extend_from_slice(&status.to_be_bytes());
    a.push(flags);
    lp(&mut a, nen_type.as_bytes());
    a
}

/// A request ready to seal: method, wire path, raw query, plaintext type and body.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub content_type: String,
    pub body: bytes::Bytes,
}

impl Prepared {
    pub(crate) fn bodyless(&self) -> bool {
        self.method == "GET" || self.method == "HEAD"
    }
}

/// A sealed request: the envelope headers, the wire path-and-query and the body.
pub(crate) struct Sealed {
    pub headers: Vec<(&'static str, String)>,
    pub path_and_query: String,
    pub body: Option<Vec<u8>>,
}

/// Seals `p` (§5, §5.4) under `keys` with the fields of `m` (flags completed here).
pub(crate) fn seal(
    keys: &EpochKeys,
    p: &Prepared,
    m: &mut RequestMeta,
    confidential: bool,
    retry: Option<&str>,
) -> Result<Sealed, Error> {
    let query = p.query.as_deref().filter(|q| !q.is_empty());
    let mut path_and_query = match query {
        Some(q) => format!("{}?{q}", p.path),
        None => p.path.clone(),
    };
    let mut target = crate::target::canonical_target(&p.path, query);
    let mut plain: std::borrow::Cow<'_, [u8]> = std::borrow::Cow::Borrowed(&p.body);
    if let (true, Some(q)) = (confidential, query) {
        m.flags |= FLAG_CONFIDENTIAL;
        target.clone_from(&p.path);
        path_and_query.clone_from(&p.path);
        let mut v = Vec::with_capacity(2 + q.len() + p.body.len());
        lp(&mut v, q.as_bytes());
        v.extend_from_slice(&p.body);
        plain = std::borrow::Cow::Owned(v);
    }
    if retry.is_some() {
        m.flags |= FLAG_RETRY;
    }
    let aad = request_aad(m, &p.method, &target, &p.content_type, retry);
    let record = keys
        .c2s
        .seal(&nonce(&keys.c2s_iv, 0, m.seq), &aad, &plain)
        .map_err(|e| Error::new(codes::PROTOCOL_ERROR, "sealing failed").with_cause(e))?;
    let mut headers = vec![("nen", m.header())];
    if let Some(r) = retry {
        headers.push(("nen-retry", r.to_owned()));
    }
    if !p.content_type.is_empty() {
        headers.push(("nen-type", p.content_type.clone()));
    }
    let body = if p.bodyless() {
        headers.push(("nen-body", b64u(&record)));
        None
    } else {
        headers.push(("content-type", "application/nen".to_owned()));
        Some(record)
    };
    Ok(Sealed { headers, path_and_query, body })
}

/// The response `nen` header `1.<flags>` (flags 0, 1, 4 or 5).
pub(crate) fn parse_response_nen(v: &str) -> Option<u8> {
    let b = v.as_bytes();
    if b.len() != 3 || b[0] != b'1' || b[1] != b'.' || !b[2].is_ascii_digit() {
        return None;
    }
    let f = b[2] - b'0';
    (f & !(FLAG_COMPRESSED | FLAG_STREAM) == 0).then_some(f)
}

/// The media type of a content type: lower case, parameters dropped.
pub(crate) fn media_type(v: &str) -> String {
    v.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// Statuses whose answers carry no body: the record travels in `nen-body`.
pub(crate) fn null_body_status(status: u16) -> bool {
    matches!(status, 101 | 103 | 204 | 205 | 304)
}

fn unauthenticated(m: &str) -> Error {
    Error::new(codes::RESPONSE_UNAUTHENTICATED, m)
}

/// The sealed record of a single (non-stream) response: `nen-body` for bodiless answers, else
/// the body (whose content type must be `application/nen`).
pub(crate) fn response_record(
    bodiless: bool,
    nen_body: &[&str],
    content_type: Option<&str>,
    body: Vec<u8>,
) -> Result<Vec<u8>, Error> {
    if bodiless {
        return match nen_body {
            [one] => b64u_decode(one).ok_or_else(|| unauthenticated("nen-body is not base64url")),
            _ => Err(unauthenticated("bodiless response without one nen-body record")),
        };
    }
    if media_type(content_type.unwrap_or("")) != "application/nen" {
        return Err(unauthenticated("sealed response with the wrong content type"));
    }
    Ok(body)
}

/// Opens a single response record with the AAD of its own request (§5.2).
pub(crate) fn open_single(keys: &EpochKeys, seq: u64, aad: &[u8], flags: u8, record: &[u8]) -> Result<Vec<u8>, Error> {
    if record.len() < TAG_LEN {
        return Err(unauthenticated("sealed record shorter than its tag"));
    }
    if flags & FLAG_COMPRESSED != 0 {
        return Err(unauthenticated("compressed response that was not asked for"));
    }
    keys.s2c
        .open(&nonce(&keys.s2c_iv, 0, seq), aad, record)
        .map_err(|e| unauthenticated("response failed authentication (tampered, substituted or forged)").with_cause(e))
}
