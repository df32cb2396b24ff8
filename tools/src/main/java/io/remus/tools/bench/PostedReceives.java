package io.remus.tools.bench;

/**
 * The receives of the SEND tests: each QP holds {@link BenchConnection#receiveDepth()} receives
 * into the lower half of its side's buffer, all at its start (as perftest's {@code ib_send_lat} posts
 * them; its {@code ib_send_bw} moves them on through a page, which ours cannot: a side posts its
 * receives once, for every message size), and
 * every receive that completes is posted again. A receive's work request id is
 * {@link #RECEIVE_ID} with the QP index in the low bits, so that one completion queue can carry
 * sends and receives apart.
 */
public final class PostedReceives {
    /** The bit that marks a receive's work request id. */
    public static final long RECEIVE_ID = 1L << 62;
    private static final long QP_MASK = 0xffff;

    private PostedReceives() {
    }

    /** @return whether {@code wrId} is a receive's */
    public static boolean isReceive(long wrId) {
        return (wrId & RECEIVE_ID) != 0;
    }

    /**
     * Posts {@link BenchConnection#receiveDepth()} receives on every QP.
     *
     * @param c one side, with nothing posted yet
     * @throws BenchFailedException when the connection holds no receives
     */
    public static void fill(BenchConnection c) {
        int depth = c.receiveDepth();
        if (depth < 1) {
            throw new BenchFailedException("SEND tests need receives posted, and this connection holds none");
        }
        for (int qp = 0; qp < c.queuePairs(); qp++) {
            for (int i = 0; i < depth; i++) {
                c.receive(qp, 0, length(c), RECEIVE_ID | qp);
            }
        }
    }

    /**
     * Posts again the receive that completed with {@code wrId}.
     *
     * @param c    the side it completed on
     * @param wrId a receive's id, as {@link #isReceive(long)} says
     */
    public static void repost(BenchConnection c, long wrId) {
        c.receive((int) (wrId & QP_MASK), 0, length(c), wrId);
    }

    private static int length(BenchConnection c) {
        return (int) Math.min(Integer.MAX_VALUE, c.bufferBytes() / 2);
    }
}
