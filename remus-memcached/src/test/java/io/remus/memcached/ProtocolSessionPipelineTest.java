package io.remus.memcached;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pipelining over an engine whose calls finish only when the test lets them: answers in command order, at most the
 * session's cap of calls in flight, and a failed call answered {@code SERVER_ERROR} in its place.
 */
class ProtocolSessionPipelineTest {
    private static final int CAP = 8;

    /** A table engine whose gets finish when released, failing when told to. */
    private static final class HeldEngine implements MemcachedEngine {
        final TableEngine table = new TableEngine(() -> 1_700_000_000L, 100);
        boolean released;
        boolean failing;
        int open;
        int mostOpen;

        @Override
        public EngineCall<Item> getAsync(byte[] key) {
            open++;
            mostOpen = Math.max(mostOpen, open);
            return new EngineCall<>() {
                boolean done;

                @Override
                public boolean poll() {
                    if (!done && released) {
                        done = true;
                        open--;
                    }
                    return done;
                }

                @Override
                public Item result() {
                    if (failing) {
                        throw new IllegalStateException("the trustee did not answer");
                    }
                    return table.get(key);
                }
            };
        }

        @Override
        public int maxItemBytes() {
            return table.maxItemBytes();
        }

        @Override
        public Item get(byte[] key) {
            return table.get(key);
        }

        @Override
        public StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
            return table.store(mode, key, flags, exptime, value, cas);
        }

        @Override
        public boolean delete(byte[] key) {
            return table.delete(key);
        }

        @Override
        public ArithmeticResult arithmetic(byte[] key, boolean increment, long delta) {
            return table.arithmetic(key, increment, delta);
        }

        @Override
        public boolean touch(byte[] key, long exptime) {
            return table.touch(key, exptime);
        }

        @Override
        public void flushAll(long delay) {
            table.flushAll(delay);
        }

        @Override
        public void close() {
            table.close();
        }
    }

    private final HeldEngine engine = new HeldEngine();
    private final ProtocolSession session = new ProtocolSession(engine, new ServerStats(0), () -> 1_700_000_000L, CAP);
    private final ByteBuffer in = ByteBuffer.allocate(ProtocolSession.inputCapacity(engine));
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private void feed(String text) {
        in.put(text.getBytes(StandardCharsets.ISO_8859_1));
        process();
    }

    private void process() {
        in.flip();
        assertTrue(session.process(in, out));
        in.compact();
    }

    private String answered() {
        String s = out.toString(StandardCharsets.ISO_8859_1);
        out.reset();
        return s;
    }

    @Test
    void shouldAnswerPipelinedCommandsInOrderWhenAnEarlierGetFinishesLast() {
        engine.table.store(StoreMode.SET, "a".getBytes(StandardCharsets.US_ASCII), 0, 0, "1".getBytes(StandardCharsets.US_ASCII), 0);
        feed("get a\r\nversion\r\nset b 0 0 1\r\n2\r\nget b\r\n");
        assertEquals("", answered(), "nothing may overtake the get ahead of it");
        assertEquals(2, engine.open);
        engine.released = true;
        process();
        assertEquals("VALUE a 0 1\r\n1\r\nEND\r\nVERSION " + ProtocolSession.VERSION + "\r\nSTORED\r\nVALUE b 0 1\r\n2\r\nEND\r\n",
                answered());
        assertEquals(0, session.inFlight());
    }

    @Test
    void shouldReadNoMoreCommandsThanTheCapWhileTheirAnswersWait() {
        int commands = 5 * CAP + 3;
        feed("get k\r\n".repeat(commands));
        assertEquals(CAP, engine.open);
        assertEquals(CAP, session.inFlight());
        assertTrue(session.full());
        assertEquals(("get k\r\n".length()) * (commands - CAP), in.position(), "the rest waits unread in the input");
        engine.released = true;
        int rounds = 0;
        StringBuilder all = new StringBuilder();
        while (all.length() < "END\r\n".length() * commands && rounds++ < 100) {
            process();
            all.append(answered());
        }
        assertEquals("END\r\n".repeat(commands), all.toString());
        assertEquals(CAP, engine.mostOpen);
        assertEquals(0, in.position());
    }

    @Test
    void shouldAnswerAFailedCallServerErrorAndServeTheNextCommand() {
        engine.failing = true;
        feed("get a b\r\nversion\r\n");
        engine.released = true;
        process();
        assertEquals("SERVER_ERROR the trustee did not answer\r\nVERSION " + ProtocolSession.VERSION + "\r\n", answered());
        engine.failing = false;
        feed("get a\r\n");
        assertEquals("END\r\n", answered());
    }
}
