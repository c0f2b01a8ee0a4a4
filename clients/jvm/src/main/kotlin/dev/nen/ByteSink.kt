// A growable byte buffer for whole bodies (request bodies read from a publisher, answers read
// whole): sized from the expected length when one is known, and handing out its array without
// the copy ByteArrayOutputStream.toByteArray makes when the array is exactly full.
//
// Pitfalls: the expected length is a hint from the network or the application, so the initial
// size is capped (MAX_PRESIZE); past it the buffer grows as usual. A taken array is the sink's
// own: take() is called once, when writing is over.
package dev.nen

import java.io.ByteArrayOutputStream
import java.io.InputStream
import java.nio.ByteBuffer

internal class ByteSink(expected: Long) : ByteArrayOutputStream(if (expected in 0..MAX_PRESIZE) maxOf(expected.toInt(), 1) else 8192) {
    /** Appends the buffer's remaining bytes (consumed). */
    fun write(b: ByteBuffer) {
        val n = b.remaining()
        if (b.hasArray()) {
            write(b.array(), b.arrayOffset() + b.position(), n)
            b.position(b.limit())
        } else {
            val a = ByteArray(n)
            b.get(a)
            write(a, 0, n)
        }
    }

    /**
     * Reads [input] to its end straight into the buffer, never more than [limit] + 1 bytes in all;
     * false when there were more than [limit]. [afterRead] runs after each read (a deadline check).
     */
    fun readFrom(input: InputStream, limit: Long, afterRead: () -> Unit): Boolean {
        val most = minOf(limit + 1, Int.MAX_VALUE - 8L)
        while (true) {
            if (count == buf.size) buf = buf.copyOf(minOf(most, maxOf(buf.size * 2L, 8192L)).toInt())
            val n = input.read(buf, count, minOf(buf.size - count.toLong(), most - count).toInt())
            if (n < 0) return true
            count += n
            if (count > limit) return false
            afterRead()
        }
    }

    /** The bytes written; the internal array itself when it is exactly full. */
    fun take(): ByteArray = if (count == buf.size) buf else buf.copyOf(count)

    companion object {
        const val MAX_PRESIZE = 1L shl 20
    }
}
