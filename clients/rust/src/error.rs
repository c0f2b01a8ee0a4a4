//! Typed errors of the Nen client, each with the stable code `@nen/client` reports (ERROR_CODES.md).
//!
//! Pitfalls: an unauthenticated protocol error (`nen-error` header) is taken as such only when
//! the HTTP status is the one the catalog lists for its code; anything else without a valid
//! envelope is `NEN_RESPONSE_UNAUTHENTICATED`. These errors are hints, never proof that the
//! handler did not run (PROTOCOL.md §7). Messages never carry secret material.

use std::fmt;

/// A boxed error from the HTTP layer underneath.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Codes raised by the client itself (ERROR_CODES.md, "Raised by the client only").
pub mod codes {
    /// The ServerHello failed key confirmation or was malformed.
    pub const HANDSHAKE_FAILED: &str = "NEN_HANDSHAKE_FAILED";
    /// The pin is not `kid:base64url(publicKey)` of an X-Wing or ML-KEM-768 key.
    pub const BAD_SERVER_KEY: &str = "NEN_BAD_SERVER_KEY";
    /// A response has no valid Nen envelope or fails authentication.
    pub const RESPONSE_UNAUTHENTICATED: &str = "NEN_RESPONSE_UNAUTHENTICATED";
    /// An encrypted stream ended before its final record.
    pub const STREAM_TRUNCATED: &str = "NEN_STREAM_TRUNCATED";
    /// A stream record is malformed, reordered, duplicated, forged, or follows the final record.
    pub const STREAM_INVALID: &str = "NEN_STREAM_INVALID";
    /// No complete response within the timeout.
    pub const TIMEOUT: &str = "NEN_TIMEOUT";
    /// Invalid arguments.
    pub const BAD_INPUT: &str = "NEN_BAD_INPUT";
    /// Sent, and no authenticated answer came back: the handler ran at most once.
    pub const OUTCOME_UNKNOWN: &str = "NEN_OUTCOME_UNKNOWN";
    /// Sealed answer to a retry: the original was committed; the retry did not run.
    pub const RETRY_COMMITTED: &str = "NEN_RETRY_COMMITTED";
    /// Sealed answer to a retry: the server cannot prove the original did not commit.
    pub const RETRY_UNKNOWN: &str = "NEN_RETRY_UNKNOWN";
    /// The pinned key id is not a live server key.
    pub const UNKNOWN_KEY_ID: &str = "NEN_UNKNOWN_KEY_ID";
    /// Generic protocol error (reserved; an internal failure that cannot happen).
    pub const PROTOCOL_ERROR: &str = "NEN_PROTOCOL_ERROR";
    /// A transport failure the client cannot classify (connection refused, reset, ...).
    pub const NETWORK: &str = "NETWORK";
}

/// What the client does after an unauthenticated error (PROTOCOL.md §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Recovery {
    /// Report it.
    Fail,
    /// One new handshake and one retry naming the original.
    Retry,
    /// The same after a backoff (`NEN_AUTH_FAILED`).
    RetryAfterBackoff,
}

/// The protocol error codes a server sends, with their status (ERROR_CODES.md).
const WIRE_CODES: [(&str, u16, Recovery); 21] = [
    ("NEN_MALFORMED", 400, Recovery::Fail),
    ("NEN_UNSUPPORTED_VERSION", 400, Recovery::Fail),
    ("NEN_UNSUPPORTED_KEM", 400, Recovery::Fail),
    ("NEN_UNKNOWN_KEY_ID", 400, Recovery::Fail),
    ("NEN_NOT_ENCRYPTED", 400, Recovery::Fail),
    ("NEN_BAD_JSON", 400, Recovery::Fail),
    ("NEN_AUTH_FAILED", 401, Recovery::RetryAfterBackoff),
    ("NEN_SESSION_UNKNOWN", 401, Recovery::Retry),
    ("NEN_SESSION_EXPIRED", 401, Recovery::Retry),
    ("NEN_TIMESTAMP", 401, Recovery::Retry),
    ("NEN_REPLAY", 409, Recovery::Fail),
    ("NEN_RETRY_COMMITTED", 409, Recovery::Fail),
    ("NEN_RETRY_UNKNOWN", 409, Recovery::Fail),
    ("NEN_STREAM_TRUNCATED", 400, Recovery::Fail),
    ("NEN_TOO_LARGE", 413, Recovery::Fail),
    ("NEN_CONTENT_TYPE", 415, Recovery::Fail),
    ("NEN_RATE_LIMITED", 429, Recovery::Fail),
    ("NEN_NOT_FOUND", 404, Recovery::Fail),
    ("NEN_METHOD_NOT_ALLOWED", 405, Recovery::Fail),
    ("NEN_INTERNAL", 500, Recovery::Fail),
    ("NEN_STORE_UNAVAILABLE", 503, Recovery::Fail),
];

