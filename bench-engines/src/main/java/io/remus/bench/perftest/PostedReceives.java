package io.remus.bench.perftest;

import java.util.Arrays;

/**
 * The receives of the SEND tests: each QP holds {@link BenchConnection#receiveDepth()} receives in
 * the lower half of its side's buffer, and every receive that completes is posted again. A
 * receive's work request id is {@link #RECEIVE_ID} with the QP index in the low bits, so that one
 * completion queue can carry sends and receives apart.
 * <p>
 * Where the receives go is perftest's: {@link #atStart} posts every receive at the buffer's start,
 * as {@code ib_send_lat} does; {@link #cycling} gives each QP its own part of the lower half (as
 * {@link Bandwidth} does for the sending side) and, while messages are at most half of
 * {@link Bandwidth#CYCLE_BYTES}, moves each QP's next receive on by the message size rounded up to
 * a cache line, back to the part's start after a cycle, as {@code ib_send_bw}'s server does. Unlike
 * perftest's server, which posts exactly the receives a size needs, ours keeps every receive posted
 * from one size to the next, so a receive posted for a small message may take the first messages
 * of a larger one: every receive is posted with room for the largest message of the run, and the
 * cycle is shortened where the part has no such room past it ({@link Bandwidth#bufferBytes(int, int,
 * boolean)} gives SEND bandwidth runs a whole cycle more per part, so it is not shortened there).
 * <p>
 * Not thread-safe: one thread posts a side's receives.
 */
public final class PostedReceives {
    /** The bit that marks a receive's work request id. */
    public static final long RECEIVE_ID = 1L << 62;
    private static final long QP_MASK = 0xffff;

    private final BenchConnection c;
    private final boolean cycles;
    private final long part;
    private final long largest;
    private final long[] cursor;
    private long increment;
    private long cycle;

    private PostedReceives(BenchConnection c, boolean cycles, long part, long largest) {
        this.c = c;
        this.cycles = cycles;
        this.part = part;
        this.largest = largest;
        this.cursor = new long[c.queuePairs()];
    }

    /**
     * Receives that all go to the start of the buffer's lower half, each with room for all of it
     * ({@code ib_send_lat}'s).
     *
     * @param c one side
     * @return its receives, none posted yet
     */
    public static PostedReceives atStart(BenchConnection c) {
        long half = c.bufferBytes() / 2;
        return new PostedReceives(c, false, half, half);
    }

    /**
     * Receives that cycle through each QP's part of the buffer's lower half ({@code ib_send_bw}'s
     * server). Until {@link #messagesOf(int)} names a size they do not move.
     *
     * @param c           one side
     * @param largestSize the largest message of the run: every receive has room for it
     * @return its receives, none posted yet
     * @throws IllegalArgumentException if a QP's part cannot hold the largest message
     */
    public static PostedReceives cycling(BenchConnection c, int largestSize) {
        return new PostedReceives(c, true, Bandwidth.queuePairRegion(c, largestSize), largestSize);
    }

    /** @return whether {@code wrId} is a receive's */
    public static boolean isReceive(long wrId) {
        return (wrId & RECEIVE_ID) != 0;
    }

    /**
     * Says which message size comes next: the receives posted from now on cycle for it, every QP's
     * from its part's start. Receives posted before stay where they are. Does nothing for
     * {@link #atStart} receives.
     *
     * @param size the message size, at most the largest given to {@link #cycling}
     * @throws IllegalArgumentException if {@code size} is larger than that
     */
    public void messagesOf(int size) {
        if (!cycles) {
            return;
        }
        if (size > largest) {
            throw new IllegalArgumentException("messages of " + size + " bytes, but the receives were set up for at most "
                    + largest);
        }
        long step = Bandwidth.cycleStep(size, Bandwidth.CYCLE_BYTES);
        // the last receive of a cycle starts at (cycle - step) and needs room for the largest message
        this.increment = step;
        this.cycle = Bandwidth.cycleLength(step, Math.min(Bandwidth.CYCLE_BYTES, part - largest + step));
        Arrays.fill(cursor, 0);
    }

    /**
     * Posts {@link BenchConnection#receiveDepth()} receives on every QP.
     *
     * @throws BenchFailedException when the connection holds no receives
     */
    public void fill() {
        int depth = c.receiveDepth();
        if (depth < 1) {
            throw new BenchFailedException("SEND tests need receives posted, and this connection holds none");
        }
        for (int qp = 0; qp < c.queuePairs(); qp++) {
            for (int i = 0; i < depth; i++) {
                post(qp, RECEIVE_ID | qp);
            }
        }
    }

    /**
     * Posts again, on its QP, the receive that completed with {@code wrId}.
     *
     * @param wrId a receive's id, as {@link #isReceive(long)} says
     */
    public void repost(long wrId) {
        post((int) (wrId & QP_MASK), wrId);
    }

    /**
     * Posts one receive of QP {@code qp} at its cursor, for the largest message (not to its part's end: a
     * device refuses a receive longer than its largest message), and moves the cursor on.
     */
    private void post(int qp, long wrId) {
        long at = cursor[qp];
        if (cycle > increment) {
            long next = at + increment;
            cursor[qp] = next == cycle ? 0 : next;
        }
        long start = cycles ? qp * part : 0;
        c.receive(qp, start + at, (int) Math.min(Integer.MAX_VALUE, largest), wrId);
    }
}
