package io.remus.memcached;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One connection's side of memcached's text protocol (memcached's doc/protocol.txt): reads commands from an input
 * buffer, runs them on the engine and appends the responses to an output buffer. It keeps what a command needs
 * across reads (a storage command waiting for its data block, data being discarded), never more than the
 * input buffer holds: a line of at most {@link ServerConfig#MAX_LINE_BYTES} bytes, then a data block of at most
 * the engine's item size plus 2.
 */
final class ProtocolSession {
    /** The version {@code version} and {@code stats} report. */
    static final String VERSION = "1.6.0-remus";
    private static final byte[] CRLF = {'\r', '\n'};

    private enum State { LINE, DATA, SWALLOW, SKIP_LINE }

    private final MemcachedEngine engine;
    private final ServerStats stats;
    private final LongSupplier clock;
    private State state = State.LINE;
    private long swallow;
    private StoreMode pendingMode;
    private byte[] pendingKey;
    private int pendingFlags;
    private long pendingExptime;
    private int pendingBytes;
    private long pendingCas;
    private boolean pendingNoreply;
    /** Whether the current command took {@code noreply}: nothing it would answer is sent. */
    private boolean quiet;
    /** Whether a get line longer than the input buffer is being read key by key, and whether it is a gets. */
    private boolean getContinues;
    private boolean getWithCas;

    ProtocolSession(MemcachedEngine engine, ServerStats stats, LongSupplier clock) {
        this.engine = engine;
        this.stats = stats;
        this.clock = clock;
    }

    /** {@return the input buffer a connection needs: the longest line and the largest data block} */
    static int inputCapacity(MemcachedEngine engine) {
        return ServerConfig.MAX_LINE_BYTES + engine.maxItemBytes() + 2;
    }

    /**
     * Runs every complete command in {@code in} (between its position and limit), leaving the position after the
     * last byte consumed.
     *
     * @param in  the bytes read so far
     * @param out where the responses go
     * @return false when the connection is to close: after {@code quit}, or a line longer than
     *         {@link ServerConfig#MAX_LINE_BYTES} bytes (memcached closes such a connection too)
     */
    boolean process(ByteBuffer in, ByteArrayOutputStream out) {
        while (true) {
            switch (state) {
                case SWALLOW -> {
                    int n = (int) Math.min(swallow, in.remaining());
                    in.position(in.position() + n);
                    swallow -= n;
                    if (swallow > 0) {
                        return true;
                    }
                    state = State.LINE;
                }
                case DATA -> {
                    if (in.remaining() < pendingBytes + 2) {
                        return true;
                    }
                    byte[] value = new byte[pendingBytes];
                    in.get(value);
                    byte cr = in.get();
                    byte lf = in.get();
                    state = State.LINE;
                    quiet = pendingNoreply;
                    if (cr != '\r' || lf != '\n') {
                        reply(out, "CLIENT_ERROR bad data chunk");
                    } else {
                        stats.cmdSet.incrementAndGet();
                        StoreResult r = engine.store(pendingMode, pendingKey, pendingFlags, pendingExptime, value, pendingCas);
                        reply(out, r.name());
                    }
                    pendingKey = null;
                }
                case SKIP_LINE -> {
                    int end = indexOf(in, (byte) '\n', in.position());
                    if (end < 0) {
                        in.position(in.limit());
                        return true;
                    }
                    in.position(end + 1);
                    state = State.LINE;
                }
                case LINE -> {
                    int start = in.position();
                    int end = indexOf(in, (byte) '\n', start);
                    if (end < 0 || end - start >= ServerConfig.MAX_LINE_BYTES) {
                        if (in.remaining() < ServerConfig.MAX_LINE_BYTES) {
                            return true;
                        }
                        if (!partialGet(in, out)) {
                            return false;
                        }
                        continue;
                    }
                    int lineEnd = end > start && in.get(end - 1) == '\r' ? end - 1 : end;
                    byte[] line = new byte[lineEnd - start];
                    in.get(start, line);
                    in.position(end + 1);
                    if (getContinues) {
                        getContinues = false;
                        List<byte[]> keys = tokens(line);
                        if (values(keys, 0, getWithCas, out)) {
                            line(out, "END");
                        }
                        continue;
                    }
                    quiet = false;
                    if (!command(tokens(line), out)) {
                        return false;
                    }
                }
                default -> throw new IllegalStateException(state.name());
            }
        }
    }

    private static int indexOf(ByteBuffer in, byte b, int from) {
        for (int i = from; i < in.limit(); i++) {
            if (in.get(i) == b) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A line of {@link ServerConfig#MAX_LINE_BYTES} bytes or more without its end: a get or gets with many keys
     * is answered up to its last complete key (memcached reads such lines in pieces too); any other line closes
     * the connection, as memcached closes it.
     *
     * @return false when the connection is to close
     */
    private boolean partialGet(ByteBuffer in, ByteArrayOutputStream out) {
        int start = in.position();
        int limit = Math.min(in.limit(), start + ServerConfig.MAX_LINE_BYTES);
        int keysFrom = start;
        if (!getContinues) {
            String head = new String(bytes(in, start, Math.min(limit, start + 5)), StandardCharsets.ISO_8859_1);
            if (head.startsWith("get ")) {
                getWithCas = false;
                keysFrom = start + 4;
            } else if (head.startsWith("gets ")) {
                getWithCas = true;
                keysFrom = start + 5;
            } else {
                return false;
            }
        }
        int lastSpace = -1;
        for (int i = limit - 1; i >= keysFrom; i--) {
            if (in.get(i) == ' ') {
                lastSpace = i;
                break;
            }
        }
        List<byte[]> keys = lastSpace < 0 ? List.of() : tokens(bytes(in, keysFrom, lastSpace));
        if (lastSpace < 0) {
            getContinues = false;
            line(out, "CLIENT_ERROR bad command line format");
            state = State.SKIP_LINE;
            return true;
        }
        in.position(lastSpace + 1);
        getContinues = values(keys, 0, getWithCas, out);
        if (!getContinues) {
            state = State.SKIP_LINE;
        }
        return true;
    }

    private static byte[] bytes(ByteBuffer in, int from, int to) {
        byte[] b = new byte[to - from];
        in.get(from, b);
        return b;
    }

    /** Splits a line on spaces, as memcached does. */
    static List<byte[]> tokens(byte[] line) {
        List<byte[]> tokens = new ArrayList<>();
        int i = 0;
        while (i < line.length) {
            while (i < line.length && line[i] == ' ') {
                i++;
            }
            int from = i;
            while (i < line.length && line[i] != ' ') {
                i++;
            }
            if (i > from) {
                byte[] t = new byte[i - from];
                System.arraycopy(line, from, t, 0, t.length);
                tokens.add(t);
            }
        }
        return tokens;
    }

    private boolean command(List<byte[]> t, ByteArrayOutputStream out) {
        if (t.isEmpty()) {
            line(out, "ERROR");
            return true;
        }
        String name = ascii(t.get(0));
        int n = t.size();
        switch (name) {
            case "get", "gets" -> retrieve(t, name.equals("gets"), out);
            case "set" -> storage(StoreMode.SET, t, out);
            case "add" -> storage(StoreMode.ADD, t, out);
            case "replace" -> storage(StoreMode.REPLACE, t, out);
            case "append" -> storage(StoreMode.APPEND, t, out);
            case "prepend" -> storage(StoreMode.PREPEND, t, out);
            case "cas" -> storage(StoreMode.CAS, t, out);
            case "delete" -> delete(t, out);
            case "incr", "decr" -> arithmetic(t, name.equals("incr"), out);
            case "touch" -> touch(t, out);
            case "flush_all" -> flush(t, out);
            case "version" -> line(out, "VERSION " + VERSION);
            case "verbosity" -> verbosity(t, out);
            case "stats" -> stats(t, out);
            case "quit" -> {
                return false;
            }
            default -> line(out, "ERROR");
        }
        return true;
    }

    private void retrieve(List<byte[]> t, boolean withCas, ByteArrayOutputStream out) {
        if (t.size() < 2) {
            line(out, "ERROR");
            return;
        }
        if (values(t, 1, withCas, out)) {
            line(out, "END");
        }
    }

    /**
     * Answers a VALUE block for each live key of {@code keys} from index {@code from}, after checking every key's
     * length.
     *
     * @return false when a key is too long (answered {@code CLIENT_ERROR bad command line format})
     */
    private boolean values(List<byte[]> keys, int from, boolean withCas, ByteArrayOutputStream out) {
        for (int i = from; i < keys.size(); i++) {
            if (keys.get(i).length > MemcachedEngine.MAX_KEY_BYTES) {
                line(out, "CLIENT_ERROR bad command line format");
                return false;
            }
        }
        for (int i = from; i < keys.size(); i++) {
            byte[] key = keys.get(i);
            stats.cmdGet.incrementAndGet();
            Item item = engine.get(key);
            if (item == null) {
                stats.getMisses.incrementAndGet();
                continue;
            }
            stats.getHits.incrementAndGet();
            out.writeBytes("VALUE ".getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(key);
            String tail = " " + Integer.toUnsignedString(item.flags()) + " " + item.value().length
                    + (withCas ? " " + Long.toUnsignedString(item.cas()) : "");
            out.writeBytes(tail.getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(CRLF);
            out.writeBytes(item.value());
            out.writeBytes(CRLF);
        }
        return true;
    }

    private void storage(StoreMode mode, List<byte[]> t, ByteArrayOutputStream out) {
        int fields = mode == StoreMode.CAS ? 6 : 5;
        int n = t.size();
        boolean noreply = n == fields + 1 && isNoreply(t.get(fields));
        if (n != fields && !noreply) {
            line(out, "ERROR");
            return;
        }
        quiet = noreply;
        long flags = parseUnsigned(t.get(2));
        long exptime = parseSigned(t.get(3));
        long bytes = parseSigned(t.get(4));
        long cas = 0;
        boolean casValid = true;
        if (mode == StoreMode.CAS) {
            try {
                cas = ItemTable.parseUnsigned(t.get(5));
            } catch (NumberFormatException e) {
                casValid = false;
            }
        }
        if (t.get(1).length > MemcachedEngine.MAX_KEY_BYTES || flags < 0 || flags > 0xFFFF_FFFFL
                || exptime == Long.MIN_VALUE || bytes < 0 || bytes > Integer.MAX_VALUE - 2 || !casValid) {
            reply(out, "CLIENT_ERROR bad command line format");
            return;
        }
        if (bytes > engine.maxItemBytes()) {
            reply(out, "SERVER_ERROR object too large for cache");
            state = State.SWALLOW;
            swallow = bytes + 2;
            return;
        }
        state = State.DATA;
        pendingMode = mode;
        pendingKey = t.get(1);
        pendingFlags = (int) flags;
        pendingExptime = exptime;
        pendingBytes = (int) bytes;
        pendingCas = cas;
        pendingNoreply = noreply;
    }

    private void delete(List<byte[]> t, ByteArrayOutputStream out) {
        int n = t.size();
        boolean noreply = n > 2 && isNoreply(t.get(n - 1));
        int fields = noreply ? n - 1 : n;
        if (fields < 2 || fields > 3) {
            line(out, "ERROR");
            return;
        }
        quiet = noreply;
        if (fields == 3 && !ascii(t.get(2)).equals("0")) {
            reply(out, "CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]");
            return;
        }
        if (t.get(1).length > MemcachedEngine.MAX_KEY_BYTES) {
            reply(out, "CLIENT_ERROR bad command line format");
            return;
        }
        reply(out, engine.delete(t.get(1)) ? "DELETED" : "NOT_FOUND");
    }

    private void arithmetic(List<byte[]> t, boolean increment, ByteArrayOutputStream out) {
        int n = t.size();
        boolean noreply = n == 4 && isNoreply(t.get(3));
        if (n != 3 && !noreply) {
            line(out, "ERROR");
            return;
        }
        quiet = noreply;
        if (t.get(1).length > MemcachedEngine.MAX_KEY_BYTES) {
            reply(out, "CLIENT_ERROR bad command line format");
            return;
        }
        long delta;
        try {
            delta = ItemTable.parseUnsigned(t.get(2));
        } catch (NumberFormatException e) {
            reply(out, "CLIENT_ERROR invalid numeric delta argument");
            return;
        }
        ArithmeticResult r = engine.arithmetic(t.get(1), increment, delta);
        switch (r.status()) {
            case OK -> reply(out, Long.toUnsignedString(r.value()));
            case NOT_FOUND -> reply(out, "NOT_FOUND");
            case NON_NUMERIC -> reply(out, "CLIENT_ERROR cannot increment or decrement non-numeric value");
            default -> throw new IllegalStateException(r.status().name());
        }
    }

    private void touch(List<byte[]> t, ByteArrayOutputStream out) {
        int n = t.size();
        boolean noreply = n == 4 && isNoreply(t.get(3));
        if (n != 3 && !noreply) {
            line(out, "ERROR");
            return;
        }
        quiet = noreply;
        if (t.get(1).length > MemcachedEngine.MAX_KEY_BYTES) {
            reply(out, "CLIENT_ERROR bad command line format");
            return;
        }
        long exptime = parseSigned(t.get(2));
        if (exptime == Long.MIN_VALUE) {
            reply(out, "CLIENT_ERROR invalid exptime argument");
            return;
        }
        stats.cmdTouch.incrementAndGet();
        reply(out, engine.touch(t.get(1), exptime) ? "TOUCHED" : "NOT_FOUND");
    }

    private void flush(List<byte[]> t, ByteArrayOutputStream out) {
        int n = t.size();
        boolean noreply = n > 1 && isNoreply(t.get(n - 1));
        int fields = noreply ? n - 1 : n;
        if (fields > 2) {
            line(out, "ERROR");
            return;
        }
        quiet = noreply;
        long delay = 0;
        if (fields == 2) {
            delay = parseSigned(t.get(1));
            if (delay == Long.MIN_VALUE) {
                reply(out, "CLIENT_ERROR invalid exptime argument");
                return;
            }
        }
        stats.cmdFlush.incrementAndGet();
        engine.flushAll(delay);
        reply(out, "OK");
    }

    private void verbosity(List<byte[]> t, ByteArrayOutputStream out) {
        int n = t.size();
        boolean noreply = n > 1 && isNoreply(t.get(n - 1));
        int fields = noreply ? n - 1 : n;
        if (fields > 2 || (fields == 1 && !noreply)) {
            line(out, "ERROR");
            return;
        }
        quiet = noreply;
        if (fields == 2 && parseUnsigned(t.get(1)) < 0) {
            reply(out, "CLIENT_ERROR bad command line format");
            return;
        }
        reply(out, "OK");
    }

    private void stats(List<byte[]> t, ByteArrayOutputStream out) {
        if (t.size() == 2 && ascii(t.get(1)).equals("reset")) {
            stats.reset();
            line(out, "RESET");
            return;
        }
        if (t.size() > 1) {
            line(out, "ERROR");
            return;
        }
        long now = clock.getAsLong();
        stat(out, "pid", ProcessHandle.current().pid());
        stat(out, "uptime", Math.max(0, now - stats.startedAt));
        stat(out, "time", now);
        line(out, "STAT version " + VERSION);
        stat(out, "pointer_size", 64);
        stat(out, "threads", 1);
        stat(out, "curr_connections", stats.currConnections.get());
        stat(out, "total_connections", stats.totalConnections.get());
        stat(out, "rejected_connections", stats.rejectedConnections.get());
        stat(out, "cmd_get", stats.cmdGet.get());
        stat(out, "cmd_set", stats.cmdSet.get());
        stat(out, "cmd_flush", stats.cmdFlush.get());
        stat(out, "cmd_touch", stats.cmdTouch.get());
        stat(out, "get_hits", stats.getHits.get());
        stat(out, "get_misses", stats.getMisses.get());
        stat(out, "item_size_max", engine.maxItemBytes());
        line(out, "END");
    }

    private static void stat(ByteArrayOutputStream out, String name, long value) {
        line(out, "STAT " + name + " " + value);
    }

    /** Answers {@code text} unless the command took {@code noreply} (memcached then sends nothing, errors included). */
    private void reply(ByteArrayOutputStream out, String text) {
        if (!quiet) {
            line(out, text);
        }
    }

    private static void line(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(CRLF);
    }

    private static boolean isNoreply(byte[] token) {
        return ascii(token).equals("noreply");
    }

    private static String ascii(byte[] token) {
        return new String(token, StandardCharsets.ISO_8859_1);
    }

    /** A decimal number 0..Long.MAX_VALUE, or -1 when the token is not one. */
    private static long parseUnsigned(byte[] token) {
        if (token.length == 0 || token.length > 19) {
            return -1;
        }
        long v = 0;
        for (byte b : token) {
            if (b < '0' || b > '9') {
                return -1;
            }
            v = v * 10 + (b - '0');
        }
        return v < 0 ? -1 : v;
    }

    /** A decimal number that fits memcached's 32-bit signed field, or Long.MIN_VALUE when the token is not one. */
    private static long parseSigned(byte[] token) {
        boolean negative = token.length > 0 && token[0] == '-';
        long v = parseUnsigned(negative ? java.util.Arrays.copyOfRange(token, 1, token.length) : token);
        if (v < 0 || v > Integer.MAX_VALUE) {
            return Long.MIN_VALUE;
        }
        return negative ? -v : v;
    }
}
