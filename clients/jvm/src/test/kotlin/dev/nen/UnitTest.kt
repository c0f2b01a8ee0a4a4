// Unit tests without a server: the conformance kit's vectors (conformance/vectors, every one must
// pass), pin parsing and the pinned-by-default rule, request-target canonicalisation, record
// streams (fed in pieces; truncation, reordering, extension), the flow-control window, the
// error catalog's classification and the bounded body buffer (ByteSink).
//
// Pitfall: the vectors are read from the repository's conformance kit, not from packages/.
package dev.nen

import dev.nen.conformance.Vectors
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream

class UnitTest {
    @Test
    fun `every conformance vector passes`() {
        val results = Vectors(TestServer.ROOT.resolve("conformance/vectors")).checkAll()
        val failed = results.filter { it["ok"] != true }
        assertTrue(results.size >= 143, "only ${results.size} vectors")
        assertTrue(failed.isEmpty(), "failed: $failed")
    }

    @Test
    fun `a client is pinned by default`() {
        val e = assertThrows(NenException::class.java) { NenOptions.builder().build() }
        assertEquals("NEN_BAD_SERVER_KEY", e.code)
        NenOptions.builder().unpinned(true).build()
        assertEquals("NEN_BAD_SERVER_KEY", assertThrows(NenException::class.java) { NenOptions.pinned("k1:AAAA") }.code)
        assertEquals("NEN_BAD_SERVER_KEY", assertThrows(NenException::class.java) { NenOptions.pinned("no-colon") }.code)
        assertEquals("NEN_BAD_SERVER_KEY", assertThrows(NenException::class.java) { NenOptions.pinned(TestServer.XWING_PIN + "=") }.code)
        assertEquals(Kem.MLKEM768, NenOptions.pinned(TestServer.MLKEM_PIN).pins[0].kem)
    }

    @Test
    fun `request targets are canonical`() {
        assertEquals("/n?q=%7E", Target.canonical("/n?q=~"))
        assertEquals("/n?q=a+b", Target.canonical("/n?q=a%20b"))
        assertEquals("/n", Target.canonical("/n?&&"))
        assertEquals("/n?q=%EF%BF%BD%EF%BF%BD%EF%BF%BD", Target.canonical("/n?q=%ED%A0%80"))
        assertEquals("/a%7e/~?x=", Target.canonical("/a%7e/~?x"))
        assertEquals("/b/c", Target.whatwgPath("/a/../b/./c"))
        assertEquals("/a%20b/", Target.whatwgPath("/a b/%2e"))
    }

    private fun stream(vararg chunks: ByteArray): Pair<EpochKeys, ByteArray> {
        val k = EpochKeys(0, ByteArray(32) { 7 })
        val s = RecordSealer(k.s2cKey, k.s2cIv, 5, AAD)
        val o = ByteArrayOutputStream()
        chunks.forEachIndexed { i, c -> o.write(s.seal(c, i == chunks.size - 1)) }
        return k to o.toByteArray()
    }

    private fun open(k: EpochKeys, wire: ByteArray, piece: Int): ByteArray {
        val op = RecordOpener(k.s2cKey, k.s2cIv, 5, AAD)
        val out = ByteArrayOutputStream()
        var i = 0
        while (i < wire.size) {
            val n = minOf(piece, wire.size - i)
            out.write(op.push(wire, i, n))
            i += n
        }
        op.end()
        return out.toByteArray()
    }

    @Test
    fun `streams open in any piece size and refuse truncation, reordering and extension`() {
        val (k, wire) = stream("ab".toByteArray(), ByteArray(0), "cd".toByteArray(), ByteArray(0))
        for (piece in listOf(1, 3, 7, wire.size)) assertArrayEquals("abcd".toByteArray(), open(k, wire, piece))
        val truncated = wire.copyOf(wire.size - 20)
        assertEquals("NEN_STREAM_TRUNCATED", assertThrows(NenException::class.java) { open(k, truncated, 5) }.code)
        val first = 4 + 2 + 16
        val swapped = wire.copyOfRange(first, 2 * first) + wire.copyOfRange(0, first) + wire.copyOfRange(2 * first, wire.size)
        assertEquals("NEN_STREAM_INVALID", assertThrows(NenException::class.java) { open(k, swapped, 5) }.code)
        assertEquals("NEN_STREAM_INVALID", assertThrows(NenException::class.java) { open(k, wire + wire.copyOf(20), 64) }.code)
    }

    @Test
    fun `the sequence window waits for the oldest request`() {
        val c = SequenceCounter()
        val first = c.acquire(0)
        repeat(SequenceCounter.SPAN - 1) { c.acquire(0) }
        assertEquals(-1L, c.acquire(1_000_000))
        c.release(first)
        assertEquals(SequenceCounter.SPAN + 1L, c.acquire(0))
    }

    @Test
    fun `unauthenticated errors are trusted only with the catalog status`() {
        assertEquals("NEN_SESSION_EXPIRED", NenException.server(401, "NEN_SESSION_EXPIRED", "x").code)
        assertEquals("NEN_RESPONSE_UNAUTHENTICATED", NenException.server(500, "NEN_SESSION_EXPIRED", "x").code)
        assertEquals("NEN_RESPONSE_UNAUTHENTICATED", NenException.server(502, null, "x").code)
        assertEquals(Recovery.FAIL, NenException.recoveryOf(NenException.server(500, "NEN_INTERNAL", "x")))
        assertEquals(Recovery.BACKOFF_RETRY, NenException.recoveryOf(NenException.server(401, "NEN_AUTH_FAILED", "x")))
    }

    private companion object {
        val AAD = "nen/1 response test".toByteArray()
    }

    @Test
    fun `a body is read whole but never more than the limit plus one byte`() {
        val data = ByteArray(70_000) { (it % 251).toByte() }
        for (expected in listOf(-1L, 0L, 10L, 70_000L, 1L shl 40)) {
            val whole = ByteSink(expected)
            assertTrue(whole.readFrom(java.io.ByteArrayInputStream(data), 70_000) {})
            assertArrayEquals(data, whole.take())
            val input = java.io.ByteArrayInputStream(data)
            val over = ByteSink(expected)
            assertTrue(!over.readFrom(input, 1000) {})
            assertEquals(1001, over.size())
            assertEquals(70_000 - 1001, input.available())
        }
        val sink = ByteSink(4)
        sink.write(java.nio.ByteBuffer.wrap(data, 3, 4))
        sink.write(java.nio.ByteBuffer.allocateDirect(2).put(7).put(8).flip())
        assertArrayEquals(byteArrayOf(3, 4, 5, 6, 7, 8), sink.take())
    }
}
