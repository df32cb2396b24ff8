package io.remus.memcached;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text protocol, command by command, over one {@link ItemTable} with a clock the test moves. */
class ProtocolSessionTest {
    private static final int ITEM = 100;
    private final AtomicLong now = new AtomicLong(1_700_000_000L);
    private final TableEngine engine = new TableEngine(now::get, ITEM);
    private final ProtocolSession session = new ProtocolSession(engine, new ServerStats(now.get()), now::get);
    private final ByteBuffer in = ByteBuffer.allocate(ProtocolSession.inputCapacity(engine));
    private boolean open = true;

    /** Feeds bytes in reads of at most what the input buffer has room for and returns what the session answered. */
    private String send(String text) {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private String send(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int done = 0;
        do {
            int n = Math.min(in.remaining(), bytes.length - done);
            in.put(bytes, done, n);
            done += n;
            in.flip();
            open = session.process(in, out);
            in.compact();
        } while (done < bytes.length && open);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void shouldStoreAndGetWithFlagsAndCas() {
        assertEquals("STORED\r\n", send("set k 4294967295 0 5\r\nhello\r\n"));
        assertEquals("VALUE k 4294967295 5\r\nhello\r\nEND\r\n", send("get k\r\n"));
        String gets = send("gets k\r\n");
        assertTrue(gets.startsWith("VALUE k 4294967295 5 "), gets);
        String cas = gets.substring("VALUE k 4294967295 5 ".length(), gets.indexOf("\r\n"));
        assertEquals("STORED\r\n", send("cas k 1 0 2 " + cas + "\r\nhi\r\n"));
        assertEquals("EXISTS\r\n", send("cas k 1 0 2 " + cas + "\r\nho\r\n"));
        assertEquals("NOT_FOUND\r\n", send("cas nokey 1 0 2 " + cas + "\r\nho\r\n"));
        assertEquals("VALUE k 1 2\r\nhi\r\nEND\r\n", send("get k\r\n"));
    }

    @Test
    void shouldRunAddReplaceAppendPrepend() {
        assertEquals("NOT_STORED\r\n", send("replace k 0 0 1\r\na\r\n"));
        assertEquals("NOT_STORED\r\n", send("append k 0 0 1\r\na\r\n"));
        assertEquals("STORED\r\n", send("add k 7 0 1\r\nb\r\n"));
        assertEquals("NOT_STORED\r\n", send("add k 0 0 1\r\nc\r\n"));
        assertEquals("STORED\r\n", send("append k 0 0 1\r\nc\r\n"));
        assertEquals("STORED\r\n", send("prepend k 0 0 1\r\na\r\n"));
        assertEquals("VALUE k 7 3\r\nabc\r\nEND\r\n", send("get k\r\n"));
        assertEquals("STORED\r\n", send("replace k 8 0 1\r\nz\r\n"));
        assertEquals("VALUE k 8 1\r\nz\r\nEND\r\n", send("get k\r\n"));
    }

    @Test
    void shouldAnswerManyKeysInOneGet() {
        send("set a 0 0 1\r\n1\r\nset c 0 0 1\r\n3\r\n");
        assertEquals("VALUE a 0 1\r\n1\r\nVALUE c 0 1\r\n3\r\nEND\r\n", send("get a b c\r\n"));
    }

    @Test
    void shouldAnswerAGetLineLongerThanTheLineLimitKeyByKey() {
        send("set a 0 0 1\r\n1\r\n");
        String line = "get " + "a ".repeat(1500) + "\r\n";
        String answer = send(line);
        assertTrue(open);
        assertEquals(1500, answer.split("VALUE a 0 1\r\n1\r\n", -1).length - 1);
        assertTrue(answer.endsWith("END\r\n"), answer);
        assertEquals("VERSION " + ProtocolSession.VERSION + "\r\n", send("version\r\n"));
    }

    @Test
    void shouldDeleteIncrDecrAndTouch() {
        send("set n 0 0 2\r\n10\r\n");
        assertEquals("15\r\n", send("incr n 5\r\n"));
        assertEquals("0\r\n", send("decr n 100\r\n"));
        send("set n 0 0 20\r\n18446744073709551615\r\n");
        assertEquals("0\r\n", send("incr n 1\r\n"));
        assertEquals("NOT_FOUND\r\n", send("incr nokey 1\r\n"));
        send("set s 0 0 2\r\nab\r\n");
        assertEquals("CLIENT_ERROR cannot increment or decrement non-numeric value\r\n", send("incr s 1\r\n"));
        assertEquals("CLIENT_ERROR invalid numeric delta argument\r\n", send("incr n -1\r\n"));
        assertEquals("TOUCHED\r\n", send("touch n 10\r\n"));
        assertEquals("NOT_FOUND\r\n", send("touch nokey 10\r\n"));
        assertEquals("CLIENT_ERROR invalid exptime argument\r\n", send("touch n x\r\n"));
        assertEquals("DELETED\r\n", send("delete n\r\n"));
        assertEquals("NOT_FOUND\r\n", send("delete n 0\r\n"));
        assertEquals("CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n", send("delete n 5\r\n"));
        assertEquals("ERROR\r\n", send("delete\r\n"));
    }

    @Test
    void shouldAnswerNothingForNoreplyCommands() {
        String all = send("set k 0 0 1 noreply\r\n1\r\nadd k 0 0 1 noreply\r\n2\r\nincr k 2 noreply\r\n"
                + "touch k 0 noreply\r\nappend k 0 0 1 noreply\r\n0\r\nincr s x noreply\r\n"
                + "set big 0 0 1000 noreply\r\n" + "x".repeat(1000) + "\r\nverbosity 1 noreply\r\n");
        assertEquals("", all);
        assertEquals("VALUE k 0 2\r\n30\r\nEND\r\n", send("get k\r\n"));
        assertEquals("", send("delete k noreply\r\nflush_all noreply\r\n"));
        assertEquals("END\r\n", send("get k\r\n"));
    }

    @Test
    void shouldExpireRelativeAbsoluteAndNegativeTimesLazily() {
        send("set rel 0 100 1\r\nr\r\n");
        send("set abs 0 " + (now.get() + 50) + " 1\r\na\r\n");
        send("set past 0 " + (now.get() - 1) + " 1\r\np\r\n");
        assertEquals("STORED\r\n", send("set neg 0 -1 1\r\nn\r\n"));
        send("set never 0 0 1\r\nv\r\n");
        assertEquals("VALUE rel 0 1\r\nr\r\nVALUE abs 0 1\r\na\r\nVALUE never 0 1\r\nv\r\nEND\r\n",
                send("get rel abs past neg never\r\n"));
        now.addAndGet(50);
        assertEquals("VALUE rel 0 1\r\nr\r\nEND\r\n", send("get rel abs\r\n"));
        assertEquals(2, engine.table.size(), "abs was dropped when the get found it expired; rel and never stay");
        now.addAndGet(50);
        assertEquals("END\r\n", send("get rel\r\n"));
        assertEquals("STORED\r\n", send("add rel 0 0 1\r\nR\r\n"));
        send("touch never 10\r\n");
        now.addAndGet(10);
        assertEquals("END\r\n", send("get never\r\n"));
        send("set f 0 0 1\r\nf\r\n");
        assertEquals("OK\r\n", send("flush_all 5\r\n"));
        assertEquals("VALUE f 0 1\r\nf\r\nEND\r\n", send("get f\r\n"));
        now.addAndGet(5);
        assertEquals("END\r\n", send("get f\r\n"));
    }

    @Test
    void shouldAnswerMemcachedsErrorLines() {
        String key251 = "k".repeat(251);
        assertEquals("ERROR\r\n", send("bogus\r\n"));
        assertEquals("ERROR\r\n", send("\r\n"));
        assertEquals("ERROR\r\n", send("get\r\n"));
        assertEquals("ERROR\r\n", send("set k 0 0\r\n"));
        assertEquals("CLIENT_ERROR bad command line format\r\n", send("get " + key251 + "\r\n"));
        assertEquals("CLIENT_ERROR bad command line format\r\nERROR\r\n", send("set " + key251 + " 0 0 1\r\nx\r\n"));
        assertEquals("CLIENT_ERROR bad command line format\r\nERROR\r\n", send("set k 0 0 abc\r\nx\r\n"));
        assertEquals("CLIENT_ERROR bad command line format\r\n", send("set k 0 0 -1\r\n"));
        assertEquals("CLIENT_ERROR bad command line format\r\nERROR\r\n", send("cas k 0 0 1 abc\r\nx\r\n"));
        assertEquals("CLIENT_ERROR bad data chunk\r\nERROR\r\n", send("set k 0 0 1\r\nxyz\r\n"));
        assertEquals("SERVER_ERROR object too large for cache\r\nSTORED\r\n",
                send("set k 0 0 " + (ITEM + 1) + "\r\n" + "x".repeat(ITEM + 1) + "\r\nset k 0 0 1\r\nx\r\n"));
        assertEquals("CLIENT_ERROR invalid exptime argument\r\n", send("flush_all x\r\n"));
        assertEquals("ERROR\r\n", send("stats noreply\r\n"));
        assertEquals("RESET\r\n", send("stats reset\r\n"));
        assertEquals("CLIENT_ERROR bad command line format\r\n", send("verbosity x\r\n"));
        assertEquals("ERROR\r\n", send("verbosity\r\n"));
        assertEquals("ERROR\r\n", send("gat 0 k\r\n"));
        assertTrue(open);
    }

    @Test
    void shouldDiscardAnOversizeValueAcrossReads() {
        int size = 10 * ITEM;
        assertEquals("SERVER_ERROR object too large for cache\r\n", send("set k 0 0 " + size + "\r\n" + "x".repeat(ITEM)));
        for (int i = 1; i < 10; i++) {
            assertEquals("", send("x".repeat(ITEM)));
        }
        assertEquals("STORED\r\n", send("\r\nset k 0 0 1\r\nx\r\n"));
    }

    @Test
    void shouldWaitForTheRestOfALineOrADataBlock() {
        assertEquals("", send("se"));
        assertEquals("", send("t k 0 0 5\r\nhel"));
        assertEquals("STORED\r\n", send("lo\r\n"));
        assertEquals("", send("get k"));
        assertEquals("VALUE k 0 5\r\nhello\r\nEND\r\n", send("\n"));
    }

    @Test
    void shouldCloseOnQuitAndOnALongLineThatIsNoGet() {
        send("quit\r\n");
        assertFalse(open);
        ProtocolSession other = new ProtocolSession(engine, new ServerStats(0), now::get);
        ByteBuffer b = ByteBuffer.wrap(("x".repeat(ServerConfig.MAX_LINE_BYTES)).getBytes(StandardCharsets.US_ASCII));
        assertFalse(other.process(b, new ByteArrayOutputStream()));
    }

    @Test
    void shouldAnswerErrorLinesForBinaryGarbage() {
        byte[] garbage = {(byte) 0x80, 0x01, 0x00, 0x05, (byte) 0xFF, 0x00, '\r', '\n', 0x7F, 0x13, '\n'};
        assertEquals("ERROR\r\nERROR\r\n", send(garbage));
        assertEquals("VERSION " + ProtocolSession.VERSION + "\r\n", send("version\r\n"));
    }

    @Test
    void shouldReportStats() {
        send("set k 0 0 1\r\nx\r\nget k nokey\r\n");
        String stats = send("stats\r\n");
        assertTrue(stats.contains("STAT cmd_get 2\r\n"), stats);
        assertTrue(stats.contains("STAT get_hits 1\r\n"), stats);
        assertTrue(stats.contains("STAT get_misses 1\r\n"), stats);
        assertTrue(stats.contains("STAT cmd_set 1\r\n"), stats);
        assertTrue(stats.contains("STAT item_size_max " + ITEM + "\r\n"), stats);
        assertTrue(stats.endsWith("END\r\n"), stats);
    }
}
