package io.remus.alock.asymmetric;

/**
 * Layout of ALock's {@link io.remus.alock.LockWord} on the home node.
 *
 * <pre>
 *  0          8          16         24                    64
 * +----------+----------+----------+---------------------+
 * |  r_tail  |  l_tail  |  victim  |      (padding)      |
 * +----------+----------+----------+---------------------+
 * </pre>
 *
 * <p>{@code r_tail}: the remote cohort's MCS tail, changed only by RDMA compare-and-swap (read by
 * the home node's CPU, which is atomic with them). {@code l_tail}: the local cohort's MCS tail,
 * changed only by CPU atomics of home-node threads (read by RDMA, which is atomic with them).
 * {@code victim}: Peterson's turn word, only ever stored whole ({@link #LOCAL} by a CPU store,
 * {@link #REMOTE} by an RDMA write) and read. Tails hold a queue node pointer or 0.
 */
public final class ALockWord {
    /** Offset of the remote cohort's tail. */
    public static final long R_TAIL = 0;
    /** Offset of the local cohort's tail. */
    public static final long L_TAIL = 8;
    /** Offset of the Peterson victim word. */
    public static final long VICTIM = 16;
    /** Victim value: the local cohort yields. */
    public static final long LOCAL = 1;
    /** Victim value: the remote cohort yields. */
    public static final long REMOTE = 2;

    private ALockWord() {
    }
}
