// The test server: the repository's Hono target (bench/targets/hono.mjs, a real @nen/server)
// started on a free 127.0.0.1 port with fixed test keys (k1: X-Wing, the worked example's seed;
// m1: ML-KEM-768), and the pins derived from those seeds.
//
// Pitfalls: a missing Node or server build skips the test with a clear message, and fails it
// under NEN_REQUIRE_SERVER=1 (the suite's stage sets it); each server is stopped by its test
// (AutoCloseable), its output kept in a temp file shown when it fails to start.
package dev.nen

import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Assumptions.assumeTrue
import java.io.File
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.TimeUnit

class TestServer private constructor(val url: String, private val proc: Process, private val log: File) : AutoCloseable {
    override fun close() {
        proc.destroy()
        if (!proc.waitFor(5, TimeUnit.SECONDS)) proc.destroyForcibly()
        log.delete()
    }

    companion object {
        val ROOT: File = File(System.getProperty("user.dir")).resolve("../..").canonicalFile
        private val XWING_SEED = ByteArray(32) { (it + 1).toByte() }
        private val MLKEM_SEED = ByteArray(64) { it.toByte() }
        val XWING_PIN = "k1:" + Codec.b64url(publicKey(Kem.XWING, XWING_SEED))
        val MLKEM_PIN = "m1:" + Codec.b64url(publicKey(Kem.MLKEM768, MLKEM_SEED))
        private val KEYS = "k1:${Codec.b64url(XWING_SEED)},m1:${Codec.b64url(MLKEM_SEED)}"

        private fun publicKey(kem: Kem, seed: ByteArray): ByteArray {
            val h = kem.hpke()
            return h.serializePublicKey(h.deserializePrivateKey(seed, null).public)
        }

        private fun node(): String? =
            System.getenv("PATH").split(File.pathSeparator).map { File(it, "node") }.firstOrNull { it.canExecute() }?.path

        fun start(env: Map<String, String> = emptyMap()): TestServer {
            val node = node()
            val built = ROOT.resolve("packages/server/dist/index.js")
            if (node == null || !built.exists()) {
                val msg = "Node or the built @nen/server (pnpm turbo run build) is missing"
                if (System.getenv("NEN_REQUIRE_SERVER") == "1") fail<Unit>(msg)
                assumeTrue(false, msg)
            }
            val port = ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()).use { it.localPort }
            val log = File.createTempFile("nen-jvm-server", ".log")
            val pb = ProcessBuilder(node, "bench/targets/hono.mjs", "--port", port.toString()).directory(ROOT).redirectErrorStream(true).redirectOutput(log)
            pb.environment().putAll(mapOf("NEN_SERVER_KEYS" to KEYS, "NEN_LOG" to "silent", "NEN_HANDSHAKE_RATE" to "0") + env)
            val proc = pb.start()
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20)
            while (System.nanoTime() < deadline) {
                try {
                    Socket("127.0.0.1", port).close()
                    return TestServer("http://127.0.0.1:$port", proc, log)
                } catch (e: java.io.IOException) {
                    if (!proc.isAlive) break
                    Thread.sleep(100)
                }
            }
            proc.destroyForcibly()
            fail<Unit>("the Hono target did not start: " + log.readText().takeLast(2000))
            throw IllegalStateException("unreachable")
        }
    }
}
