// The request target bound in the AAD (PROTOCOL.md §5.3): the path exactly as sent, and the query
// in its canonical form (the WHATWG application/x-www-form-urlencoded parse-then-serialise).
//
// Pitfalls: the path is never decoded here; it is made what a WHATWG URL parser leaves unchanged
// (`\` as `/`, dot segments also spelt %2e resolved, bytes outside printable ASCII and
// ` "#<>?`{}` percent-encoded) before it is sent, so both ends bind the same string. `+` is a space
// before percent-decoding; a `%` not followed by two hex digits stays literal; ill-formed UTF-8
// becomes U+FFFD per maximal subpart (the JDK's REPLACE decoder does exactly that).
package dev.nen

import java.io.ByteArrayOutputStream

internal object Target {
    private val HEX = "0123456789ABCDEF".toCharArray()

    private fun hexVal(c: Int): Int =
        when (c) {
            in '0'.code..'9'.code -> c - '0'.code
            in 'a'.code..'f'.code -> c - 'a'.code + 10
            in 'A'.code..'F'.code -> c - 'A'.code + 10
            else -> -1
        }

    private fun decode(b: ByteArray, from: Int, to: Int): ByteArray {
        val o = ByteArrayOutputStream(to - from)
        var i = from
        while (i < to) {
            val c = b[i].toInt() and 0xff
            if (c == '%'.code && i + 2 < to && hexVal(b[i + 1].toInt()) >= 0 && hexVal(b[i + 2].toInt()) >= 0) {
                o.write(hexVal(b[i + 1].toInt()) * 16 + hexVal(b[i + 2].toInt()))
                i += 3
            } else {
                o.write(if (c == '+'.code) 0x20 else c)
                i++
            }
        }
        return o.toByteArray()
    }

    private fun serialize(raw: ByteArray, sb: StringBuilder) {
        for (x in repairUtf8(raw)) {
            val b = x.toInt() and 0xff
            val ch = b.toChar()
            when {
                b == 0x20 -> sb.append('+')
                ch in 'a'..'z' || ch in 'A'..'Z' || ch in '0'..'9' || ch == '*' || ch == '-' || ch == '.' || ch == '_' -> sb.append(ch)
                else -> sb.append('%').append(HEX[b shr 4]).append(HEX[b and 15])
            }
        }
    }

    /** WHATWG Encoding's UTF-8 decode: each maximal ill-formed subsequence becomes U+FFFD (EF BF BD). */
    fun repairUtf8(b: ByteArray): ByteArray {
        val o = ByteArrayOutputStream(b.size + 8)
        var need = 0
        var seen = 0
        var start = 0
        var i = 0
        while (i < b.size) {
            val c = b[i].toInt() and 0xff
            if (need == 0) {
                start = i
                need =
                    when (c) {
                        in 0..0x7f -> 0.also { o.write(c) }
                        in 0xc2..0xdf -> 1
                        in 0xe0..0xef -> 2
                        in 0xf0..0xf4 -> 3
                        else -> 0.also { o.write(FFFD) }
                    }
                i++
                continue
            }
            val lo = if (seen == 0) lowerFirst(b[start]) else 0x80
            val hi = if (seen == 0) upperFirst(b[start]) else 0xbf
            if (c < lo || c > hi) {
                need = 0
                seen = 0
                o.write(FFFD)
                continue // this byte starts over
            }
            seen++
            i++
            if (seen == need) {
                o.write(b, start, i - start)
                need = 0
                seen = 0
            }
        }
        if (need != 0) o.write(FFFD)
        return o.toByteArray()
    }

    private val FFFD = byteArrayOf(0xef.toByte(), 0xbf.toByte(), 0xbd.toByte())

    private fun lowerFirst(lead: Byte): Int =
        when (lead.toInt() and 0xff) {
            0xe0 -> 0xa0
            0xf0 -> 0x90
            else -> 0x80
        }

    private fun upperFirst(lead: Byte): Int =
        when (lead.toInt() and 0xff) {
            0xed -> 0x9f
            0xf4 -> 0x8f
            else -> 0xbf
        }

    /** Steps 1-7 of §5.3 on the part after the first `?`. */
    fun canonicalQuery(query: String): String {
        val q = query.toByteArray(Charsets.UTF_8)
        var start = if (q.isNotEmpty() && q[0] == '?'.code.toByte()) 1 else 0
        val sb = StringBuilder(q.size + 8)
        while (start <= q.size) {
            var end = start
            while (end < q.size && q[end] != '&'.code.toByte()) end++
            if (end > start) {
                var eq = start
                while (eq < end && q[eq] != '='.code.toByte()) eq++
                if (sb.isNotEmpty()) sb.append('&')
                serialize(decode(q, start, eq), sb)
                sb.append('=')
                serialize(if (eq < end) decode(q, eq + 1, end) else ByteArray(0), sb)
            }
            start = end + 1
        }
        return sb.toString()
    }

    /** `path` or `path?canonical-query` from a request target as sent. */
    fun canonical(rawTarget: String): String {
        val i = rawTarget.indexOf('?')
        if (i < 0) return rawTarget
        val q = canonicalQuery(rawTarget.substring(i + 1))
        return if (q.isEmpty()) rawTarget.substring(0, i) else rawTarget.substring(0, i) + "?" + q
    }

    private val PLAIN_PATH = Regex("^(?:/[A-Za-z0-9_.~!$&'()*+,;=:@%-]*)+$")

    private fun dots(seg: String): Int =
        when (seg.lowercase()) {
            ".", "%2e" -> 1
            "..", ".%2e", "%2e.", "%2e%2e" -> 2
            else -> 0
        }

    /** The path a WHATWG URL parser leaves unchanged. */
    fun whatwgPath(path: String): String {
        val tail = "$path/"
        if (PLAIN_PATH.matches(path) && !path.contains("%2") && !tail.contains("/./") && !tail.contains("/../")) return path
        val segments = path.replace('\\', '/').split('/').drop(1)
        val out = ArrayList<String>()
        for ((i, seg) in segments.withIndex()) {
            val d = dots(seg)
            if (d == 2 && out.isNotEmpty()) out.removeAt(out.size - 1)
            if (d > 0) {
                if (i == segments.size - 1) out.add("")
                continue
            }
            out.add(seg)
        }
        val raw = ("/" + out.joinToString("/")).toByteArray(Charsets.UTF_8)
        val sb = StringBuilder(raw.size)
        for (x in raw) {
            val b = x.toInt() and 0xff
            if (b in 0x21..0x7e && " \"#<>?`{}".indexOf(b.toChar()) < 0) {
                sb.append(b.toChar())
            } else {
                sb.append('%').append(HEX[b shr 4]).append(HEX[b and 15])
            }
        }
        return sb.toString()
    }
}
