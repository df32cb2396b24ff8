package io.remus.memcached;

import net.spy.memcached.CASResponse;
import net.spy.memcached.CASValue;
import net.spy.memcached.MemcachedClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Java memcached client, spymemcached 2.12.3 from Maven Central (its default connection speaks the ASCII
 * protocol), one client per node of a 3-node store: what one node's client writes, the others' read.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SpymemcachedClientTest {
    @Test
    void shouldShareItemsBetweenClientsOfDifferentNodes() throws Exception {
        try (ThreeNodeMemcached m = new ThreeNodeMemcached()) {
            List<MemcachedClient> clients = new ArrayList<>();
            try {
                for (int n = 0; n < ThreeNodeMemcached.NODES; n++) {
                    clients.add(new MemcachedClient(new InetSocketAddress("127.0.0.1", m.port(n))));
                }
                MemcachedClient a = clients.get(0);
                MemcachedClient b = clients.get(1);
                MemcachedClient c = clients.get(2);

                assertTrue(a.set("greeting", 0, "hello").get(10, TimeUnit.SECONDS));
                assertEquals("hello", b.get("greeting"));
                assertEquals("hello", c.get("greeting"));

                assertTrue(b.add("fresh", 0, "one").get(10, TimeUnit.SECONDS));
                assertFalse(c.add("fresh", 0, "two").get(10, TimeUnit.SECONDS));
                assertTrue(c.replace("fresh", 0, "three").get(10, TimeUnit.SECONDS));
                assertEquals("three", a.get("fresh"));

                CASValue<Object> seen = c.gets("greeting");
                assertEquals("hello", seen.getValue());
                assertEquals(CASResponse.OK, a.cas("greeting", seen.getCas(), "bonjour"));
                assertEquals(CASResponse.EXISTS, b.cas("greeting", seen.getCas(), "hola"));
                assertEquals("bonjour", c.get("greeting"));

                assertTrue(a.set("n", 0, "41").get(10, TimeUnit.SECONDS));
                assertEquals(42, b.incr("n", 1));
                assertEquals(40, c.decr("n", 2));
                assertEquals(-1, a.incr("no-such-counter", 1));

                assertTrue(b.append(0, "greeting", " monde").get(10, TimeUnit.SECONDS));
                assertEquals("bonjour monde", a.get("greeting"));

                List<String> keys = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    keys.add("bulk-key-number-" + i);
                    assertTrue(clients.get(i % 3).set("bulk-key-number-" + i, 0, "v" + i).get(10, TimeUnit.SECONDS));
                }
                Map<String, Object> bulk = b.getBulk(keys);
                assertEquals(300, bulk.size());
                for (int i = 0; i < 300; i++) {
                    assertEquals("v" + i, bulk.get("bulk-key-number-" + i));
                }

                assertTrue(c.touch("fresh", 3600).get(10, TimeUnit.SECONDS));
                assertTrue(a.delete("fresh").get(10, TimeUnit.SECONDS));
                assertNull(b.get("fresh"));

                assertTrue(c.flush().get(10, TimeUnit.SECONDS));
                assertNull(a.get("greeting"));
                assertNull(b.get("bulk-key-number-7"));

                assertEquals(ThreeNodeMemcached.NODES, clients.stream()
                        .filter(x -> x.getVersions().values().stream().allMatch(v -> v.contains("remus"))).count());
            } finally {
                for (MemcachedClient client : clients) {
                    client.shutdown(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
