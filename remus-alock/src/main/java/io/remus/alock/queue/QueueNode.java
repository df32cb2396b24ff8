package io.remus.alock.queue;

/**
 * Layout of a queue node (MCS "qnode", ALock "descriptor"): {@value #SIZE} bytes,
 * {@value #SIZE}-byte aligned, on its owner's node, where the owner spins on it with CPU reads and
 * its neighbours in the queue change it with atomics of one kind: CPU atomics where the whole queue lives on
 * one node and only its CPUs touch it (ALock's local cohort), RDMA compare-and-swap otherwise (MCS, ALock's
 * remote cohort), through loopback from the owner's own node too, never by RDMA WRITE, which Soft-RoCE stores in
 * pieces. The owner resets it by CPU before it queues, when no neighbour can be touching it, so CPU stores and
 * NIC atomics never race on it. {@link io.remus.alock.mcs.QueueLock} describes the protocol.
 *
 * <pre>
 *  0        8        16       24                 64
 * +--------+--------+--------+-------------------+
 * | budget |  next  | parked |     (padding)     |
 * +--------+--------+--------+-------------------+
 * </pre>
 *
 * <p>{@code budget} is {@value #WAITING} while the owner waits, greater than 0 when the lock was
 * handed over within the cohort (that many passes are left), 0 when the cohort's budget is
 * spent and the owner must re-arbitrate before entering, {@value #ABANDONED} once the owner gave up waiting,
 * and {@value #PASSED} once a releaser went past the abandoned node and no longer touches it. {@code next} is
 * the successor's node ({@link io.remus.core.memory.RemotePtr}) or 0, or {@value #RELEASED} when the lock was passed
 * on from this node before its successor linked, and {@value #ACKNOWLEDGED} once that successor found it so
 * (neither is a node pointer: those are {@value #SIZE}-byte aligned and not null). {@code parked} is the owner's
 * {@link ParkedWaiters} token while it may be parked waiting for a hand-over by CPU store (ALock's local cohort),
 * else 0: {@link QueueNodePool} zeroes it once and every wait leaves it 0; only CPUs of the node touch it.
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
    /** Budget once the owner gave up waiting: whoever passes the lock on goes past the node. */
    public static final long ABANDONED = -2;
    /** Budget of an abandoned node once the lock went past it: no one touches the node any more. */
    public static final long PASSED = -3;
    /** Next of a node the lock was passed on from before its successor linked: the successor owns the lock. */
    public static final long RELEASED = 1;
    /** Next of a {@link #RELEASED} node once its successor found it so: no one touches the node any more. */
    public static final long ACKNOWLEDGED = 2;

    private QueueNode() {
    }
}
