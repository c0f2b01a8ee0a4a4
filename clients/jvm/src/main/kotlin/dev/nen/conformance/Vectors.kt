// Checks the conformance kit's vector files (conformance/vectors/README.md) with this client's own
// code: handshakes (decapsulation, transcript, S_0, confirm, epoch keys; unpinned ones re-run
// through the client's HandshakeState), sealed requests and responses and the rejects, record
// streams fed one byte at a time, the error classification, the retry rules and the canonical
// request targets. Results are named as the JS reference driver names them.
//
// Pitfalls: the kit's encapsulations used fresh randomness, so the client side is checked by
// decapsulating with the given private keys, never by re-encapsulating. Any exception in one
// vector fails that vector only.
package dev.nen.conformance

import dev.nen.Codec
import dev.nen.EpochKeys
import dev.nen.HandshakeState
import dev.nen.Kdf
import dev.nen.Kem
import dev.nen.NenException
import dev.nen.Pin
import dev.nen.RecordOpener
import dev.nen.Target
import java.io.ByteArrayOutputStream
import java.io.File
import java.util.zip.Inflater

internal class Vectors(private val dir: File) {
    val results = ArrayList<Map<String, Any?>>()
    private val sessions = HashMap<String, Map<String, Any?>>()

    private fun run(file: String, name: String, f: () -> Unit) {
        val r = LinkedHashMap<String, Any?>()
        r["file"] = file
        r["name"] = name
        try {
            f()
            r["ok"] = true
        } catch (e: Throwable) {
            r["ok"] = false
            r["detail"] = e.message ?: e.toString()
        }
        results.add(r)
    }

    private fun read(f: String) = Json.parse(File(dir, f).readText()).obj()

    fun checkAll(): List<Map<String, Any?>> {
        val hs = read("handshake.vectors.json")
        for (v in hs["vectors"].list().map { it.obj() }) {
            sessions[v.str("name") ?: ""] = v
            run("handshake.vectors.json", v.str("name") ?: "") { handshake(v) }
        }
        val msg = read("messages.vectors.json")
        val requests = msg["requests"].list().map { it.obj() }
        for (r in requests) run("messages.vectors.json", "request ${r.str("name")}") { request(r) }
        for (r in msg["responses"].list().map { it.obj() }) run("messages.vectors.json", "response ${r.str("name")}") { response(r) }
        for (r in msg["rejects"].list().map { it.obj() }) run("messages.vectors.json", "reject ${r.str("name")}") { reject(r, requests) }
        val st = read("streams.vectors.json")
        val streams = st["streams"].list().map { it.obj() }
        for (s in streams) {
            run("streams.vectors.json", s.str("name") ?: "") {
                val (plain, code) = openStream(s, hex(s.str("body")))
                if (code != null) fail("refused: $code")
                eq(plain, hex(s.str("plaintext")), "plaintext")
            }
        }
        for (b in st["broken"].list().map { it.obj() }) {
            run("streams.vectors.json", "broken ${b.str("name")}") {
                val s = streams.first { it.str("name") == b.str("stream") }
                val (plain, code) = openStream(s, hex(b.str("body")))
                if (code != b.str("expect")) fail("got ${code ?: "success"}, want ${b.str("expect")}")
                eq(plain, hex(b.str("delivered")), "delivered plaintext")
            }
        }
        errors(read("errors.vectors.json"))
        retries(read("retry.vectors.json"))
        val ct = read("canonical-target.vectors.json")
        for (t in ct["targets"].list().map { it.obj() } + ct["urls"].list().map { it.obj() }) {
            run("canonical-target.vectors.json", t.str("name") ?: "") {
                val got = Target.canonical(t.str("target") ?: "")
                if (got != t.str("canonical")) fail("canonical target: got $got")
            }
        }
        return results
    }

