// The HTTP exchange as the engine sees it, independent of the HTTP library (java.net.http or
// OkHttp): an application request in, a sealed request out, a network response back.
//
// Pitfalls: header names of a WireResponse are lower case; its body is read by the engine only
// (bounded, or record by record for a stream) and closed on every path.
package dev.nen

import java.io.Closeable
import java.io.InputStream
import java.net.URI

internal class WireRequest(
    val method: String,
    val uri: URI,
    val headers: List<Pair<String, String>>,
    val body: ByteArray?,
    val deadline: Deadline,
    /** The most response body bytes the engine will take (more is refused without reading on). */
    val maxResponseBytes: Long,
)

internal class WireResponse(
    val status: Int,
    val headers: List<Pair<String, String>>,
    val body: InputStream,
    /** The whole body when the adapter already read it (bounded by maxResponseBytes), else null. */
    val bytes: ByteArray? = null,
) : Closeable {
    fun header(name: String): String? = headers.firstOrNull { it.first == name }?.second

    override fun close() = body.close()
}

internal fun interface Wire {
    fun exchange(req: WireRequest): WireResponse
}

/** The application's request: method, absolute URI, headers (no envelope headers), body. */
internal class AppRequest(
    val method: String,
    val uri: URI,
    val headers: List<Pair<String, String>>,
    val body: ByteArray,
) {
    val contentType: String = headers.firstOrNull { it.first.equals("content-type", true) }?.second ?: ""
}

/** The authenticated answer: the envelope headers replaced by the plaintext type. */
internal class AppResponse(
    val status: Int,
    val headers: List<Pair<String, String>>,
    val contentType: String,
    val body: InputStream,
    val length: Long,
    val isStream: Boolean,
    /** The whole (authenticated) body of a non-stream answer. */
    val bytes: ByteArray? = null,
) : Closeable {
    override fun close() = body.close()
}
