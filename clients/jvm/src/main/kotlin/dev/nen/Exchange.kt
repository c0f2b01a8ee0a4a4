// One encrypted exchange without retries (PROTOCOL.md §5, §5.2, §6): the application's request
// sealed under a session and sequence number, and the checks of the response that answers it.
//
// Pitfalls: never hands the application an unauthenticated body: a response must carry a Nen
// envelope that opens under this request's (session, epoch, seq) and the received status, flags
// and type. GET/HEAD carry the sealed record in `nen-body`; so do responses with a null-body status
// and every response to HEAD (their content-type is not checked). A COMPRESSED response is refused
// (this client never sends ACCEPT_COMPRESSED). A body over the limit is refused after reading at
// most limit + 16 bytes; a stalled body ends at the deadline (the watchdog closes it); the
// deadline ends at a stream's head, as in @nen/client.
package dev.nen

import java.io.ByteArrayInputStream
import java.io.IOException
import java.io.InputStream
import java.net.URI
import java.nio.ByteBuffer
import java.util.concurrent.ScheduledThreadPoolExecutor
import java.util.concurrent.ThreadFactory
import java.util.concurrent.TimeUnit

internal class Sealed(val wire: WireRequest, val ref: String, val keys: EpochKeys, val sid: ByteArray, val seq: Long, val method: String)

internal object Exchange {
    private val REQUEST_ENVELOPE = setOf("content-type", "content-length", "transfer-encoding", "nen", "nen-type", "nen-body", "nen-retry")
    private val RESPONSE_ENVELOPE = setOf("content-type", "content-length", "content-encoding", "transfer-encoding", "nen", "nen-type", "nen-body")
    private val BODYLESS = setOf("GET", "HEAD")

    /** The request with its path made WHATWG-stable (§5.3); the body checked against the method. */
    fun prepare(method: String, uri: URI, headers: List<Pair<String, String>>, body: ByteArray?): AppRequest {
        val m = method.uppercase()
        val b = body ?: ByteArray(0)
        if (m in BODYLESS && b.isNotEmpty()) throw NenException.client("NEN_BAD_INPUT", "$m requests cannot have a body")
        val path = uri.rawPath.ifEmpty { "/" }
        val fixed = Target.whatwgPath(path)
        val u = if (fixed == uri.rawPath) uri else URI(uri.scheme + "://" + uri.rawAuthority + fixed + (uri.rawQuery?.let { "?$it" } ?: ""))
        val kept = headers.filter { it.first.lowercase() !in REQUEST_ENVELOPE || it.first.equals("content-type", true) }
        return AppRequest(m, u, kept, b)
    }

    fun seal(s: Session, p: AppRequest, seq: Long, confidential: Boolean, retryOf: String?, deadline: Deadline, maxBytes: Long): Sealed {
        val keys = s.keys
        val ts = s.timestamp()
        var flags = if (retryOf != null) Codec.REQ_RETRY else 0
        val path = p.uri.rawPath.ifEmpty { "/" }
        val query = p.uri.rawQuery
        var uri = p.uri
        var plaintext = p.body
        val target: String
        if (confidential && !query.isNullOrEmpty()) {
            val q = query.toByteArray(Charsets.UTF_8)
            if (q.size > 0xffff) throw NenException.client("NEN_BAD_INPUT", "query longer than 65535 bytes")
            plaintext = ByteBuffer.allocate(2 + q.size + p.body.size).putShort(q.size.toShort()).put(q).put(p.body).array()
            flags = flags or Codec.REQ_CONFIDENTIAL_QUERY
            uri = URI(uri.scheme + "://" + uri.rawAuthority + path)
            target = path
        } else {
            target = Target.canonical(if (query != null) "$path?$query" else path)
        }
        val ctype = p.contentType
        val aad = Codec.requestAad(s.id, keys.epoch, seq, ts, flags, p.method, target, ctype, retryOf ?: "")
        val headers = ArrayList<Pair<String, String>>(p.headers.size + 5)
        p.headers.filterTo(headers) { !it.first.equals("content-type", true) }
        headers.add("nen" to Codec.requestHeader(s.idStr, keys.epoch, seq, ts, flags))
        if (retryOf != null) headers.add("nen-retry" to retryOf)
        if (ctype.isNotEmpty()) headers.add("nen-type" to ctype)
        val record = Codec.seal(keys.c2sKey, Codec.nonce(keys.c2sIv, seq), aad, plaintext)
        val body: ByteArray?
        if (p.method in BODYLESS) {
            headers.add("nen-body" to Codec.b64url(record))
            body = null
        } else {
            headers.add("content-type" to Codec.SEALED)
            body = record
        }
        val ref = Codec.retryRef(s.idStr, keys.epoch, seq, ts)
        return Sealed(WireRequest(p.method, uri, headers, body, deadline, maxBytes + Codec.TAG), ref, keys, s.id, seq, p.method)
    }

