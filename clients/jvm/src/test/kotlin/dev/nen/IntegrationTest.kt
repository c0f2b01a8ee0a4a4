// Integration tests against a real @nen/server (TestServer: the Hono target): every method and
// the query string through NenHttpClient, a stream read incrementally, ML-KEM-768 and unpinned
// handshakes, the pin fallback, a wrong pin, the OkHttp interceptor, and an idle-expired session
// (401 NEN_SESSION_EXPIRED -> one re-handshake and one retry, the handler running once).
//
// Pitfall: each server is started by its test and stopped at the end (use {}).
package dev.nen

import okhttp3.MediaType.Companion.toMediaType
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.net.URI
import java.net.http.HttpRequest
import java.net.http.HttpResponse.BodyHandlers

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IntegrationTest {
    private lateinit var server: TestServer

    @BeforeAll
    fun start() {
        server = TestServer.start()
    }

    @AfterAll
    fun stop() {
        if (this::server.isInitialized) server.close()
    }

    private fun req(path: String) = HttpRequest.newBuilder(URI(server.url + path))

    @Test
    fun `every method and the query string`() {
        val c = NenHttpClient(NenOptions.pinned(TestServer.XWING_PIN))
        val post = c.send(req("/api/echo?b=2&a=%7e").header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")).build(), BodyHandlers.ofString())
        assertEquals(200, post.statusCode())
        assertEquals("{\"a\":1}", post.body())
        assertEquals("application/json", post.headers().firstValue("content-type").orElse(""))
        val get = c.send(req("/api/echo?q=a%20b&tag=~x&q=2").GET().build(), BodyHandlers.ofString())
        assertEquals(200, get.statusCode())
        assertTrue(get.body().contains("\"q\":\"a b\"") && get.body().contains("\"tag\":\"~x\""), get.body())
        val head = c.send(req("/api/echo").method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), BodyHandlers.ofByteArray())
        assertEquals(200, head.statusCode())
        assertEquals(0, head.body().size)
        for (m in listOf("PUT", "PATCH")) {
            val r = c.send(req("/api/echo").header("content-type", "text/plain").method(m, HttpRequest.BodyPublishers.ofString("x-$m")).build(), BodyHandlers.ofString())
            assertEquals("x-$m", r.body())
        }
        for (m in listOf("DELETE", "OPTIONS")) {
            assertEquals(204, c.send(req("/api/echo").method(m, HttpRequest.BodyPublishers.noBody()).build(), BodyHandlers.ofString()).statusCode())
        }
        val big = ByteArray(100_000) { (it % 251).toByte() }
        val echoed = c.send(req("/api/echo").header("content-type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofByteArray(big)).build(), BodyHandlers.ofByteArray())
        assertTrue(big.contentEquals(echoed.body()))
        assertEquals("k1", c.session()?.keyId)
    }

    @Test
    fun `a stream is read record by record`() {
        val c = NenHttpClient(NenOptions.pinned(TestServer.XWING_PIN))
        val r = c.send(req("/api/stream?n=5&delay=50").POST(HttpRequest.BodyPublishers.noBody()).build(), BodyHandlers.ofInputStream())
        assertEquals("text/event-stream", r.headers().firstValue("content-type").orElse(""))
        val first = ByteArray(4096)
        val t0 = System.nanoTime()
        val n = r.body().read(first)
        assertTrue(String(first, 0, n).startsWith("data: {\"i\":0"), String(first, 0, n))
        val rest = String(r.body().readAllBytes())
        assertTrue((System.nanoTime() - t0) / 1_000_000 >= 150, "the rest arrived with the first record")
        assertTrue(rest.endsWith("data: [DONE]\n\n"), rest)
    }

    @Test
    fun `ML-KEM-768, unpinned, pin fallback and a wrong pin`() {
        val ml = NenHttpClient(NenOptions.pinned(TestServer.MLKEM_PIN))
        assertEquals(Kem.MLKEM768, ml.handshake(URI(server.url)).kem)
        val unpinned = NenHttpClient(NenOptions.builder().unpinned(true).kem(Kem.MLKEM768).build())
        val s = unpinned.handshake(URI(server.url))
        assertEquals(null, s.keyId)
        val stale = TestServer.XWING_PIN.replaceFirst("k1:", "old:")
        val fallback = NenHttpClient(NenOptions.pinned(stale, TestServer.XWING_PIN))
        assertEquals("k1", fallback.handshake(URI(server.url)).keyId)
        val wrong = NenHttpClient(NenOptions.pinned("k1:" + TestServer.MLKEM_PIN.substringAfter(':')))
        val e = assertThrows(NenException::class.java) { wrong.handshake(URI(server.url)) }
        assertEquals("NEN_UNSUPPORTED_KEM", e.code)
    }

    @Test
    fun `the OkHttp interceptor`() {
        val ok = OkHttpClient.Builder().addInterceptor(NenInterceptor(NenOptions.pinned(TestServer.XWING_PIN))).followRedirects(false).build()
        val body = "hello".toRequestBody("text/plain".toMediaType())
        ok.newCall(Request.Builder().url(server.url + "/api/echo").post(body).build()).execute().use {
            assertEquals(200, it.code)
            assertEquals("hello", it.body.string())
            assertEquals("text/plain; charset=utf-8", it.header("content-type"))
        }
        ok.newCall(Request.Builder().url(server.url + "/api/echo?x=1").build()).execute().use {
            assertTrue(it.body.string().contains("\"x\":\"1\""))
        }
        ok.newCall(Request.Builder().url(server.url + "/api/stream?n=3").post(ByteArray(0).toRequestBody(null)).build()).execute().use {
            assertTrue(it.body.string().endsWith("data: [DONE]\n\n"))
        }
        ok.newCall(Request.Builder().url(server.url + "/api/echo").delete().build()).execute().use { assertEquals(204, it.code) }
    }

    @Test
    fun `an idle-expired session is re-handshaken and the request retried once`() {
        TestServer.start(mapOf("NEN_IDLE_TIMEOUT" to "1")).use { srv ->
            val c = NenHttpClient(NenOptions.pinned(TestServer.XWING_PIN))
            val post = { c.send(HttpRequest.newBuilder(URI(srv.url + "/api/echo")).header("content-type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("once")).build(), BodyHandlers.ofString()) }
            assertEquals("once", post().body())
            val sid = c.session()?.sessionId
            Thread.sleep(1500)
            assertEquals("once", post().body())
            assertNotEquals(sid, c.session()?.sessionId)
        }
    }
}