    private fun handshake(v: Map<String, Any?>) {
        val kem = Kem.of(v.str("kem") ?: "")
        val h = kem.hpke()
        eq(h.serializePrivateKey(h.deriveKeyPair(hex(v.str("clientEphemeralIkm"))).private), hex(v.str("clientEphemeralSeed")), "clientEphemeralSeed")
        val eph = h.deserializePrivateKey(hex(v.str("clientEphemeralSeed")), null)
        val srv = h.deserializePrivateKey(hex(v.str("serverStaticSeed")), null)
        eq(h.serializePublicKey(eph.public), hex(v.str("clientEphemeralPublicKey")), "clientEphemeralPublicKey")
        eq(h.serializePublicKey(srv.public), hex(v.str("serverStaticPublicKey")), "serverStaticPublicKey")
        val pinned = v["pinned"] == true
        if (pinned) {
            val pin = Pin.parse(v.str("pin") ?: "")
            if (pin.kid != v.str("kid") || pin.kem != kem) fail("pin differs")
        }
        val ch = hex(v.str("clientHello"))
        val sh = hex(v.str("serverHello"))
        val n = 36 + kem.encSize
        if (sh.size != n + 32) fail("ServerHello length")
        eq(sh.copyOfRange(4, 20), hex(v.str("sessionId")), "session id")
        if (Codec.b64url(sh.copyOfRange(4, 20)) != v.str("sessionIdB64u")) fail("sessionIdB64u differs")
        eq(sh.copyOfRange(36, n), hex(v.str("encEph")), "enc_e")
        val th = Kdf.sha256("nen/1 transcript".toByteArray(), ch, sh.copyOfRange(0, n))
        eq(th, hex(v.str("th")), "TH")
        val exportedE = h.setupBaseR(sh.copyOfRange(36, n), eph, "nen/1 ephemeral".toByteArray()).export(HandshakeState.EXPORT, 32)
        eq(exportedE, hex(v.str("exportedE")), "exported_e")
        var exportedS = ByteArray(0)
        if (pinned) {
            val enc = ch.copyOfRange(ch.size - kem.encSize, ch.size)
            eq(enc, hex(v.str("encStatic")), "enc_static")
            exportedS = h.setupBaseR(enc, srv, "nen/1 static".toByteArray()).export(HandshakeState.EXPORT, 32)
            eq(exportedS, hex(v.str("exportedS")), "exported_s")
        }
        val s0 = Kdf.extract(th, exportedE + exportedS)
        eq(s0, hex(v.str("s0")), "S_0")
        val ck = Kdf.expand(s0, "nen/1 confirm", 32)
        eq(ck, hex(v.str("confirmKey")), "confirm key")
        eq(Kdf.hmac(ck, th), hex(v.str("confirm")), "confirm")
        eq(sh.copyOfRange(n, n + 32), hex(v.str("confirm")), "ServerHello confirm")
        var k = EpochKeys(0, s0)
        for (e in v["epochs"].list().map { it.obj() }) {
            eq(k.secret, hex(e.str("secret")), "epoch secret")
            eq(k.c2sKey, hex(e.str("c2sKey")), "c2sKey")
            eq(k.c2sIv, hex(e.str("c2sIv")), "c2sIv")
            eq(k.s2cKey, hex(e.str("s2cKey")), "s2cKey")
            eq(k.s2cIv, hex(e.str("s2cIv")), "s2cIv")
            k = k.next()
        }
        if (!pinned) {
            val st = HandshakeState(kem, null, v.long("requestedLifetime"), h.deriveKeyPair(hex(v.str("clientEphemeralIkm"))))
            eq(st.hello, ch, "ClientHello (client re-run)")
            eq(st.finish(sh).secret, s0, "S_0 (client re-run)")
        }
    }

    private fun keys(session: String?, epoch: Long): Pair<EpochKeys, ByteArray> {
        val v = sessions[session] ?: fail("no session $session")
        val e = v["epochs"].list().map { it.obj() }.firstOrNull { it.long("epoch") == epoch } ?: fail("no epoch $epoch")
        return EpochKeys(epoch, hex(e.str("secret"))) to hex(v.str("sessionId"))
    }

    private fun request(r: Map<String, Any?>) {
        val (k, sid) = keys(r.str("session"), r.long("epoch"))
        val seq = r.long("seq")
        val flags = r.long("flags").toInt()
        val headers = r["headers"].obj()
        if (Codec.requestHeader(Codec.b64url(sid), k.epoch, seq, r.long("ts"), flags) != headers.str("nen")) fail("nen header differs")
        if (Target.canonical(r.str("target") ?: "") != r.str("aadTarget")) fail("canonical target differs")
        val aad = Codec.requestAad(sid, k.epoch, seq, r.long("ts"), flags, r.str("method") ?: "", r.str("aadTarget") ?: "", r.str("contentType") ?: "", r.str("retry") ?: "")
        eq(aad, hex(r.str("aad")), "AAD")
        eq(Codec.nonce(k.c2sIv, seq), hex(r.str("nonce")), "nonce")
        val plain = Codec.open(k.c2sKey, Codec.nonce(k.c2sIv, seq), aad, hex(r.str("sealed"))) ?: fail("does not open")
        eq(plain, hex(r.str("plaintext")), "opened plaintext")
        if (r["plaintextReproducible"] == true) eq(Codec.seal(k.c2sKey, Codec.nonce(k.c2sIv, seq), aad, plain), hex(r.str("sealed")), "sealed")
        var body = plain
        if (flags and 2 != 0) {
            val ql = ((plain[0].toInt() and 0xff) shl 8) or (plain[1].toInt() and 0xff)
            val url = r.str("url") ?: ""
            eq(plain.copyOfRange(2, 2 + ql), url.substring(url.indexOf('?') + 1).toByteArray(), "confidential query")
            body = plain.copyOfRange(2 + ql, plain.size)
        }
        if (flags and 1 != 0) body = inflate(body)
        eq(body, hex(r.str("body")), "body")
        headers.str("nen-body")?.let { if (it != Codec.b64url(hex(r.str("sealed")))) fail("nen-body differs") }
    }

