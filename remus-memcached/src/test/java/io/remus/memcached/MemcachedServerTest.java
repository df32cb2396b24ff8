package io.remus.memcached;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three servers over one delegated store on a 3-node simulator cluster: every node's port sees the same items,
 * and bad input (long keys and lines, oversize values, binary garbage, thousands of idle connections) gets
 * memcached's answers while the server keeps serving everyone else.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MemcachedServerTest {
    private static ThreeNodeMemcached m;

    @BeforeAll
    static void start() {
        m = new ThreeNodeMemcached();
    }

    @AfterAll
    static void stop() {
        m.close();
    }

    @Test
    void shouldSeeTheSameItemsFromEveryNodesPort() throws IOException {
        try (TextClient a = new TextClient(m.port(0)); TextClient b = new TextClient(m.port(1));
             TextClient c = new TextClient(m.port(2))) {
            for (int i = 0; i < 30; i++) {
                a.send("set same-" + i + " " + i + " 0 2\r\nv" + (i % 10) + "\r\n");
                assertEquals("STORED", a.line());
            }
            for (int i = 0; i < 30; i++) {
                TextClient reader = i % 2 == 0 ? b : c;
                reader.send("get same-" + i + "\r\n");
                assertEquals("VALUE same-" + i + " " + i + " 2", reader.line());
                assertEquals("v" + (i % 10), reader.data(2));
                assertEquals("END", reader.line());
            }
            c.send("set counter 0 0 1\r\n0\r\n");
            assertEquals("STORED", c.line());
            for (int i = 1; i <= 9; i++) {
                TextClient writer = List.of(a, b, c).get(i % 3);
                writer.send("incr counter 1\r\n");
                assertEquals(Integer.toString(i), writer.line());
            }
            b.send("gets counter\r\n");
            String head = b.line();
            assertTrue(head.startsWith("VALUE counter 0 1 "), head);
            assertEquals("9", b.data(1));
            assertEquals("END", b.line());
            String cas = head.substring("VALUE counter 0 1 ".length());
            a.send("cas counter 0 0 2 " + cas + "\r\n10\r\n");
            assertEquals("STORED", a.line());
            c.send("cas counter 0 0 2 " + cas + "\r\n11\r\n");
            assertEquals("EXISTS", c.line());
            b.send("delete counter\r\n");
            assertEquals("DELETED", b.line());
            a.send("get counter\r\n");
            assertEquals("END", a.line());
        }
    }

    @Test
    void shouldCountEveryIncrFromClientsOfEveryNodeAtOnce() throws Exception {
        int perClient = 200;
        try (TextClient setup = new TextClient(m.port(0))) {
            setup.send("set contended 0 0 1\r\n0\r\nset appended 0 0 0\r\n\r\n");
            assertEquals("STORED", setup.line());
            assertEquals("STORED", setup.line());
        }
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int n = 0; n < 2 * ThreeNodeMemcached.NODES; n++) {
            int node = n % ThreeNodeMemcached.NODES;
            threads.add(Thread.ofPlatform().start(() -> {
                try (TextClient c = new TextClient(m.port(node))) {
                    for (int i = 0; i < perClient; i++) {
                        c.send("incr contended 1\r\nappend appended 0 0 1\r\nx\r\n");
                        c.line();
                        assertEquals("STORED", c.line());
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), failures);
        int total = perClient * threads.size();
        try (TextClient check = new TextClient(m.port(1))) {
            check.send("get contended appended\r\n");
            String value = Integer.toString(total);
            assertEquals("VALUE contended 0 " + value.length(), check.line());
            assertEquals(value, check.data(value.length()));
            assertEquals("VALUE appended 0 " + total, check.line());
            assertEquals("x".repeat(total), check.data(total));
            assertEquals("END", check.line());
        }
    }

    @Test
    void shouldStoreTheLargestItemAndRefuseALargerOne() throws IOException {
        int max = DelegatedCache.MAX_ITEM_BYTES;
        String key = "k".repeat(MemcachedEngine.MAX_KEY_BYTES);
        String value = "v".repeat(max);
        try (TextClient a = new TextClient(m.port(0)); TextClient b = new TextClient(m.port(2))) {
            a.send("set " + key + " 0 0 " + max + "\r\n" + value + "\r\n");
            assertEquals("STORED", a.line());
            b.send("get " + key + "\r\n");
            assertEquals("VALUE " + key + " 0 " + max, b.line());
            assertEquals(value, b.data(max));
            assertEquals("END", b.line());
            a.send("set big 0 0 " + (max + 1) + "\r\n" + value + "v\r\nget big\r\n");
            assertEquals("SERVER_ERROR object too large for cache", a.line());
            assertEquals("END", a.line());
            a.send("set " + key + "k 0 0 1\r\nx\r\n");
            assertEquals("CLIENT_ERROR bad command line format", a.line());
            assertEquals("ERROR", a.line());
            a.send("append " + key + " 0 0 1\r\nx\r\n");
            assertEquals("NOT_STORED", a.line());
        }
    }

    @Test
    void shouldCloseALongLineAndSurviveGarbageWhileServingOthers() throws IOException {
        try (TextClient good = new TextClient(m.port(1)); TextClient longLine = new TextClient(m.port(1));
             TextClient garbage = new TextClient(m.port(1))) {
            longLine.send("x".repeat(3 * ServerConfig.MAX_LINE_BYTES));
            assertTrue(longLine.closedByServer());
            byte[] noise = new byte[64 << 10];
            new Random(42).nextBytes(noise);
            garbage.send(noise);
            good.send("set alive 0 0 3\r\nyes\r\nget alive\r\n");
            assertEquals("STORED", good.line());
            assertEquals("VALUE alive 0 3", good.line());
            assertEquals("yes", good.data(3));
            assertEquals("END", good.line());
        }
    }

    @Test
    void shouldServeAClientWhileTwoThousandConnectionsIdle() throws Exception {
        int idle = 2000;
        List<SocketChannel> channels = new ArrayList<>();
        try (MemcachedServer server = MemcachedServer.start(ServerConfig.of("127.0.0.1", 0), () -> m.cache.openEngine(2),
                () -> System.currentTimeMillis() / 1000)) {
            for (int i = 0; i < idle; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", server.port()));
                if (i % 2 == 0) {
                    ch.write(java.nio.ByteBuffer.wrap("get half-a-li".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
                }
                channels.add(ch);
            }
            try (TextClient active = new TextClient(server.port())) {
                for (int i = 0; i < 20; i++) {
                    active.send("set busy-" + i + " 0 0 1\r\n" + (i % 10) + "\r\nget busy-" + i + "\r\n");
                    assertEquals("STORED", active.line());
                    assertEquals("VALUE busy-" + i + " 0 1", active.line());
                    assertEquals(Integer.toString(i % 10), active.data(1));
                    assertEquals("END", active.line());
                }
                assertEquals(idle + 1, server.connections());
                active.send("stats\r\n");
                boolean seen = false;
                for (String l = active.line(); !"END".equals(l); l = active.line()) {
                    seen |= l.equals("STAT curr_connections " + (idle + 1));
                }
                assertTrue(seen, "stats reports every open connection");
            }
        } finally {
            for (SocketChannel ch : channels) {
                ch.close();
            }
        }
    }

    @Test
    void shouldRefuseConnectionsPastTheLimit() throws IOException {
        try (MemcachedServer small = MemcachedServer.start(new ServerConfig("127.0.0.1", 0, 2, 1 << 20),
                () -> m.cache.openEngine(0), () -> System.currentTimeMillis() / 1000);
             TextClient one = new TextClient(small.port()); TextClient two = new TextClient(small.port())) {
            one.send("version\r\n");
            assertTrue(one.line().startsWith("VERSION "));
            two.send("version\r\n");
            assertTrue(two.line().startsWith("VERSION "));
            try (TextClient three = new TextClient(small.port())) {
                assertEquals("SERVER_ERROR Too many open connections", three.line());
                assertTrue(three.closedByServer());
            }
        }
    }
}
