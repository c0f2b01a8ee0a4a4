// NenInterceptor: Nen as an OkHttp application interceptor, for Android and JVM services
// (`OkHttpClient.Builder().addInterceptor(NenInterceptor(options)).followRedirects(false)`).
//
// Pitfalls: register it with addInterceptor (an application interceptor: it calls
// chain.proceed for the handshake, the request and at most one retry) and turn redirects off
// (a followed redirect would re-send Nen headers elsewhere). The request body is read whole
// before sealing; a response stream is opened record by record as the application reads it.
package dev.nen

import okhttp3.Headers
import okhttp3.HttpUrl.Companion.toHttpUrl
import okhttp3.Interceptor
import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.Protocol
import okhttp3.RequestBody.Companion.toRequestBody
import okhttp3.Response
import okhttp3.ResponseBody.Companion.asResponseBody
import okio.Buffer
import okio.buffer
import okio.source
import java.io.IOException
import java.net.URI

/** An OkHttp application interceptor that encrypts every request end to end; one session, thread safe. */
class NenInterceptor(options: NenOptions) : Interceptor {
    private val engine = Engine(options)

    @Throws(IOException::class)
    override fun intercept(chain: Interceptor.Chain): Response {
        val req = chain.request()
        val body = req.body?.let { b -> Buffer().also { b.writeTo(it) }.readByteArray() }
        val headers = ArrayList<Pair<String, String>>()
        for ((k, v) in req.headers) headers.add(k.lowercase() to v)
        val bodyType = req.body?.contentType()
        if (bodyType != null && headers.none { it.first == "content-type" }) headers.add("content-type" to bodyType.toString())
        val wire =
            Wire { w ->
                val hb = Headers.Builder()
                for ((k, v) in w.headers) hb.add(k, v)
                val r =
                    req
                        .newBuilder()
                        .url(w.uri.toString().toHttpUrl())
                        .headers(hb.build())
                        .method(w.method, w.body?.toRequestBody(null))
                        .build()
                val res = chain.proceed(r)
                WireResponse(res.code, res.headers.map { (k, v) -> k.lowercase() to v }, res.body.byteStream())
            }
        val app = engine.execute(wire, Exchange.prepare(req.method, URI(req.url.toString()), headers, body))
        val out = Headers.Builder()
        for ((k, v) in app.headers) out.add(k, v)
        if (app.contentType.isNotEmpty()) out["content-type"] = app.contentType
        val type = app.contentType.ifEmpty { null }?.toMediaTypeOrNull()
        return Response
            .Builder()
            .request(req)
            .protocol(Protocol.HTTP_1_1)
            .code(app.status)
            .message("")
            .headers(out.build())
            .body(app.body.source().buffer().asResponseBody(type, app.length))
            .build()
    }

    /** A fresh handshake is made on the next request. */
    fun dropSession() = engine.drop()

    /** The current session, or null. */
    fun session(): NenSessionInfo? = engine.session?.let { NenSessionInfo.of(it) }
}