    private fun response(r: Map<String, Any?>) {
        val (k, sid) = keys(r.str("session"), r.long("epoch"))
        val seq = r.long("seq")
        val flags = r.long("flags").toInt()
        val headers = r["headers"].obj()
        val aad = Codec.responseAad(sid, k.epoch, seq, r.long("status").toInt(), flags, r.str("contentType") ?: "")
        eq(aad, hex(r.str("aad")), "AAD")
        eq(Codec.nonce(k.s2cIv, seq), hex(r.str("nonce")), "nonce")
        if (Codec.responseFlags(headers.str("nen")) != flags) fail("nen header differs")
        val plain = Codec.open(k.s2cKey, Codec.nonce(k.s2cIv, seq), aad, hex(r.str("sealed"))) ?: fail("does not open")
        eq(plain, hex(r.str("plaintext")), "opened plaintext")
        if (r["plaintextReproducible"] == true) eq(Codec.seal(k.s2cKey, Codec.nonce(k.s2cIv, seq), aad, plain), hex(r.str("sealed")), "sealed")
        eq(if (flags and 1 != 0) inflate(plain) else plain, hex(r.str("body")), "body")
        headers.str("nen-body")?.let { eq(Codec.b64urlDecode(it) ?: fail("nen-body not base64url"), hex(r.str("sealed")), "nen-body") }
    }

    private fun reject(r: Map<String, Any?>, requests: List<Map<String, Any?>>) {
        val req = requests.first { it.str("name") == r.str("request") }
        val flags = r.long("flags").toInt()
        if (flags and 1 != 0 && req.long("flags").toInt() and 8 == 0) return // refused before opening (Exchange.verify)
        val (k, sid) = keys(req.str("session"), req.long("epoch"))
        val seq = req.long("seq")
        val aad = Codec.responseAad(sid, k.epoch, seq, r.long("status").toInt(), flags, r.str("contentType") ?: "")
        if (Codec.open(k.s2cKey, Codec.nonce(k.s2cIv, seq), aad, hex(r.str("sealed"))) != null) fail("opened, must be refused")
    }

    private fun openStream(s: Map<String, Any?>, body: ByteArray): Pair<ByteArray, String?> {
        val (k, _) = keys(s.str("session"), s.long("epoch"))
        val resp = s.str("direction") == "response"
        val o = RecordOpener(if (resp) k.s2cKey else k.c2sKey, if (resp) k.s2cIv else k.c2sIv, s.long("seq"), hex(s.str("baseAad")))
        val out = ByteArrayOutputStream()
        return try {
            for (i in body.indices) out.write(o.push(body, i, 1))
            o.end()
            out.toByteArray() to null
        } catch (e: NenException) {
            out.toByteArray() to e.code
        }
    }

    private fun errors(er: Map<String, Any?>) {
        for (w in er["wire"].list().map { it.obj() }) {
            val code = w.str("code") ?: ""
            run("errors.vectors.json", "wire $code") {
                val e = NenException.server(w.long("status").toInt(), w["headers"].obj().str("nen-error"), "x")
                if (e.code != code || e.status.toLong() != w.long("status")) fail("status differs from the catalog")
                if (!(w.str("body") ?: "").contains("\"code\":\"$code\"")) fail("code differs")
            }
        }
        for (c in er["classification"].list().map { it.obj() }) {
            run("errors.vectors.json", "classify ${c.str("name")}") {
                val e = NenException.server(c.long("status").toInt(), c["headers"].obj().str("nen-error"), "x")
                if (e.code != c.str("expect")) fail("got ${e.code}, want ${c.str("expect")}")
            }
        }
    }

    private fun retries(rt: Map<String, Any?>) {
        for (r in rt["rules"].list().map { it.obj() }) {
            val a = r["answer"].obj()
            run("retry.vectors.json", "${a.str("code")} ${r.str("request")}") {
                val e = NenException.server(a.long("status").toInt(), a.str("code"), "x")
                val rec = NenException.recoveryOf(e)
                val want = if (r.str("request") == "ordinary" && rec != dev.nen.Recovery.FAIL) "retry" else "throw"
                if (r.str("action") != want || (r["backoff"] == true) != (want == "retry" && rec == dev.nen.Recovery.BACKOFF_RETRY)) fail("rule differs from the catalog")
            }
        }
    }

    private fun inflate(b: ByteArray): ByteArray {
        val inf = Inflater(true)
        inf.setInput(b)
        val out = ByteArrayOutputStream()
        val buf = ByteArray(8192)
        while (!inf.finished()) {
            val n = inf.inflate(buf)
            if (n == 0 && (inf.needsInput() || inf.needsDictionary())) fail("bad deflate")
            out.write(buf, 0, n)
            if (out.size() > 1 shl 22) fail("inflates too far")
        }
        inf.end()
        return out.toByteArray()
    }

    private fun eq(got: ByteArray, want: ByteArray, what: String) {
        if (!got.contentEquals(want)) fail("$what differs")
    }

    private fun fail(m: String): Nothing = throw AssertionError(m)

    private fun hex(s: String?): ByteArray {
        val t = s ?: return ByteArray(0)
        return ByteArray(t.length / 2) { ((Character.digit(t[2 * it], 16) shl 4) or Character.digit(t[2 * it + 1], 16)).toByte() }
    }
}
