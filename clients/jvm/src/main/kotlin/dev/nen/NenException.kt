// Nen's typed errors (ERROR_CODES.md): every failure is a NenException with a stable `code` and,
// for a server's unauthenticated refusal or a sealed 409 answering a retry, its HTTP `status`.
//
// Pitfalls: a server's protocol error is unauthenticated, so its `nen-error` code is trusted only
// when the HTTP status is the one the catalog lists; anything else without a valid envelope is
// NEN_RESPONSE_UNAUTHENTICATED. NEN_OUTCOME_UNKNOWN keeps the underlying error as its `cause`.
package dev.nen

/** A Nen failure; [code] is from ERROR_CODES.md, [status] the HTTP status of a server-reported code (else -1). */
class NenException
    @JvmOverloads
    constructor(
        val code: String,
        message: String,
        val status: Int = -1,
        cause: Throwable? = null,
    ) : java.io.IOException(message, cause) {
        /** The code of the underlying error of NEN_OUTCOME_UNKNOWN, or null. */
        val causeCode: String?
            get() = (cause as? NenException)?.code ?: cause?.let { it::class.java.simpleName }

        override fun toString(): String = "NenException[$code${if (status >= 0) " $status" else ""}]: $message"

        internal companion object {
            /** Server-sent codes: status, and whether a conforming client re-handshakes and retries. */
            val WIRE: Map<String, Pair<Int, Recovery>> =
                mapOf(
                    "NEN_MALFORMED" to (400 to Recovery.FAIL),
                    "NEN_UNSUPPORTED_VERSION" to (400 to Recovery.FAIL),
                    "NEN_UNSUPPORTED_KEM" to (400 to Recovery.FAIL),
                    "NEN_UNKNOWN_KEY_ID" to (400 to Recovery.FAIL),
                    "NEN_NOT_ENCRYPTED" to (400 to Recovery.FAIL),
                    "NEN_BAD_JSON" to (400 to Recovery.FAIL),
                    "NEN_AUTH_FAILED" to (401 to Recovery.BACKOFF_RETRY),
                    "NEN_SESSION_UNKNOWN" to (401 to Recovery.RETRY),
                    "NEN_SESSION_EXPIRED" to (401 to Recovery.RETRY),
                    "NEN_TIMESTAMP" to (401 to Recovery.RETRY),
                    "NEN_REPLAY" to (409 to Recovery.FAIL),
                    "NEN_RETRY_COMMITTED" to (409 to Recovery.FAIL),
                    "NEN_RETRY_UNKNOWN" to (409 to Recovery.FAIL),
                    "NEN_STREAM_TRUNCATED" to (400 to Recovery.FAIL),
                    "NEN_TOO_LARGE" to (413 to Recovery.FAIL),
                    "NEN_CONTENT_TYPE" to (415 to Recovery.FAIL),
                    "NEN_RATE_LIMITED" to (429 to Recovery.FAIL),
                    "NEN_NOT_FOUND" to (404 to Recovery.FAIL),
                    "NEN_METHOD_NOT_ALLOWED" to (405 to Recovery.FAIL),
                    "NEN_INTERNAL" to (500 to Recovery.FAIL),
                    "NEN_STORE_UNAVAILABLE" to (503 to Recovery.FAIL),
                )

            fun client(
                code: String,
                message: String,
                cause: Throwable? = null,
            ) = NenException(code, "nen: $message", -1, cause)

            /** An unauthenticated error answer: its code when the status matches the catalog. */
            fun server(
                status: Int,
                codeHeader: String?,
                detail: String,
            ): NenException {
                val spec = codeHeader?.let { WIRE[it] }
                if (spec != null && spec.first == status) {
                    return NenException(codeHeader, "nen: server reported $codeHeader", status)
                }
                return client("NEN_RESPONSE_UNAUTHENTICATED", detail)
            }

            fun recoveryOf(e: Throwable): Recovery {
                if (e !is NenException || e.status < 0) return Recovery.FAIL
                val spec = WIRE[e.code] ?: return Recovery.FAIL
                return if (spec.first == e.status) spec.second else Recovery.FAIL
            }

            fun outcomeUnknown(e: Throwable): NenException {
                val code = (e as? NenException)?.code ?: e::class.java.simpleName
                return client("NEN_OUTCOME_UNKNOWN", "no authenticated answer ($code)", e)
            }
        }
    }

internal enum class Recovery { RETRY, BACKOFF_RETRY, FAIL }
