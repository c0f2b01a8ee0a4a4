// The client core shared by NenHttpClient and NenInterceptor: one session per client (made
// against the request's origin), handshakes with pin fallback (PROTOCOL.md §2, §3), and the 1.1
// retry rules (§7, §7.1) around one exchange.
//
// Pitfalls: after an unauthenticated 401-class answer to a request that was sent: one
// re-handshake (after a backoff, 250 ms doubling to 10 s, for NEN_AUTH_FAILED) and ONE retry naming
// the original, only within 60 s of the original; any failure of it is NEN_OUTCOME_UNKNOWN; a
// sealed 409 NEN_RETRY_COMMITTED is thrown as such. Other unauthenticated errors (a forged 5xx,
// ...) are never retried. One handshake at a time; the sequence number is released at the
// response head. Only NEN_UNKNOWN_KEY_ID (status 400) moves a handshake on to the next pin.
package dev.nen

import java.io.ByteArrayInputStream
import java.io.IOException
import java.net.URI
import java.util.concurrent.locks.ReentrantLock
import kotlin.concurrent.withLock

internal class Engine(val options: NenOptions) {
    @Volatile var session: Session? = null
        private set
    private val lock = ReentrantLock()

    @Volatile private var backoffMs = 0L

    fun drop() {
        session = null
    }

    private fun originOf(uri: URI) = uri.scheme + "://" + uri.rawAuthority

    /** A fresh handshake now against [uri]'s origin, replacing the session. */
    fun handshake(wire: Wire, uri: URI, deadline: Deadline = Deadline(options.timeoutMs)): Session =
        lock.withLock {
            runHandshake(wire, originOf(uri), deadline).also { session = it }
        }

    private fun ensure(wire: Wire, uri: URI, deadline: Deadline): Session {
        val origin = originOf(uri)
        session?.let { if (it.usable(System.currentTimeMillis()) && it.origin == origin) return it }
        return lock.withLock {
            session?.let { if (it.usable(System.currentTimeMillis()) && it.origin == origin) return it }
            runHandshake(wire, origin, deadline).also { session = it }
        }
    }

    private fun runHandshake(wire: Wire, origin: String, deadline: Deadline): Session {
        val pins: List<Pin?> = options.pins.ifEmpty { listOf(null) }
        for ((i, pin) in pins.withIndex()) {
            try {
                return attemptHandshake(wire, origin, pin, deadline)
            } catch (e: NenException) {
                if (i + 1 < pins.size && e.code == "NEN_UNKNOWN_KEY_ID" && e.status == 400) continue
                throw e
            }
        }
        throw NenException.client("NEN_HANDSHAKE_FAILED", "no pin left")
    }

    private fun attemptHandshake(wire: Wire, origin: String, pin: Pin?, deadline: Deadline): Session {
        val st = HandshakeState(pin?.kem ?: options.kem, pin, options.sessionLifetimeSeconds)
        val uri = URI(origin + options.sessionPath + "/handshake")
        val t0 = System.currentTimeMillis()
        val res = send(wire, WireRequest("POST", uri, listOf("content-type" to Codec.HANDSHAKE), st.hello, deadline, MAX_SERVER_HELLO))
        val body: ByteArray
        res.use {
            if (res.status != 200) throw NenException.server(res.status, res.header("nen-error"), "handshake HTTP ${res.status}")
            if (Codec.mediaType(res.header("content-type")) != Codec.HANDSHAKE) throw NenException.client("NEN_HANDSHAKE_FAILED", "handshake response has the wrong content type")
            body =
                try {
                    Exchange.readBounded(res, MAX_SERVER_HELLO, deadline)
                } catch (e: NenException) {
                    if (e.code == "NEN_TIMEOUT") throw e
                    throw NenException.client("NEN_HANDSHAKE_FAILED", "handshake response too large", e)
                }
        }
        return Session(st.finish(body), t0, System.currentTimeMillis(), origin)
    }

    private fun send(wire: Wire, req: WireRequest): WireResponse {
        req.deadline.check()
        return try {
            wire.exchange(req)
        } catch (e: NenException) {
            throw e
        } catch (e: IOException) {
            if (req.deadline.expired() || e is java.net.http.HttpTimeoutException || e is java.io.InterruptedIOException) throw Deadline.timeout(e)
            throw e
        }
    }

    /** One application request with the retry rules; throws NenException or IOException (transport). */
    fun execute(wire: Wire, p: AppRequest): AppResponse {
        val d = Deadline(options.timeoutMs)
        val s = ensure(wire, p.uri, d) // a failure here: not sent
        val first = Attempt()
        val cause: NenException
        val recovery: Recovery
        try {
            return sendOnce(wire, s, p, d, first, null).also { backoffMs = 0 }
        } catch (e: NenException) {
            recovery = NenException.recoveryOf(e)
            if (recovery == Recovery.FAIL || first.ref == null) throw e
            if (session === s) session = null
            if (!options.retry || System.nanoTime() - first.sentAt > RETRY_HORIZON_NS) throw NenException.outcomeUnknown(e)
            cause = e
        }
        try {
            if (recovery == Recovery.BACKOFF_RETRY) {
                backoffMs = minOf(maxOf(backoffMs * 2, 250), 10_000)
                Thread.sleep(minOf(backoffMs, d.remainingMs()))
            }
            val s2 = ensure(wire, p.uri, d)
            val res =
                try {
                    sendOnce(wire, s2, p, d, null, first.ref)
                } catch (e: NenException) {
                    if (NenException.recoveryOf(e) != Recovery.FAIL && session === s2) session = null
                    throw e
                }
            if (!res.isStream && res.status == 409) {
                val plain = res.body.readAllBytes()
                Exchange.refusedRetry(409, plain)?.let { throw it }
                backoffMs = 0
                return AppResponse(res.status, res.headers, res.contentType, ByteArrayInputStream(plain), plain.size.toLong(), false, plain)
            }
            backoffMs = 0
            return res
        } catch (e: NenException) {
            if (e.code == "NEN_RETRY_COMMITTED" || e.code == "NEN_OUTCOME_UNKNOWN") throw e
            throw NenException.outcomeUnknown(e).also { it.addSuppressed(cause) }
        } catch (e: InterruptedException) {
            Thread.currentThread().interrupt()
            throw NenException.outcomeUnknown(e)
        } catch (e: IOException) {
            throw NenException.outcomeUnknown(e)
        }
    }

    private class Attempt {
        var ref: String? = null
        var sentAt = 0L
    }

    private fun sendOnce(wire: Wire, s: Session, p: AppRequest, d: Deadline, attempt: Attempt?, retryOf: String?): AppResponse {
        val seq = s.counter.acquire(d.remainingNanos())
        if (seq < 0) throw NenException.client("NEN_TIMEOUT", "no sequence number within the timeout (window full)")
        val sealed: Sealed
        val res: WireResponse
        try {
            sealed = Exchange.seal(s, p, seq, options.confidentialQuery, retryOf, d, options.maxResponseBytes)
            if (attempt != null) {
                attempt.ref = sealed.ref
                attempt.sentAt = System.nanoTime()
            }
            res = send(wire, sealed.wire)
        } finally {
            s.counter.release(seq)
        }
        return Exchange.verify(sealed, res, options.maxResponseBytes)
    }

    companion object {
        const val RETRY_HORIZON_NS = 60_000_000_000L
        const val MAX_SERVER_HELLO = 65536L
    }
}
