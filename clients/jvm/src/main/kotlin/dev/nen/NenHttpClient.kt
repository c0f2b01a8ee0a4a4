// NenHttpClient: Nen over java.net.http. `send(HttpRequest, BodyHandler)` encrypts the request
// end to end, and hands the BodyHandler only authenticated plaintext (a stream record by record,
// as the handler pulls it: BodyHandlers.ofInputStream() reads incrementally).
//
// Pitfalls: the wrapped HttpClient must not follow redirects (the constructor's default never
// does): a followed redirect would re-send Nen headers elsewhere. The default speaks HTTP/1.1:
// java.net.http's default HTTP/2 sends an h2c upgrade on http:// that Next.js drops (the
// connection closes with no answer). Headers java.net.http restricts
// (host, connection, content-length, expect, upgrade) are not forwarded. The body publisher is
// read whole before sealing (streamed uploads are not offered by this client).
package dev.nen

import java.io.ByteArrayInputStream
import java.io.IOException
import java.io.InputStream
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpHeaders
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.ByteBuffer
import java.time.Duration
import java.util.Optional
import java.util.concurrent.CompletableFuture
import java.util.concurrent.ExecutionException
import java.util.concurrent.Flow
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong
import javax.net.ssl.SSLSession

/** A Nen client over [java.net.http.HttpClient]; one session, thread safe. */
class NenHttpClient
    @JvmOverloads
    constructor(
        options: NenOptions,
        private val http: HttpClient = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER).build(),
    ) {
        private val engine = Engine(options)
        private val wire = Wire { r -> exchange(r) }

        /** Sends [request] encrypted; the handler receives the authenticated plaintext. Throws [NenException] (an IOException). */
        @Throws(IOException::class, InterruptedException::class)
        fun <T> send(request: HttpRequest, handler: HttpResponse.BodyHandler<T>): HttpResponse<T> {
            val body = request.bodyPublisher().map { readPublisher(it) }.orElse(null)
            val headers = request.headers().map().flatMap { (k, vs) -> vs.map { k to it } }
            val app = engine.execute(wire, Exchange.prepare(request.method(), request.uri(), headers, body))
            return deliver(request, app, handler)
        }

        /** A fresh handshake against [uri]'s origin now (replacing the session); returns the session id. */
        @Throws(IOException::class)
        fun handshake(uri: URI): NenSessionInfo = NenSessionInfo.of(engine.handshake(wire, uri))

        /** The current session, or null. */
        fun session(): NenSessionInfo? = engine.session?.let { NenSessionInfo.of(it) }

        /** Drops the session (no network call). */
        fun dropSession() = engine.drop()

        /**
         * One HTTP exchange on the caller's thread (`send`, not `sendAsync`: sendAsync starts the
         * exchange on the client's executor and completes it on the common pool, two thread
         * hand-offs per request). The head is bounded by the request's `timeout` (java.net.http's
         * own timer, cancelled at the head); a stream answer (`nen: 1.4`) is an InputStream at its
         * head; any other answer is read whole (at most r.maxResponseBytes, then refused) by a
         * subscriber awaited here until the deadline.
         */
        private fun exchange(r: WireRequest): WireResponse {
            val b = HttpRequest.newBuilder(r.uri).method(r.method, r.body?.let { HttpRequest.BodyPublishers.ofByteArray(it) } ?: HttpRequest.BodyPublishers.noBody())
            for ((k, v) in r.headers) if (k.lowercase() !in RESTRICTED) b.header(k, v)
            val left = r.deadline.remainingMs()
            if (left != Long.MAX_VALUE) b.timeout(Duration.ofMillis(maxOf(1, left)))
            val handler =
                HttpResponse.BodyHandler<Received> { info ->
                    if (info.headers().firstValue("nen").orElse("") == "1.4") {
                        HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofInputStream()) { Received(it, null) }
                    } else {
                        BoundedBytes(r.maxResponseBytes, info.headers().firstValueAsLong("content-length").orElse(-1))
                    }
                }
            val res = http.send(b.build(), handler)
            val got = res.body()
            val bytes = got.bounded?.await(r.deadline)
            val headers = res.headers().map().flatMap { (k, vs) -> vs.map { k.lowercase() to it } }
            return WireResponse(res.statusCode(), headers, got.stream ?: ByteArrayInputStream(bytes), bytes)
        }

        /** What the handler made at the head: a stream, or a body being collected. */
        private class Received(val stream: InputStream?, val bounded: BoundedBytes?)

        /**
         * Collects a body up to [limit] bytes; past it, cancels the download and fails (as
         * @nen/client). Its handler result is ready at the head ([await] waits for the bytes), so
         * `send` returns there and the body's wait is bounded by the exchange's deadline.
         */
        private class BoundedBytes(private val limit: Long, expected: Long) : HttpResponse.BodySubscriber<Received> {
            private val out = ByteSink(minOf(expected, limit + 1))
            private val result = CompletableFuture<ByteArray>()

            @Volatile private var subscription: Flow.Subscription? = null

            override fun getBody(): CompletableFuture<Received> = CompletableFuture.completedFuture(Received(null, this))

            override fun onSubscribe(s: Flow.Subscription) {
                subscription = s
                if (result.isDone) s.cancel() else s.request(Long.MAX_VALUE)
            }

            override fun onNext(items: List<ByteBuffer>) {
                if (result.isDone) return
                for (b in items) out.write(b)
                if (out.size() > limit) fail(Exchange.tooLarge(limit))
            }

            override fun onError(t: Throwable) {
                result.completeExceptionally(t)
            }

            override fun onComplete() {
                result.complete(out.take())
            }

            private fun fail(e: Throwable) {
                if (result.completeExceptionally(e)) subscription?.cancel()
            }

            /** The whole body, or NEN_TIMEOUT at the deadline (the download cancelled). */
            fun await(deadline: Deadline): ByteArray {
                val left = deadline.remainingMs()
                return try {
                    if (left == Long.MAX_VALUE) result.get() else result.get(maxOf(1, left), TimeUnit.MILLISECONDS)
                } catch (e: TimeoutException) {
                    fail(Deadline.timeout(e))
                    throw Deadline.timeout(e)
                } catch (e: InterruptedException) {
                    fail(e)
                    throw e
                } catch (e: ExecutionException) {
                    val c = e.cause
                    throw (c as? IOException) ?: IOException(c)
                }
            }
        }

        private fun <T> deliver(request: HttpRequest, app: AppResponse, handler: HttpResponse.BodyHandler<T>): HttpResponse<T> {
            val map = LinkedHashMap<String, MutableList<String>>()
            for ((k, v) in app.headers) map.getOrPut(k) { ArrayList() }.add(v)
            if (app.contentType.isNotEmpty()) map["content-type"] = mutableListOf(app.contentType)
            if (!app.isStream) map["content-length"] = mutableListOf(app.length.toString())
            val headers = HttpHeaders.of(map) { _, _ -> true }
            val info =
                object : HttpResponse.ResponseInfo {
                    override fun statusCode() = app.status

                    override fun headers() = headers

                    override fun version() = HttpClient.Version.HTTP_1_1
                }
            val subscriber = handler.apply(info)
            val bytes = app.bytes
            if (bytes != null) {
                subscriber.onSubscribe(OneShot(subscriber, bytes)) // an answer read whole: one delivery, no copy
            } else {
                subscriber.onSubscribe(PullSubscription(subscriber, app.body))
            }
            val body =
                try {
                    subscriber.body.toCompletableFuture().get()
                } catch (e: ExecutionException) {
                    throw (e.cause as? IOException) ?: IOException(e.cause)
                }
            return PlainResponse(request, app.status, headers, body)
        }

        private class PlainResponse<T>(val req: HttpRequest, val status: Int, val hdrs: HttpHeaders, val b: T) : HttpResponse<T> {
            override fun statusCode() = status

            override fun request() = req

            override fun previousResponse(): Optional<HttpResponse<T>> = Optional.empty()

            override fun headers() = hdrs

            override fun body() = b

            override fun sslSession(): Optional<SSLSession> = Optional.empty()

            override fun uri(): URI = req.uri()

            override fun version() = HttpClient.Version.HTTP_1_1
        }

        /** Delivers [bytes] (if any) then the end, on the first demand. */
        private class OneShot(private val sub: Flow.Subscriber<in List<ByteBuffer>>, private val bytes: ByteArray) : Flow.Subscription {
            private var done = false

            override fun request(n: Long) {
                if (n <= 0 || done) return
                done = true
                if (bytes.isNotEmpty()) sub.onNext(listOf(ByteBuffer.wrap(bytes)))
                sub.onComplete()
            }

            override fun cancel() {
                done = true
            }
        }

        /** Delivers [input] on the caller's thread as demand arrives (a stream is read only when the handler asks). */
        private class PullSubscription(private val sub: Flow.Subscriber<in List<ByteBuffer>>, private val input: InputStream) : Flow.Subscription {
            private val demand = AtomicLong()
            private val wip = AtomicInteger()

            @Volatile private var finished = false

            override fun request(n: Long) {
                if (n <= 0 || finished) return
                demand.getAndAccumulate(n) { a, b -> if (a + b < 0) Long.MAX_VALUE else a + b }
                if (wip.getAndIncrement() != 0) return
                do {
                    while (demand.get() > 0 && !finished) step()
                } while (wip.decrementAndGet() != 0)
            }

            private fun step() {
                val buf = ByteArray(16384)
                val n =
                    try {
                        input.read(buf)
                    } catch (e: IOException) {
                        finish()
                        sub.onError(e)
                        return
                    }
                if (n < 0) {
                    finish()
                    sub.onComplete()
                    return
                }
                demand.decrementAndGet()
                sub.onNext(listOf(ByteBuffer.wrap(buf, 0, n)))
            }

            private fun finish() {
                finished = true
                runCatching { input.close() }
            }

            override fun cancel() = finish()
        }

        private companion object {
            val RESTRICTED = setOf("host", "connection", "content-length", "expect", "upgrade", "transfer-encoding")

            fun readPublisher(p: HttpRequest.BodyPublisher): ByteArray {
                val out = ByteSink(p.contentLength())
                val done = CompletableFuture<Unit>()
                p.subscribe(
                    object : Flow.Subscriber<ByteBuffer> {
                        override fun onSubscribe(s: Flow.Subscription) = s.request(Long.MAX_VALUE)

                        override fun onNext(item: ByteBuffer) {
                            synchronized(out) { out.write(item) }
                        }

                        override fun onError(t: Throwable) {
                            done.completeExceptionally(t)
                        }

                        override fun onComplete() {
                            done.complete(Unit)
                        }
                    },
                )
                try {
                    done.get()
                } catch (e: ExecutionException) {
                    throw NenException.client("NEN_BAD_INPUT", "the request body could not be read", e.cause)
                }
                return synchronized(out) { out.take() }
            }
        }
    }

/** What an application may know about the current session. */
class NenSessionInfo private constructor(val sessionId: String, val keyId: String?, val kem: Kem, val epoch: Long) {
    val pinned: Boolean get() = keyId != null

    internal companion object {
        fun of(s: Session) = NenSessionInfo(s.idStr, s.kid, s.kem, s.keys.epoch)
    }
}