    /** Verifies [res] as the answer to [x]; the returned body is authenticated (or, for a stream, authenticates as read). */
    fun verify(x: Sealed, res: WireResponse, maxBytes: Long): AppResponse {
        val status = res.status
        val flags = Codec.responseFlags(res.header("nen"))
        if (flags < 0) {
            res.close()
            throw NenException.server(status, res.header("nen-error"), "response (HTTP $status) has no Nen envelope")
        }
        val ctype = res.header("nen-type") ?: ""
        val nullBody = status in Codec.NULL_BODY_STATUSES || x.method == "HEAD"
        val kept = res.headers.filter { it.first !in RESPONSE_ENVELOPE }
        val aad = Codec.responseAad(x.sid, x.keys.epoch, x.seq, status, flags, ctype)
        if (flags and Codec.RES_STREAM != 0) {
            if (Codec.mediaType(res.header("content-type")) != Codec.STREAM || status != 200 || flags != Codec.RES_STREAM || nullBody) {
                res.close()
                throw unauthenticated("stream envelope with a wrong content type, status or flags")
            }
            val opener = RecordOpener(x.keys.s2cKey, x.keys.s2cIv, x.seq, aad)
            // As @nen/client: the timeout ends at a stream's head (a stream may last as long as it lasts).
            return AppResponse(200, kept, ctype, AuthenticatedStream(res.body, opener), -1, true)
        }
        val record: ByteArray?
        if (nullBody) {
            res.close()
            record = res.header("nen-body")?.let { Codec.b64urlDecode(it) }
        } else {
            if (Codec.mediaType(res.header("content-type")) != Codec.SEALED) {
                res.close()
                throw unauthenticated("sealed response with the wrong content type")
            }
            record = readBounded(res, maxBytes + Codec.TAG, x.wire.deadline)
        }
        if (record == null) throw unauthenticated("response envelope without a sealed record")
        val plain = Codec.open(x.keys.s2cKey, Codec.nonce(x.keys.s2cIv, x.seq), aad, record) ?: throw unauthenticated("response failed authentication (tampered, substituted or forged)")
        if (flags and Codec.RES_COMPRESSED != 0) throw unauthenticated("compressed response that was not asked for")
        val body = if (nullBody) ByteArray(0) else plain
        return AppResponse(status, kept, ctype, ByteArrayInputStream(body), body.size.toLong(), false, body)
    }

    /** Reads at most [limit] bytes (more is NEN_RESPONSE_UNAUTHENTICATED, as @nen/client) before [deadline]. */
    fun readBounded(res: WireResponse, limit: Long, deadline: Deadline): ByteArray {
        res.bytes?.let {
            if (it.size > limit) throw tooLarge(limit)
            return it
        }
        val body = res.body
        val guard = Watchdog.guard(deadline, body)
        try {
            val out = ByteSink(res.header("content-length")?.toLongOrNull()?.let { minOf(it, limit + 1) } ?: -1)
            val complete =
                try {
                    out.readFrom(body, limit) { deadline.check() }
                } catch (e: IOException) {
                    if (e !is NenException && deadline.expired()) throw Deadline.timeout(e)
                    throw e
                }
            if (!complete) throw tooLarge(limit)
            return out.take()
        } finally {
            guard.cancel(false)
            body.close()
        }
    }

    /** A sealed 409 answering a retry: NEN_RETRY_COMMITTED, or NEN_OUTCOME_UNKNOWN for NEN_RETRY_UNKNOWN. */
    fun refusedRetry(status: Int, plain: ByteArray): NenException? {
        if (status != 409) return null
        val text = plain.toString(Charsets.UTF_8)
        val code = Regex("\"code\"\\s*:\\s*\"(NEN_RETRY_COMMITTED|NEN_RETRY_UNKNOWN)\"").find(text)?.groupValues?.get(1) ?: return null
        if (code == "NEN_RETRY_COMMITTED") {
            return NenException(code, "nen: the original request was already committed (its handler ran); the retry did not run", 409)
        }
        return NenException.outcomeUnknown(NenException(code, "nen: the server cannot prove the original request did not run; the retry did not run", 409))
    }

    fun tooLarge(limit: Long) = unauthenticated("response body larger than ${limit - Codec.TAG} bytes (maxResponseBytes)")

    fun unauthenticated(m: String) = NenException.client("NEN_RESPONSE_UNAUTHENTICATED", m)
}

/** Closes a response body when its exchange's deadline passes (one shared daemon thread). */
internal object Watchdog {
    private val timer =
        ScheduledThreadPoolExecutor(1, ThreadFactory { r -> Thread(r, "nen-deadline").apply { isDaemon = true } }).apply {
            removeOnCancelPolicy = true
        }

    fun guard(deadline: Deadline, body: InputStream): java.util.concurrent.Future<*> {
        val left = deadline.remainingNanos()
        if (left == Long.MAX_VALUE) return java.util.concurrent.CompletableFuture.completedFuture(null)
        return timer.schedule({ runCatching { body.close() } }, maxOf(0, left), TimeUnit.NANOSECONDS)
    }
}
