package io.remus.alock.queue;

/**
 * Layout of a queue node (MCS "qnode", ALock "descriptor"): {@value #SIZE} bytes,
 * {@value #SIZE}-byte aligned, on its owner's node, where the owner spins on it with CPU reads and
 * its neighbours in the queue store into it: by CPU from the same node, else by RDMA
 * compare-and-swap ({@link QueueLock#link}, {@link QueueLock#handOver}), never by RDMA WRITE, which
 * Soft-RoCE stores in pieces. The owner resets it by CPU before it queues, when no neighbour
 * can be storing into it, so CPU stores and NIC atomics never race on it.
 *
 * <pre>
 *  0        8        16       24                 64
 * +--------+--------+--------+-------------------+
 * | budget |  next  | parked |     (padding)     |
 * +--------+--------+--------+-------------------+
 * </pre>
 *
 * <p>{@code budget} is {@value #WAITING} while the owner waits, greater than 0 when the lock was
 * handed over within the cohort (that many passes are left), and 0 when the cohort's budget is
 * spent and the owner must re-arbitrate before entering. {@code next} is the successor's node
 * ({@link io.remus.core.RemotePtr}) or 0. {@code parked} is the owner's {@link ParkedWaiters} token while it
 * may be parked waiting for a hand-over by CPU store (ALock's local cohort), else 0: {@link QueueNodePool} zeroes
 * it once and every wait leaves it 0 (a wait that fails leaves its node out of the pool); only CPUs of the node
 * touch it.
 */
public final class QueueNode {
    /** Size and alignment. */
    public static final int SIZE = 64;
    /** Offset of the budget word. */
    public static final long BUDGET = 0;
    /** Offset of the next pointer. */
    public static final long NEXT = 8;
    /** Offset of the parked word. */
    public static final long PARKED = 16;
    /** Budget while waiting. */
    public static final long WAITING = -1;

    private QueueNode() {
    }
}
