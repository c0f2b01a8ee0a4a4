// Record streams (PROTOCOL.md §6): `u32(len) || sealed_i` records, nonce_i = iv XOR (u32(i) ||
// u64(seq)), AAD_i = AAD_message || u32(i) || u8(final). The opener learns `final` by
// authentication (tries 0x00 then 0x01; 0x01 first for an empty record); the sealer marks only
// the last record final. AuthenticatedStream is the InputStream an application reads.
//
// Pitfalls: a bad length, a record that opens under neither final value or any byte after the
// final record is NEN_STREAM_INVALID; an end (or a break) before the final record is
// NEN_STREAM_TRUNCATED. Buffering is bounded by one record.
package dev.nen

import java.io.ByteArrayOutputStream
import java.io.IOException
import java.io.InputStream
import java.nio.ByteBuffer

internal class RecordOpener(private val key: ByteArray, private val iv: ByteArray, private val seq: Long, private val baseAad: ByteArray) {
    private val buf = ByteArrayOutputStream()
    private var pending = ByteArray(0)
    private var index = 0L
    var done = false
        private set

    private fun aad(final: Boolean): ByteArray = baseAad + ByteBuffer.allocate(5).putInt(index.toInt()).put(if (final) 1 else 0).array()

    /** Feeds network bytes; returns the plaintext of every record they completed. */
    fun push(chunk: ByteArray, off: Int = 0, len: Int = chunk.size): ByteArray {
        if (len == 0) return ByteArray(0)
        if (done) throw invalid("data after the final record")
        val data = if (pending.isEmpty()) chunk.copyOfRange(off, off + len) else pending + chunk.copyOfRange(off, off + len)
        var p = 0
        buf.reset()
        while (data.size - p >= 4) {
            val n = ByteBuffer.wrap(data, p, 4).int.toLong() and 0xffffffffL
            if (n < Codec.TAG || n > Codec.MAX_RECORD + Codec.TAG) throw invalid("bad record length")
            if (data.size - p - 4 < n) break
            if (done) throw invalid("data after the final record")
            val nonce = Codec.nonce(iv, seq, index)
            val start = p + 4
            val first = n == Codec.TAG.toLong()
            var plain = Codec.open(key, nonce, aad(first), data, start, n.toInt())
            var final = first
            if (plain == null) {
                plain = Codec.open(key, nonce, aad(!first), data, start, n.toInt())
                final = !first
            }
            if (plain == null) throw invalid("record $index failed authentication")
            buf.write(plain)
            if (final) done = true
            index++
            p = start + n.toInt()
        }
        if (done && p < data.size) throw invalid("data after the final record")
        pending = data.copyOfRange(p, data.size)
        return buf.toByteArray()
    }

    /** The transport ended: the stream must have ended with its final record. */
    fun end() {
        if (!done) throw NenException.client("NEN_STREAM_TRUNCATED", "the stream ended before its final record")
    }

    private fun invalid(m: String) = NenException.client("NEN_STREAM_INVALID", m)
}

internal class RecordSealer(private val key: ByteArray, private val iv: ByteArray, private val seq: Long, private val baseAad: ByteArray) {
    private var index = 0L

    fun seal(plain: ByteArray, final: Boolean): ByteArray {
        val aad = baseAad + ByteBuffer.allocate(5).putInt(index.toInt()).put(if (final) 1 else 0).array()
        val sealed = Codec.seal(key, Codec.nonce(iv, seq, index), aad, plain)
        index++
        return ByteBuffer.allocate(4 + sealed.size).putInt(sealed.size).put(sealed).array()
    }
}

/** The plaintext of a response stream: each network read's completed records opened in order. */
internal class AuthenticatedStream(private val raw: InputStream, private val opener: RecordOpener) : InputStream() {
    private var cur = ByteArray(0)
    private var pos = 0
    private var ended = false
    private val readBuf = ByteArray(16384)

    private fun fill(): Boolean {
        while (pos >= cur.size) {
            if (ended) return false
            val n =
                try {
                    raw.read(readBuf)
                } catch (e: NenException) {
                    throw e
                } catch (e: IOException) {
                    throw NenException.client("NEN_STREAM_TRUNCATED", "the stream broke off", e)
                }
            if (n < 0) {
                ended = true
                opener.end()
                return false
            }
            cur = opener.push(readBuf, 0, n)
            pos = 0
        }
        return true
    }

    override fun read(): Int = if (fill()) cur[pos++].toInt() and 0xff else -1

    override fun read(b: ByteArray, off: Int, len: Int): Int {
        if (len == 0) return 0
        if (!fill()) return -1
        val n = minOf(len, cur.size - pos)
        System.arraycopy(cur, pos, b, off, n)
        pos += n
        return n
    }

    override fun available(): Int = cur.size - pos

    override fun close() = raw.close()
}
