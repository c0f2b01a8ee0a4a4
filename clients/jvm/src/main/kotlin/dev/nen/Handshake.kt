// The one-round-trip handshake (PROTOCOL.md §2, §3.1, §3.3) on BouncyCastle's HPKE (RFC 9180
// base mode, X-Wing 0x647a or ML-KEM-768 0x0041, HKDF-SHA256, ChaCha20-Poly1305, Export):
// pin parsing, the ClientHello, and the completion step that checks the ServerHello.
//
// Pitfalls: the ServerHello must have the exact length, echo version, KEM and flags, and its
// confirm is compared in constant time; a granted lifetime above a non-zero request is refused;
// any failure is NEN_HANDSHAKE_FAILED. The ephemeral private key is dropped after completion
// (BouncyCastle's key objects cannot be wiped).
package dev.nen

import org.bouncycastle.crypto.AsymmetricCipherKeyPair
import org.bouncycastle.crypto.hpke.HPKE
import org.bouncycastle.crypto.params.AsymmetricKeyParameter
import java.nio.ByteBuffer
import java.security.MessageDigest

/** The KEMs of nen/1. */
enum class Kem(internal val id: Int, internal val publicKeySize: Int, internal val encSize: Int, val wireName: String) {
    XWING(0x647a, 1216, 1120, "xwing"),
    MLKEM768(0x0041, 1184, 1088, "mlkem768"),
    ;

    internal fun hpke() = HPKE(HPKE.mode_base, id.toShort(), HPKE.kdf_HKDF_SHA256, HPKE.aead_CHACHA20_POLY1305)

    companion object {
        @JvmStatic
        fun of(name: String): Kem =
            entries.firstOrNull { it.wireName == name }
                ?: throw NenException.client("NEN_BAD_INPUT", "unknown KEM \"$name\" (xwing or mlkem768)")
    }
}

/** A pinned server key `kid:base64url(publicKey)`; the KEM follows from the key length. */
class Pin private constructor(val kid: String, internal val publicKey: ByteArray, val kem: Kem) {
    companion object {
        private val KID = Regex("[A-Za-z0-9_-]{1,32}")

        @JvmStatic
        fun parse(pin: String): Pin {
            val i = pin.indexOf(':')
            val kid = if (i < 0) "" else pin.substring(0, i)
            if (!KID.matches(kid)) throw NenException.client("NEN_BAD_SERVER_KEY", "pin without a valid kid")
            val pk = Codec.b64urlDecode(pin.substring(i + 1)) ?: throw NenException.client("NEN_BAD_SERVER_KEY", "pin key is not base64url")
            val kem = Kem.entries.firstOrNull { it.publicKeySize == pk.size } ?: throw NenException.client("NEN_BAD_SERVER_KEY", "pin key has a wrong length")
            try {
                kem.hpke().deserializePublicKey(pk)
            } catch (e: RuntimeException) {
                throw NenException.client("NEN_BAD_SERVER_KEY", "pin key rejected by the KEM", e)
            }
            return Pin(kid, pk, kem)
        }
    }
}

internal class HandshakeResult(
    val sessionId: ByteArray,
    val secret: ByteArray,
    val lifetime: Long,
    val idle: Long,
    val serverTime: Long,
    val kem: Kem,
    val kid: String?,
)

/** One handshake attempt: [hello] to send, then [finish] on the ServerHello body. */
internal class HandshakeState(
    val kem: Kem,
    private val pin: Pin?,
    private val lifetime: Long,
    ephemeral: AsymmetricCipherKeyPair? = null,
) {
    private val hpke = kem.hpke()
    private var eph: AsymmetricCipherKeyPair? = ephemeral ?: hpke.generatePrivateKey()
    private val exportedS: ByteArray
    val hello: ByteArray

    init {
        val pkEph = hpke.serializePublicKey(eph!!.public)
        val buf = ByteBuffer.allocate(8 + pkEph.size + (if (pin != null) 1 + pin.kid.length + kem.encSize else 0))
        buf.put(1).putShort(kem.id.toShort()).put(if (pin != null) 1 else 0).putInt(lifetime.toInt()).put(pkEph)
        if (pin != null) {
            val ctx = hpke.setupBaseS(hpke.deserializePublicKey(pin.publicKey) as AsymmetricKeyParameter, "nen/1 static".toByteArray())
            exportedS = ctx.export(EXPORT, 32)
            buf.put(pin.kid.length.toByte()).put(pin.kid.toByteArray()).put(ctx.encapsulation)
        } else {
            exportedS = ByteArray(0)
        }
        hello = buf.array()
    }

    fun finish(sh: ByteArray): HandshakeResult {
        val key = eph ?: throw fail("handshake state already used")
        eph = null
        val n = 36 + kem.encSize
        if (sh.size != n + 32) throw fail("ServerHello has a wrong length")
        val b = ByteBuffer.wrap(sh)
        val version = b.get().toInt()
        val kemId = b.getShort().toInt() and 0xffff
        val flags = b.get().toInt()
        if (version != 1 || kemId != kem.id || flags != (if (pin != null) 1 else 0)) throw fail("ServerHello version, KEM or flags differ")
        val sid = ByteArray(16).also { b.get(it) }
        val granted = b.getInt().toLong() and 0xffffffffL
        val idle = b.getInt().toLong() and 0xffffffffL
        val serverTime = b.getLong()
        val enc = sh.copyOfRange(36, n)
        if (lifetime > 0 && granted > lifetime) throw fail("server granted a longer lifetime than asked")
        val exportedE =
            try {
                hpke.setupBaseR(enc, key, "nen/1 ephemeral".toByteArray()).export(EXPORT, 32)
            } catch (e: RuntimeException) {
                throw NenException.client("NEN_HANDSHAKE_FAILED", "ServerHello encapsulation rejected", e)
            }
        val th = Kdf.sha256("nen/1 transcript".toByteArray(), hello, sh.copyOfRange(0, n))
        val s0 = Kdf.extract(th, exportedE + exportedS)
        val confirm = Kdf.hmac(Kdf.expand(s0, "nen/1 confirm", 32), th)
        if (!MessageDigest.isEqual(confirm, sh.copyOfRange(n, n + 32))) throw fail("key confirmation failed")
        return HandshakeResult(sid, s0, granted, idle, serverTime, kem, pin?.kid)
    }

    private fun fail(m: String) = NenException.client("NEN_HANDSHAKE_FAILED", m)

    companion object {
        val EXPORT = "nen/1 export".toByteArray()
    }
}
