// The key schedule (PROTOCOL.md §3.2 steps 5-7, §4): HKDF-SHA256 (RFC 5869) over HMAC-SHA256,
// the transcript hash, the confirm value and each epoch's directional keys and base nonces.
//
// Pitfalls: labels are ASCII without a terminator; HKDF-Expand here is only ever asked for at
// most 32 bytes (one HMAC block), which this file relies on; S_{n+1} derives from S_n.
package dev.nen

import java.security.MessageDigest
import javax.crypto.Mac
import javax.crypto.spec.SecretKeySpec

internal object Kdf {
    fun hmac(key: ByteArray, data: ByteArray): ByteArray {
        val m = Mac.getInstance("HmacSHA256")
        m.init(SecretKeySpec(key, "HmacSHA256"))
        return m.doFinal(data)
    }

    fun extract(salt: ByteArray, ikm: ByteArray): ByteArray = hmac(salt, ikm)

    /** HKDF-Expand for L ≤ 32 (one block: T(1) = HMAC(prk, info || 0x01)). */
    fun expand(prk: ByteArray, label: String, length: Int): ByteArray {
        require(length <= 32)
        return hmac(prk, label.toByteArray() + byteArrayOf(1)).copyOf(length)
    }

    fun sha256(vararg parts: ByteArray): ByteArray {
        val d = MessageDigest.getInstance("SHA-256")
        for (p in parts) d.update(p)
        return d.digest()
    }
}

/** One epoch's keys: client→server and server→client key and base nonce. */
internal class EpochKeys(val epoch: Long, val secret: ByteArray) {
    val c2sKey = Kdf.expand(secret, "nen/1 c2s key", 32)
    val c2sIv = Kdf.expand(secret, "nen/1 c2s iv", 12)
    val s2cKey = Kdf.expand(secret, "nen/1 s2c key", 32)
    val s2cIv = Kdf.expand(secret, "nen/1 s2c iv", 12)

    fun next() = EpochKeys(epoch + 1, Kdf.expand(secret, "nen/1 rekey", 32))
}
