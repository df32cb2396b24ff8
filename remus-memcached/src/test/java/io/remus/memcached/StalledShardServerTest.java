package io.remus.memcached;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One port keeps serving while the trustee of one shard answers nothing (its node's serving thread is held):
 * clients whose keys live on other shards get every answer while the stalled command is outstanding, a pipeline
 * behind a stalled command is answered in order once it answers, and a command past its deadline is answered
 * {@code SERVER_ERROR} on a connection that stays usable.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StalledShardServerTest {
    /** The node whose serving thread the tests hold: shards 1 and 4 of 6 live there. */
    private static final int HELD = 1;
    private final ThreeNodeMemcached m = new ThreeNodeMemcached();

    @AfterEach
    void close() {
        m.cache.holdServing(HELD, false);
        m.close();
    }

    /** {@return a key whose shard lives on node {@code HELD} when {@code held}, on another node otherwise} */
    private String key(String prefix, boolean held) {
        for (int i = 0; ; i++) {
            String k = prefix + i;
            boolean onHeld = m.cache.shardOf(k.getBytes(StandardCharsets.US_ASCII)) % ThreeNodeMemcached.NODES == HELD;
            if (onHeld == held) {
                return k;
            }
        }
    }

    /** {@return the bytes the client may read now without waiting} */
    private static int available(Socket s) throws IOException {
        return s.getInputStream().available();
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        s.setSoTimeout(30_000);
        return s;
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            b.append((char) c);
        }
        return b.toString().replace("\r", "");
    }

    @Test
    void shouldAnswerClientsOfLiveShardsWhileOneShardsTrusteeIsHeld() throws IOException {
        String stuck = key("stuck", true);
        int live = 60;
        try (Socket stalled = connect(m.port(0)); TextClient other = new TextClient(m.port(0))) {
            m.cache.holdServing(HELD, true);
            stalled.getOutputStream().write(("get " + stuck + "\r\n").getBytes(StandardCharsets.US_ASCII));
            stalled.getOutputStream().flush();
            for (int i = 0; i < live; i++) {
                String k = key("live" + i + "-", false);
                other.send("set " + k + " 0 0 2\r\nv" + (i % 10) + "\r\n");
                assertEquals("STORED", other.line());
                other.send("get " + k + "\r\n");
                assertEquals("VALUE " + k + " 0 2", other.line());
                assertEquals("v" + (i % 10), other.data(2));
                assertEquals("END", other.line());
            }
            assertEquals(0, available(stalled), "the held shard's command is still outstanding");
            m.cache.holdServing(HELD, false);
            assertEquals("END", line(stalled.getInputStream()));
        }
    }

    @Test
    void shouldAnswerAPipelineInOrderBehindAStalledCommand() throws IOException {
        String stuck = key("stuck", true);
        String a = key("a", false);
        String b = key("b", false);
        try (Socket c = connect(m.port(0)); TextClient other = new TextClient(m.port(0))) {
            other.send("set " + stuck + " 7 0 3\r\nold\r\n");
            assertEquals("STORED", other.line());
            m.cache.holdServing(HELD, true);
            c.getOutputStream().write(("set " + stuck + " 1 0 3\r\nnew\r\nset " + a + " 0 0 1\r\nA\r\nget " + a + " "
                    + stuck + " " + b + "\r\nincr " + b + " 1\r\nversion\r\n").getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
            // The pipeline reaches the server on its own connection: ask until its set of a live shard has run.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String first;
            while (true) {
                other.send("get " + a + "\r\n");
                first = other.line();
                if (!first.equals("END") || System.nanoTime() - deadline > 0) {
                    break;
                }
                sleepMillis(5);
            }
            assertEquals("VALUE " + a + " 0 1", first, "the pipeline's set of a live shard ran");
            assertEquals("A", other.data(1));
            assertEquals("END", other.line());
            assertEquals(0, available(c), "no answer overtakes the stalled set");
            m.cache.holdServing(HELD, false);
            InputStream in = c.getInputStream();
            assertEquals("STORED", line(in));
            assertEquals("STORED", line(in));
            assertEquals("VALUE " + a + " 0 1", line(in));
            assertEquals("A", line(in));
            assertEquals("VALUE " + stuck + " 1 3", line(in));
            assertEquals("new", line(in));
            assertEquals("END", line(in));
            assertEquals("NOT_FOUND", line(in));
            assertEquals("VERSION " + ProtocolSession.VERSION, line(in));
        }
    }

    @Test
    void shouldAnswerServerErrorPastTheDeadlineAndServeTheConnectionOn() throws IOException {
        String stuck = key("stuck", true);
        String live = key("live", false);
        try (Socket c = connect(m.port(0))) {
            m.cache.holdServing(HELD, true);
            c.getOutputStream().write(("get " + stuck + "\r\n").getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
            String answer = line(c.getInputStream());
            assertTrue(answer.startsWith("SERVER_ERROR ") && answer.contains("did not answer"), answer);
            m.cache.holdServing(HELD, false);
            c.getOutputStream().write(("set " + live + " 0 0 1\r\nx\r\nget " + stuck + "\r\n").getBytes(StandardCharsets.US_ASCII));
            c.getOutputStream().flush();
            assertEquals("STORED", line(c.getInputStream()));
            assertEquals("END", line(c.getInputStream()));
        }
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
