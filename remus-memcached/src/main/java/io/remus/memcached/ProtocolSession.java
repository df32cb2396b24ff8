package io.remus.memcached;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One connection's side of memcached's text protocol (memcached's doc/protocol.txt): reads commands from an input
 * buffer, runs them on the engine and appends the responses to an output buffer. It keeps what a command needs
 * across reads (a storage command waiting for its data block, data being discarded), never more than the
 * input buffer holds: a line of at most {@link ServerConfig#MAX_LINE_BYTES} bytes, then a data block of at most
 * the engine's item size plus 2.
 *
 * <p>Commands run on the engine's non-blocking calls ({@link EngineCall}): a command that needs the engine is
 * started and its answer waits in a queue with every answer after it, so that the client reads its answers in the
 * order it sent the commands (memcached's pipelining) while the commands of one connection overlap. At most
 * {@code maxInFlight} engine calls (one per key of a get) wait in the queue; past that the session reads no more
 * commands until the answers ahead have been written. A call that fails (its trustee did not answer by the
 * command's deadline) is answered {@code SERVER_ERROR <reason>} in its place, and the connection reads on.
 */
final class ProtocolSession {
    /** How many engine calls a connection may have waiting for their answers, by default. */
    static final int MAX_IN_FLIGHT = 64;
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
    /** The answers not yet written, in command order. */
    private final ArrayDeque<Reply> replies = new ArrayDeque<>();
    /** Answers written with no engine call ahead of them, until they are queued. */
    private final ByteArrayOutputStream scratch = new ByteArrayOutputStream();
    /** Engine calls of the queued answers. */
    private int inFlight;
    private final int maxInFlight;
    /** Whether the connection is to close once its queued answers are written ({@code quit}, a line too long). */
    private boolean quitting;

    /** Renders a finished command's answer; a RuntimeException it throws is the command's failure. */
    @FunctionalInterface
    private interface Renderer {
        void render(ByteArrayOutputStream out);
    }

    /** An answer in the queue: bytes ready, or an engine call and how to render it once it finished. */
    private record Reply(byte[] bytes, EngineCall<?> call, Renderer renderer, boolean quiet, int weight) {
    }

    ProtocolSession(MemcachedEngine engine, ServerStats stats, LongSupplier clock) {
        this(engine, stats, clock, MAX_IN_FLIGHT);
    }

    ProtocolSession(MemcachedEngine engine, ServerStats stats, LongSupplier clock, int maxInFlight) {
        this.engine = engine;
        this.stats = stats;
        this.clock = clock;
        this.maxInFlight = maxInFlight;
    }

    /** {@return how many engine calls wait for their answers to be written} */
    int inFlight() {
        return inFlight;
    }

    /** {@return whether the session reads no more commands until answers ahead are written} */
    boolean full() {
        return inFlight >= maxInFlight;
    }

    /** {@return whether the session waits for engine calls, so that its connection must be polled} */
    boolean waiting() {
        return !replies.isEmpty();
    }

    /** Gives up every engine call of the queue (the connection closed). */
    void abandon() {
        for (Reply r : replies) {
            if (r.call() != null) {
                r.call().abandon();
            }
        }
        replies.clear();
        inFlight = 0;
    }

    /** Queues an answer that waits for {@code call}, after what was written so far. */
    private void defer(EngineCall<?> call, int weight, Renderer renderer) {
        queueScratch();
        replies.add(new Reply(null, call, renderer, quiet, weight));
        inFlight += weight;
    }

    private void queueScratch() {
        if (scratch.size() > 0) {
            replies.add(new Reply(scratch.toByteArray(), null, null, false, 0));
            scratch.reset();
        }
    }

    /**
     * Polls every queued engine call and writes the answers at the head of the queue that are ready.
     *
     * @param out where the answers go
     */
    void poll(ByteArrayOutputStream out) {
        queueScratch();
        while (!replies.isEmpty()) {
            Reply r = replies.peek();
            if (r.call() != null && !r.call().poll()) {
                break;
            }
            replies.poll();
            inFlight -= r.weight();
            if (r.bytes() != null) {
                out.writeBytes(r.bytes());
                continue;
            }
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            boolean current = quiet;
            quiet = r.quiet();
            try {
                r.renderer().render(answer);
            } catch (RuntimeException e) {
                answer.reset();
                reply(answer, "SERVER_ERROR " + oneLine(e));
            } finally {
                quiet = current;
            }
            out.writeBytes(answer.toByteArray());
        }
        for (Reply r : replies) {
            if (r.call() != null) {
                r.call().poll();
            }
        }
    }

    private static String oneLine(RuntimeException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replaceAll("[\\r\\n]+", " ");
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
     * Stops reading commands while {@code maxInFlight} engine calls wait; answers whatever is ready (see
     * {@link #poll}).
     *
     * @return false when the connection is to close, its answers all written: after {@code quit}, or a line
     *         longer than {@link ServerConfig#MAX_LINE_BYTES} bytes (memcached closes such a connection too)
     */
    boolean process(ByteBuffer in, ByteArrayOutputStream out) {
        poll(out);
        if (!quitting && !parse(in, scratch)) {
            quitting = true;
        }
        poll(out);
        return !(quitting && replies.isEmpty());
    }

    /** Runs commands of {@code in} while fewer than {@code maxInFlight} engine calls wait; false to close. */
    private boolean parse(ByteBuffer in, ByteArrayOutputStream out) {
        while (true) {
            if (inFlight >= maxInFlight) {
                return true;
            }
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
                        EngineCall<StoreResult> call = engine.storeAsync(pendingMode, pendingKey, pendingFlags,
                                pendingExptime, value, pendingCas);
                        defer(call, 1, o -> reply(o, call.result().name()));
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
                        values(keys, 0, getWithCas, out, true);
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
        getContinues = values(keys, 0, getWithCas, out, false);
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
        values(t, 1, withCas, out, true);
    }

    /**
     * Starts a get of each key of {@code keys} from index {@code from}, after checking every key's length, and
     * queues their VALUE blocks (and {@code END} when {@code last}).
     *
     * @return false when a key is too long (answered {@code CLIENT_ERROR bad command line format})
     */
    private boolean values(List<byte[]> keys, int from, boolean withCas, ByteArrayOutputStream out, boolean last) {
        for (int i = from; i < keys.size(); i++) {
            if (keys.get(i).length > MemcachedEngine.MAX_KEY_BYTES) {
                line(out, "CLIENT_ERROR bad command line format");
                return false;
            }
        }
        List<byte[]> wanted = List.copyOf(keys.subList(from, keys.size()));
        List<EngineCall<Item>> calls = new ArrayList<>(wanted.size());
        for (byte[] key : wanted) {
            stats.cmdGet.incrementAndGet();
            calls.add(engine.getAsync(key));
        }
        EngineCall<?> call = calls.size() == 1 ? calls.get(0) : EngineCall.all(calls);
        defer(call, Math.max(1, calls.size()), o -> {
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            for (int i = 0; i < wanted.size(); i++) {
                Item item = calls.get(i).result();
                if (item == null) {
                    stats.getMisses.incrementAndGet();
                    continue;
                }
                stats.getHits.incrementAndGet();
                byte[] key = wanted.get(i);
                answer.writeBytes("VALUE ".getBytes(StandardCharsets.US_ASCII));
                answer.writeBytes(key);
                String tail = " " + Integer.toUnsignedString(item.flags()) + " " + item.value().length
                        + (withCas ? " " + Long.toUnsignedString(item.cas()) : "");
                answer.writeBytes(tail.getBytes(StandardCharsets.US_ASCII));
                answer.writeBytes(CRLF);
                answer.writeBytes(item.value());
                answer.writeBytes(CRLF);
            }
            if (last) {
                line(answer, "END");
            }
            o.writeBytes(answer.toByteArray());
        });
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
        EngineCall<Boolean> call = engine.deleteAsync(t.get(1));
        defer(call, 1, o -> reply(o, call.result() ? "DELETED" : "NOT_FOUND"));
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
        EngineCall<ArithmeticResult> call = engine.arithmeticAsync(t.get(1), increment, delta);
        defer(call, 1, o -> {
            ArithmeticResult r = call.result();
            switch (r.status()) {
                case OK -> reply(o, Long.toUnsignedString(r.value()));
                case NOT_FOUND -> reply(o, "NOT_FOUND");
                case NON_NUMERIC -> reply(o, "CLIENT_ERROR cannot increment or decrement non-numeric value");
                default -> throw new IllegalStateException(r.status().name());
            }
        });
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
        EngineCall<Boolean> call = engine.touchAsync(t.get(1), exptime);
        defer(call, 1, o -> reply(o, call.result() ? "TOUCHED" : "NOT_FOUND"));
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
        EngineCall<Void> call = engine.flushAllAsync(delay);
        defer(call, 1, o -> {
            call.result();
            reply(o, "OK");
        });
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