fn wire_code(code: &str, status: u16) -> Option<(&'static str, Recovery)> {
    WIRE_CODES.iter().find(|(c, s, _)| *c == code && *s == status).map(|(c, _, r)| (*c, *r))
}

/// A Nen client error: a stable `code`, the HTTP `status` of an unauthenticated protocol error,
/// a message, and the underlying cause (for `NEN_OUTCOME_UNKNOWN`, the error that made the
/// outcome unknown).
#[derive(Debug)]
pub struct Error {
    code: &'static str,
    status: Option<u16>,
    message: String,
    cause: Option<BoxError>,
}

impl Error {
    pub(crate) fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self { code, status: None, message: message.into(), cause: None }
    }

    pub(crate) fn with_cause(mut self, cause: impl Into<BoxError>) -> Self {
        self.cause = Some(cause.into());
        self
    }

    /// The stable code, e.g. `"NEN_RESPONSE_UNAUTHENTICATED"` (ERROR_CODES.md).
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The HTTP status of an unauthenticated protocol error (or of a sealed 409 retry refusal).
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The code of the underlying Nen error, when the cause is one (e.g. the cause of
    /// `NEN_OUTCOME_UNKNOWN`).
    pub fn cause_code(&self) -> Option<&'static str> {
        self.cause.as_ref().and_then(|c| c.downcast_ref::<Error>()).map(Error::code)
    }

    /// The unauthenticated answer of a server: the `nen-error` code when its status matches the
    /// catalog, else `NEN_RESPONSE_UNAUTHENTICATED`.
    pub(crate) fn from_answer(status: u16, nen_error: Option<&str>, detail: &str) -> Self {
        match nen_error.and_then(|c| wire_code(c, status)) {
            Some((code, _)) => Self {
                code,
                status: Some(status),
                message: "the server refused the request (unauthenticated hint)".into(),
                cause: None,
            },
            None => Self::new(codes::RESPONSE_UNAUTHENTICATED, detail),
        }
    }

    pub(crate) fn sealed_refusal(code: &'static str, message: &str) -> Self {
        Self { code, status: Some(409), message: message.into(), cause: None }
    }

    pub(crate) fn recovery(&self) -> Recovery {
        match self.status {
            Some(s) => wire_code(self.code, s).map_or(Recovery::Fail, |(_, r)| r),
            None => Recovery::Fail,
        }
    }

    /// Wraps a sent request's failure as `NEN_OUTCOME_UNKNOWN` (kept as is when it already is,
    /// or is the authenticated `NEN_RETRY_COMMITTED`).
    pub(crate) fn outcome_unknown(self) -> Self {
        if self.code == codes::OUTCOME_UNKNOWN || self.code == codes::RETRY_COMMITTED {
            return self;
        }
        Self::new(
            codes::OUTCOME_UNKNOWN,
            "the request was sent and no authenticated answer came back; it ran at most once",
        )
        .with_cause(self)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "nen: {} [{}]", self.message, self.code)?;
        if let Some(c) = &self.cause {
            write!(f, ": {c}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.cause.as_ref().map(|c| c.as_ref() as &(dyn std::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_counts_only_with_its_status() {
        assert_eq!(Error::from_answer(401, Some("NEN_AUTH_FAILED"), "x").code(), "NEN_AUTH_FAILED");
        assert_eq!(Error::from_answer(500, Some("NEN_AUTH_FAILED"), "x").code(), codes::RESPONSE_UNAUTHENTICATED);
        assert_eq!(Error::from_answer(401, Some("NEN_AUTH_FAILED"), "x").recovery(), Recovery::RetryAfterBackoff);
        let e = Error::from_answer(401, Some("NEN_SESSION_UNKNOWN"), "x").outcome_unknown();
        assert_eq!((e.code(), e.cause_code()), (codes::OUTCOME_UNKNOWN, Some("NEN_SESSION_UNKNOWN")));
    }
}
