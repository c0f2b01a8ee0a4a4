// A minimal JSON reader and writer for the conformance driver (JSON Lines over stdio) and the
// vector files, so the client library needs no JSON dependency.
//
// Pitfalls: numbers are read as Long when integral (the kit's integers are below 2^53), else
// Double; strings handle every escape including surrogate pairs; output escapes control chars.
package dev.nen.conformance

internal class JsonReader(private val s: String) {
    private var i = 0

    fun parse(): Any? {
        val v = value()
        ws()
        if (i != s.length) throw IllegalArgumentException("trailing data at $i")
        return v
    }

    private fun ws() {
        while (i < s.length && s[i].isWhitespace()) i++
    }

    private fun value(): Any? {
        ws()
        if (i >= s.length) throw IllegalArgumentException("unexpected end")
        return when (val c = s[i]) {
            '{' -> obj()
            '[' -> arr()
            '"' -> str()
            't' -> lit("true", true)
            'f' -> lit("false", false)
            'n' -> lit("null", null)
            else -> if (c == '-' || c.isDigit()) num() else throw IllegalArgumentException("bad char $c at $i")
        }
    }

    private fun lit(w: String, v: Any?): Any? {
        if (!s.startsWith(w, i)) throw IllegalArgumentException("bad literal at $i")
        i += w.length
        return v
    }

    private fun num(): Any {
        val st = i
        while (i < s.length && (s[i].isDigit() || s[i] in "+-.eE")) i++
        val t = s.substring(st, i)
        return t.toLongOrNull() ?: t.toDouble()
    }

    private fun str(): String {
        val sb = StringBuilder()
        i++
        while (true) {
            val c = s[i++]
            when (c) {
                '"' -> return sb.toString()
                '\\' -> {
                    when (val e = s[i++]) {
                        'n' -> sb.append('\n')
                        't' -> sb.append('\t')
                        'r' -> sb.append('\r')
                        'b' -> sb.append('\b')
                        'f' -> sb.append('\u000c')
                        'u' -> {
                            sb.append(s.substring(i, i + 4).toInt(16).toChar())
                            i += 4
                        }
                        else -> sb.append(e)
                    }
                }
                else -> sb.append(c)
            }
        }
    }

    private fun obj(): Map<String, Any?> {
        val m = LinkedHashMap<String, Any?>()
        i++
        ws()
        if (s[i] == '}') {
            i++
            return m
        }
        while (true) {
            ws()
            val k = str()
            ws()
            if (s[i++] != ':') throw IllegalArgumentException("expected : at $i")
            m[k] = value()
            ws()
            when (s[i++]) {
                ',' -> continue
                '}' -> return m
                else -> throw IllegalArgumentException("expected , or } at $i")
            }
        }
    }

    private fun arr(): List<Any?> {
        val l = ArrayList<Any?>()
        i++
        ws()
        if (s[i] == ']') {
            i++
            return l
        }
        while (true) {
            l.add(value())
            ws()
            when (s[i++]) {
                ',' -> continue
                ']' -> return l
                else -> throw IllegalArgumentException("expected , or ] at $i")
            }
        }
    }
}

internal object Json {
    fun parse(s: String): Any? = JsonReader(s).parse()

    fun write(v: Any?): String = StringBuilder().also { write(v, it) }.toString()

    private fun write(v: Any?, sb: StringBuilder) {
        when (v) {
            null -> sb.append("null")
            is String -> str(v, sb)
            is Boolean, is Int, is Long -> sb.append(v.toString())
            is Number -> sb.append(v.toString())
            is Map<*, *> -> {
                sb.append('{')
                var first = true
                for ((k, x) in v) {
                    if (!first) sb.append(',')
                    first = false
                    str(k.toString(), sb)
                    sb.append(':')
                    write(x, sb)
                }
                sb.append('}')
            }
            is Iterable<*> -> {
                sb.append('[')
                var first = true
                for (x in v) {
                    if (!first) sb.append(',')
                    first = false
                    write(x, sb)
                }
                sb.append(']')
            }
            else -> str(v.toString(), sb)
        }
    }

    private fun str(s: String, sb: StringBuilder) {
        sb.append('"')
        for (c in s) {
            when {
                c == '"' -> sb.append("\\\"")
                c == '\\' -> sb.append("\\\\")
                c == '\n' -> sb.append("\\n")
                c == '\r' -> sb.append("\\r")
                c == '\t' -> sb.append("\\t")
                c < ' ' -> sb.append(String.format("\\u%04x", c.code))
                else -> sb.append(c)
            }
        }
        sb.append('"')
    }
}

@Suppress("UNCHECKED_CAST")
internal fun Any?.obj(): Map<String, Any?> = this as Map<String, Any?>

@Suppress("UNCHECKED_CAST")
internal fun Any?.list(): List<Any?> = (this as? List<Any?>) ?: emptyList()

internal fun Map<String, Any?>.str(k: String): String? = this[k] as? String

internal fun Map<String, Any?>.long(k: String): Long = (this[k] as Number).toLong()
