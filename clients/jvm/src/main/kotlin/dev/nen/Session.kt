// One client session (PROTOCOL.md §3.3, §4): its epoch keys, clock skew, expiry, and the sequence
// counter with flow control against the server's replay window.
//
// Pitfalls: sequence numbers start at 1 and are never reused; a new one is handed out only while
// it is less than 1024 - 64 ahead of the oldest one still awaiting its response head, otherwise
// the caller waits (bounded by its deadline). State is bounded: at most the window in flight.
// Expiry is counted locally as t_received + lifetime; a session with under 2 s left is replaced.
package dev.nen

import java.util.ArrayDeque
import java.util.concurrent.TimeUnit
import java.util.concurrent.locks.ReentrantLock
import kotlin.math.roundToLong

internal class SequenceCounter {
    private var next = 1L
    private val inFlight = ArrayDeque<Long>()
    private val released = HashSet<Long>()
    private val lock = ReentrantLock()
    private val changed = lock.newCondition()

    private fun fits() = inFlight.isEmpty() || next - inFlight.peekFirst() < SPAN

    /** The next number, or -1 when none fits before [timeoutNanos] passes. */
    fun acquire(timeoutNanos: Long): Long {
        lock.lock()
        try {
            var left = timeoutNanos
            while (!fits()) {
                if (left <= 0) return -1
                left = changed.awaitNanos(left)
            }
            val seq = next++
            inFlight.addLast(seq)
            return seq
        } finally {
            lock.unlock()
        }
    }

    fun release(seq: Long) {
        lock.lock()
        try {
            if (inFlight.isEmpty() || seq < inFlight.peekFirst() || seq >= next) return
            if (seq == inFlight.peekFirst()) inFlight.removeFirst() else released.add(seq)
            while (inFlight.isNotEmpty() && released.remove(inFlight.peekFirst())) inFlight.removeFirst()
            changed.signalAll()
        } finally {
            lock.unlock()
        }
    }

    companion object {
        const val SPAN = Codec.REPLAY_WINDOW - 64
    }
}

internal class Session(r: HandshakeResult, tSentMs: Long, tReceivedMs: Long, val origin: String) {
    val id: ByteArray = r.sessionId
    val idStr: String = Codec.b64url(r.sessionId)
    @Volatile var keys = EpochKeys(0, r.secret)
    val counter = SequenceCounter()
    private val skew: Long = r.serverTime - (tSentMs + tReceivedMs) / 2
    private val expiresAt = tReceivedMs + r.lifetime * 1000
    val kid: String? = r.kid
    val kem: Kem = r.kem

    fun usable(nowMs: Long) = expiresAt - nowMs > EXPIRY_MARGIN_MS

    fun timestamp(): Long = (System.currentTimeMillis() + skew).toDouble().roundToLong()

    companion object {
        const val EXPIRY_MARGIN_MS = 2000L
    }
}

/** One whole-exchange deadline (NEN_TIMEOUT when it passes). */
internal class Deadline(timeoutMs: Long) {
    private val end = if (timeoutMs > 0) System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs) else Long.MAX_VALUE

    fun remainingNanos(): Long = if (end == Long.MAX_VALUE) Long.MAX_VALUE else end - System.nanoTime()

    fun remainingMs(): Long = if (end == Long.MAX_VALUE) Long.MAX_VALUE else maxOf(0, TimeUnit.NANOSECONDS.toMillis(remainingNanos()))

    fun expired() = remainingNanos() <= 0

    fun check() {
        if (expired()) throw timeout()
    }

    companion object {
        fun timeout(cause: Throwable? = null) = NenException.client("NEN_TIMEOUT", "the exchange timed out", cause)
    }
}
