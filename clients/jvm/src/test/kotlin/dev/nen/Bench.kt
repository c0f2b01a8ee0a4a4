// The client's CPU cost per request (`bash bench.sh`): process CPU time (not wall) of this JVM for
// 1 KB and 100 KB echoes on one warm session through NenHttpClient (/api/echo) against the plain
// java.net.http client (/api/plain/echo), and through OkHttp with NenInterceptor against plain
// OkHttp, on the same real server, in alternating rounds of one run, and per handshake; prints µs
// per request, the CPU Nen adds, and the ratios.
//
// Pitfalls: the JIT must be warm (warm-up rounds are discarded); process CPU includes the JDK
// HTTP client's selector thread and GC, for both modes alike; the server is another process.
package dev.nen

import java.lang.management.ManagementFactory
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse.BodyHandlers
import okhttp3.MediaType.Companion.toMediaType
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

object Bench {
    private val os = ManagementFactory.getOperatingSystemMXBean() as com.sun.management.OperatingSystemMXBean

    /** utime and stime of this process in clock ticks (Linux /proc/self/stat fields 14, 15), or null. */
    private fun ticks(): LongArray? =
        runCatching {
            val f = java.io.File("/proc/self/stat").readText().substringAfterLast(')').trim().split(' ')
            longArrayOf(f[11].toLong(), f[12].toLong())
        }.getOrNull()

    var lastSysShare = Double.NaN

    private fun cpuUs(n: Int, f: () -> Unit): Double {
        val k0 = ticks()
        val t0 = os.processCpuTime
        repeat(n) { f() }
        val k1 = ticks()
        if (k0 != null && k1 != null) lastSysShare = (k1[1] - k0[1]).toDouble() / maxOf(1L, k1[0] - k0[0] + k1[1] - k0[1])
        return (os.processCpuTime - t0) / 1000.0 / n
    }

    @JvmStatic
    fun main(args: Array<String>) {
        val n = args.indexOf("--n").let { if (it >= 0) args[it + 1].toInt() else 2000 }
        val hs = args.indexOf("--handshakes").let { if (it >= 0) args[it + 1].toInt() else 200 }
        val rounds = args.indexOf("--rounds").let { if (it >= 0) args[it + 1].toInt() else 3 }
        TestServer.start().use { srv ->
            val plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
            val nen = NenHttpClient(NenOptions.pinned(TestServer.XWING_PIN))
            val okPlain = OkHttpClient.Builder().followRedirects(false).build()
            val okNen = OkHttpClient.Builder().addInterceptor(NenInterceptor(NenOptions.pinned(TestServer.XWING_PIN))).followRedirects(false).build()
            val octets = "application/octet-stream".toMediaType()
            fun req(path: String, body: ByteArray) =
                HttpRequest.newBuilder(URI(srv.url + path)).header("content-type", "application/octet-stream").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build()
            println("JVM client CPU per request (process CPU time, µs), ${Runtime.version()}, n=$n x $rounds rounds")
            println("size     client       plain    nen      added    ratio")
            val sizes = args.indexOf("--sizes").let { if (it >= 0) args[it + 1].split(',').map { s -> s.toInt() } else listOf(1024, 100 * 1024) }
            for (size in sizes) {
                val body = ByteArray(size) { (it % 251).toByte() }
                val p = req("/api/plain/echo", body)
                val e = req("/api/echo", body)
                fun ok(c: OkHttpClient, path: String) = {
                    c.newCall(Request.Builder().url(srv.url + path).post(body.toRequestBody(octets)).build()).execute().use { check(it.body.bytes().size == size) }
                }
                val pairs =
                    listOf(
                        "java.net.http" to ({ check(plain.send(p, BodyHandlers.ofByteArray()).body().size == size) } to { check(nen.send(e, BodyHandlers.ofByteArray()).body().size == size) }),
                        "okhttp" to (ok(okPlain, "/api/plain/echo") to ok(okNen, "/api/echo")),
                    )
                for ((name, pair) in pairs) {
                    val (doPlain, doNen) = pair
                    cpuUs(maxOf(n, 500), doPlain)
                    cpuUs(maxOf(n, 500), doNen)
                    var bp = Double.MAX_VALUE
                    var bn = Double.MAX_VALUE
                    var sp = 0.0
                    var sn = 0.0
                    repeat(rounds) {
                        bp = minOf(bp, cpuUs(n, doPlain))
                        sp = lastSysShare
                        bn = minOf(bn, cpuUs(n, doNen))
                        sn = lastSysShare
                    }
                    println(String.format("%-8s %-12s %-8.1f %-8.1f %-8.1f %.2f   (system share of CPU: plain %.0f %%, nen %.0f %%)", "${size / 1024} KB", name, bp, bn, bn - bp, bn / bp, sp * 100, sn * 100))
                }
            }
            if (hs == 0) return
            val uri = URI(srv.url)
            cpuUs(maxOf(hs / 4, 5)) { nen.handshake(uri) }
            val h = cpuUs(hs) { nen.handshake(uri) }
            println(String.format("handshake (X-Wing, pinned): %.1f µs CPU each", h))
        }
    }
}
