//! The retry rules of protocol 1.1 (PROTOCOL.md §7.1): what a sent request's failure leads to,
//! and the sealed 409 answers to a retry.
//!
//! Pitfalls: only the four 401-class codes with their catalog status are retried, once, never
//! for a streamed body, a retry, or a request older than 60 s; `NEN_RETRY_UNKNOWN` becomes
//! `NEN_OUTCOME_UNKNOWN` with it as the cause, `NEN_RETRY_COMMITTED` is reported as itself.

use std::time::Duration;

use http::Response;

use crate::error::{Error, Recovery, codes};
use crate::stream::NenBody;

/// A retry is sent only within this long after its original.
pub(crate) const RETRY_HORIZON: Duration = Duration::from_secs(60);

/// What to do after a sent request failed (PROTOCOL.md §7.1).
pub(crate) enum Decision {
    /// One new handshake and one retry naming the original, after a backoff or not.
    Retry { backoff: bool },
    /// Report this error.
    Throw(Error),
}

/// The recovery table: a 401-class answer is retried once, unless the request streamed its
/// body, is older than the retry horizon, is itself a retry, or retries are off; then the
/// outcome is unknown. Every other error is reported as is.
pub(crate) fn decide(err: Error, streamed: bool, age: Duration, is_retry: bool, enabled: bool) -> Decision {
    match err.recovery() {
        Recovery::Fail => Decision::Throw(err),
        _ if is_retry || streamed || !enabled || age > RETRY_HORIZON => Decision::Throw(err.outcome_unknown()),
        r => Decision::Retry { backoff: r == Recovery::RetryAfterBackoff },
    }
}

/// A sealed 409 answer to a retry: `NEN_RETRY_COMMITTED`, or `NEN_RETRY_UNKNOWN` reported as
/// `NEN_OUTCOME_UNKNOWN`.
pub(crate) fn refused_retry(res: &Response<NenBody>) -> Result<(), Error> {
    if res.status() != http::StatusCode::CONFLICT {
        return Ok(());
    }
    let Some(body) = res.body().as_full() else { return Ok(()) };
    let code = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("error")?.get("code")?.as_str().map(str::to_owned));
    match code.as_deref() {
        Some(codes::RETRY_COMMITTED) => Err(Error::sealed_refusal(
            codes::RETRY_COMMITTED,
            "the original request was already committed (its handler ran); the retry did not run",
        )),
        Some(codes::RETRY_UNKNOWN) => Err(Error::sealed_refusal(
            codes::RETRY_UNKNOWN,
            "the server cannot prove the original request did not run; the retry did not run",
        )
        .outcome_unknown()),
        _ => Ok(()),
    }
}
