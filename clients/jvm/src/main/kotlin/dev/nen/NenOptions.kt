// The client's options (pins first: pinned by default) and their builder, usable from Java.
//
// Pitfalls: a client without pins refuses to run unless `unpinned(true)` is set explicitly; pins
// are parsed up front (a bad pin is NEN_BAD_SERVER_KEY at construction, never at request time).
package dev.nen

/** Immutable options of a Nen client; build with [NenOptions.builder]. */
class NenOptions private constructor(b: Builder) {
    val pins: List<Pin> = b.pins.toList()
    val unpinned: Boolean = b.unpinned
    val kem: Kem = b.kem
    val sessionPath: String = b.sessionPath
    val timeoutMs: Long = b.timeoutMs
    val maxResponseBytes: Long = b.maxResponseBytes
    val sessionLifetimeSeconds: Long = b.sessionLifetimeSeconds
    val confidentialQuery: Boolean = b.confidentialQuery
    val retry: Boolean = b.retry

    init {
        if (pins.isEmpty() && !unpinned) {
            throw NenException.client("NEN_BAD_SERVER_KEY", "no pin given; pass a pin or set unpinned(true) explicitly")
        }
        if (pins.map { it.kid }.toSet().size != pins.size) throw NenException.client("NEN_BAD_SERVER_KEY", "pins must have distinct kids")
        if (!sessionPath.startsWith("/")) throw NenException.client("NEN_BAD_INPUT", "sessionPath must start with /")
    }

    /** Builder; every setter returns this. */
    class Builder internal constructor() {
        internal val pins = ArrayList<Pin>()
        internal var unpinned = false
        internal var kem = Kem.XWING
        internal var sessionPath = "/api/nen"
        internal var timeoutMs = 30_000L
        internal var maxResponseBytes = 4L * 1024 * 1024
        internal var sessionLifetimeSeconds = 0L
        internal var confidentialQuery = false
        internal var retry = true

        /** Adds pins `kid:base64url(publicKey)`, newest first. */
        fun pin(vararg pins: String) = apply { pins.forEach { this.pins.add(Pin.parse(it)) } }

        fun pins(pins: List<String>) = apply { pins.forEach { this.pins.add(Pin.parse(it)) } }

        /** Allows an unpinned handshake (authenticates no server: testing only). */
        fun unpinned(v: Boolean) = apply { unpinned = v }

        fun kem(v: Kem) = apply { kem = v }

        fun sessionPath(v: String) = apply { sessionPath = v.trimEnd('/') }

        /** The whole-exchange timeout in ms (0 = none); NEN_TIMEOUT when it passes. */
        fun timeoutMs(v: Long) = apply { timeoutMs = v }

        /** The largest response body accepted (plaintext). */
        fun maxResponseBytes(v: Long) = apply { maxResponseBytes = v }

        /** The requested session lifetime in seconds (0 = the server's maximum). */
        fun sessionLifetimeSeconds(v: Long) = apply { sessionLifetimeSeconds = v }

        /** Sends the query inside the envelope (PROTOCOL.md §5.4). */
        fun confidentialQuery(v: Boolean) = apply { confidentialQuery = v }

        /** The 1.1 retry after an unauthenticated 401-class answer (default on). */
        fun retry(v: Boolean) = apply { retry = v }

        fun build() = NenOptions(this)
    }

    companion object {
        @JvmStatic
        fun builder() = Builder()

        /** Options pinned to [pins] (newest first), defaults otherwise. */
        @JvmStatic
        fun pinned(vararg pins: String) = Builder().pin(*pins).build()
    }
}
