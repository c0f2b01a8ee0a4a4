// The conformance driver (conformance/DRIVER.md): JSON Lines over stdio, one command at a time,
// driving NenHttpClient instances by name. Run: java -cp <classpath> dev.nen.conformance.Driver
//
// Pitfalls: stdout carries answers only (one line each, flushed); diagnostics go to stderr. Byte
// strings in this contract are standard base64 with padding. A stream's chunks are reported as
// the client's InputStream delivered them, and `partial` holds what came before an error.
package dev.nen.conformance

import dev.nen.Kem
import dev.nen.NenException
import dev.nen.NenHttpClient
import dev.nen.NenOptions
import java.io.ByteArrayOutputStream
import java.io.File
import java.io.IOException
import java.net.URI
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.Base64

internal class Driver {
    private class Named(val client: NenHttpClient, val base: String, val sessionBase: URI)

    private val clients = HashMap<String, Named>()
    private val b64 = Base64.getEncoder()

    fun handle(cmd: Map<String, Any?>): Map<String, Any?> {
        val out = LinkedHashMap<String, Any?>()
        out["id"] = cmd["id"]
        try {
            when (cmd.str("op")) {
                "hello" -> {
                    out["ok"] = true
                    out["client"] = "jvm"
                    out["version"] = "0.1.0"
                    out["features"] = listOf("xwing", "mlkem768", "stream", "retry", "pin", "unpinned", "query")
                }
                "vectors" -> {
                    out["ok"] = true
                    out["results"] = Vectors(File(cmd.str("dir") ?: ".")).checkAll()
                }
                "client" -> {
                    client(cmd)
                    out["ok"] = true
                }
                "handshake" -> {
                    val c = named(cmd)
                    val s = c.client.handshake(c.sessionBase)
                    out["ok"] = true
                    out["keyId"] = s.keyId
                    out["kem"] = s.kem.wireName
                    out["pinned"] = s.pinned
                    out["sessionId"] = s.sessionId
                }
                "fetch" -> fetch(named(cmd), cmd, out)
                "close" -> {
                    clients.remove(cmd.str("client"))?.client?.dropSession()
                    out["ok"] = true
                }
                else -> error(out, "DRIVER", "unknown op ${cmd.str("op")}")
            }
        } catch (e: Throwable) {
            fail(out, e, null)
        }
        return out
    }

    private fun named(cmd: Map<String, Any?>) = clients[cmd.str("client")] ?: throw IllegalStateException("no client ${cmd.str("client")}")

    private fun client(cmd: Map<String, Any?>) {
        val pins = cmd["pins"].list().map { it.toString() }
        val b = NenOptions.builder().pins(pins).unpinned(pins.isEmpty()).sessionPath(cmd.str("sessionPath") ?: "/api/nen")
        cmd.str("kem")?.let { b.kem(Kem.of(it)) }
        (cmd["timeoutMs"] as? Number)?.let { b.timeoutMs(it.toLong()) }
        (cmd["maxBodyBytes"] as? Number)?.let { b.maxResponseBytes(it.toLong()) }
        val base = cmd.str("base") ?: ""
        val u = URI(base)
        clients[cmd.str("name") ?: ""] = Named(NenHttpClient(b.build()), base, URI(u.scheme + "://" + u.rawAuthority + "/"))
    }

    private fun fetch(c: Named, cmd: Map<String, Any?>, out: MutableMap<String, Any?>) {
        val body = cmd.str("body")?.let { Base64.getDecoder().decode(it) }
        val rb = HttpRequest.newBuilder(URI(c.base + (cmd.str("path") ?: "")))
        rb.method(cmd.str("method") ?: "GET", body?.let { HttpRequest.BodyPublishers.ofByteArray(it) } ?: HttpRequest.BodyPublishers.noBody())
        for ((k, v) in (cmd["headers"] as? Map<*, *>) ?: emptyMap<String, Any?>()) rb.header(k.toString(), v.toString())
        val stream = cmd["stream"] == true
        val res = c.client.send(rb.build(), HttpResponse.BodyHandlers.ofInputStream())
        val all = ByteArrayOutputStream()
        val chunks = ArrayList<String>()
        try {
            res.body().use { input ->
                val buf = ByteArray(65536)
                while (true) {
                    val n = input.read(buf)
                    if (n < 0) break
                    all.write(buf, 0, n)
                    if (stream) chunks.add(b64.encodeToString(buf.copyOf(n)))
                }
            }
        } catch (e: IOException) {
            fail(out, e, all.toByteArray())
            return
        }
        out["ok"] = true
        out["status"] = res.statusCode()
        out["headers"] = res.headers().map().mapKeys { it.key.lowercase() }.mapValues { it.value.joinToString(", ") }
        out["body"] = b64.encodeToString(all.toByteArray())
        if (stream) out["chunks"] = chunks
    }

    private fun error(out: MutableMap<String, Any?>, code: String, message: String) {
        out["ok"] = false
        out["code"] = code
        out["message"] = message
    }

    private fun fail(out: MutableMap<String, Any?>, e: Throwable, partial: ByteArray?) {
        var n: Throwable? = e
        while (n != null && n !is NenException) n = n.cause
        when {
            n is NenException -> {
                error(out, n.code, n.message ?: n.code)
                if (n.status >= 0) out["status"] = n.status
                if (n.code == "NEN_OUTCOME_UNKNOWN") n.causeCode?.let { out["cause"] = it }
            }
            e is IOException -> error(out, "NETWORK", e.toString())
            else -> {
                error(out, "DRIVER", e.toString())
                e.printStackTrace()
            }
        }
        if (partial != null) out["partial"] = b64.encodeToString(partial)
    }

    companion object {
        @JvmStatic
        fun main(args: Array<String>) {
            val d = Driver()
            val stdout = System.out
            System.setOut(System.err)
            val input = System.`in`.bufferedReader()
            while (true) {
                val line = input.readLine() ?: break
                if (line.isBlank()) continue
                val answer =
                    try {
                        d.handle(Json.parse(line).obj())
                    } catch (e: Exception) {
                        mapOf("id" to null, "ok" to false, "code" to "DRIVER", "message" to e.toString())
                    }
                stdout.println(Json.write(answer))
                stdout.flush()
            }
        }
    }
}
