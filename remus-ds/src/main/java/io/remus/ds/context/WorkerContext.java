package io.remus.ds.context;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.error.ClosedComputeThreadException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;

import java.util.Objects;

/**
 * What one application thread (a worker) needs to use the cluster, opened together and closed together: its own
 * {@link ComputeThread}, the {@link EpochReclaimer} its lock-free structures retire into, and its
 * {@link LockContext} for remus-alock's locks, made on the first {@link #locks()} call. Confined to one Java thread,
 * like the compute thread it owns: the thread that {@linkplain #open(RemusNode) opens} it, since opening the
 * reclaimer is the compute thread's first operation.
 *
 * {@snippet :
 * try (WorkerContext w = WorkerContext.open(node)) {   // on the worker's own Java thread
 *     ComputeThread t = w.thread();
 *     LockFreeSkipListSet set = LockFreeSkipListSet.attach(t, w.reclaimer(), setPtr);
 *     ...
 * }   // the reclaimer, then the compute thread
 * }
 *
 * <p><b>Closing.</b> {@link #close()} closes the reclaimer first (its last passes and the release of its slot
 * go through the compute thread), then the compute thread. The lock context has no close: it holds an owner id and,
 * once a queue lock (MCS, ALock) took a node from it, a pool of queue nodes in registered memory of this node, which
 * stays allocated after the worker closes, as it does when a {@link LockContext} is simply dropped (a neighbour
 * in a lock's queue may still write into a node, so it is never handed back). A worker that never calls
 * {@link #locks()} creates no lock context, and one whose locks are all spin locks allocates no pool.
 *
 * <p><b>Confinement.</b> Every method but {@link #isClosed()} checks that it runs on the owning Java thread and
 * throws {@link ThreadConfinementException} otherwise, before anything changes; after {@link #close()} the
 * accessors throw {@link ClosedComputeThreadException}, and a second {@code close()} returns at once. Close on the
 * owning Java thread (try-with-resources does): the reclaimer's last pass needs the compute thread, which serves
 * only its owner.
 *
 * <p><b>RDMA operations.</b> Opening: the reclaimer's (a few READs and a compare-and-swap to find its table and
 * claim a slot, see {@link EpochReclaimer#EpochReclaimer(ComputeThread, io.remus.core.RemoteAllocator, EpochOptions)});
 * the compute thread connects its queue pairs on first use. The accessors: none. Closing: up to three reclamation
 * passes while retired blocks remain, one compare-and-swap to give the slot back, and the compute thread's
 * close (its allocator's cached blocks go back to the memory nodes' pools).
 */
public final class WorkerContext implements AutoCloseable {
    private final ComputeThread thread;
    private final EpochReclaimer reclaimer;
    private final LockOptions lockOptions;
    private LockContext locks;
    private volatile boolean closed;

    private WorkerContext(ComputeThread thread, EpochReclaimer reclaimer, LockOptions lockOptions) {
        this.thread = thread;
        this.reclaimer = reclaimer;
        this.lockOptions = lockOptions;
    }

    /**
     * Opens a worker on a node with {@link EpochOptions#defaults()} and {@link LockOptions#defaults()}: a new
     * compute thread ({@link RemusNode#newComputeThread()}) and its reclaimer, bound to the calling Java thread.
     *
     * @param node a compute node of this process
     * @return the worker, to close on the calling Java thread
     * @throws NullPointerException                       when {@code node} is null
     * @throws io.remus.core.error.BadArgumentException   when {@code node} is not a compute node, or the
     *                                                    reclaimer's table does not fit the thread's buffer
     * @throws io.remus.core.error.AllocationExhaustedException when the node's reclaimer table has no free slot
     */
    public static WorkerContext open(RemusNode node) {
        return open(node, EpochOptions.defaults(), LockOptions.defaults());
    }

    /**
     * Opens a worker on a node: a new compute thread ({@link RemusNode#newComputeThread()}) and its reclaimer,
     * bound to the calling Java thread. When the reclaimer cannot be opened the compute thread is closed again
     * and the failure thrown.
     *
     * @param node         a compute node of this process
     * @param epochOptions the reclaimer's lease, clock and limits
     * @param lockOptions  the lock context's knobs, used when {@link #locks()} first makes it
     * @return the worker, to close on the calling Java thread
     * @throws NullPointerException                       when an argument is null (before a thread is created)
     * @throws io.remus.core.error.BadArgumentException   when {@code node} is not a compute node, or the
     *                                                    reclaimer's table does not fit the thread's buffer
     * @throws io.remus.core.error.AllocationExhaustedException when the node's reclaimer table has no free slot
     */
    public static WorkerContext open(RemusNode node, EpochOptions epochOptions, LockOptions lockOptions) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(epochOptions, "epochOptions");
        Objects.requireNonNull(lockOptions, "lockOptions");
        return open(node.newComputeThread(), epochOptions, lockOptions);
    }

    /**
     * Opens a worker on a cluster's node with {@link EpochOptions#defaults()} and {@link LockOptions#defaults()}: a
     * new compute thread ({@link RemusCluster#newComputeThread()}, not the cluster's own) and its reclaimer, bound to
     * the calling Java thread. Close it before the cluster.
     *
     * @param cluster this process's node of a cluster, a compute node
     * @return the worker, to close on the calling Java thread
     * @throws NullPointerException                       when {@code cluster} is null
     * @throws io.remus.core.error.BadArgumentException   when the node is not a compute node, or the reclaimer's
     *                                                    table does not fit the thread's buffer
     * @throws io.remus.core.error.AllocationExhaustedException when the node's reclaimer table has no free slot
     */
    public static WorkerContext open(RemusCluster cluster) {
        return open(cluster, EpochOptions.defaults(), LockOptions.defaults());
    }

    /**
     * Opens a worker on a cluster's node: a new compute thread ({@link RemusCluster#newComputeThread()}, not the
     * cluster's own) and its reclaimer, bound to the calling Java thread. Close it before the cluster.
     *
     * @param cluster      this process's node of a cluster, a compute node
     * @param epochOptions the reclaimer's lease, clock and limits
     * @param lockOptions  the lock context's knobs, used when {@link #locks()} first makes it
     * @return the worker, to close on the calling Java thread
     * @throws NullPointerException                       when an argument is null (before a thread is created)
     * @throws io.remus.core.error.BadArgumentException   when the node is not a compute node, or the reclaimer's
     *                                                    table does not fit the thread's buffer
     * @throws io.remus.core.error.AllocationExhaustedException when the node's reclaimer table has no free slot
     */
    public static WorkerContext open(RemusCluster cluster, EpochOptions epochOptions, LockOptions lockOptions) {
        return open(Objects.requireNonNull(cluster, "cluster").node(), epochOptions, lockOptions);
    }

    private static WorkerContext open(ComputeThread thread, EpochOptions epochOptions, LockOptions lockOptions) {
        EpochReclaimer reclaimer;
        try {
            reclaimer = new EpochReclaimer(thread, epochOptions);
        } catch (RuntimeException | Error e) {
            try {
                thread.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new WorkerContext(thread, reclaimer, lockOptions);
    }

    /**
     * {@return the worker's compute thread, closed by {@link #close()}: not to be closed by itself}
     * @throws ThreadConfinementException   when called from another Java thread than the owner
     * @throws ClosedComputeThreadException when the worker is closed
     */
    public ComputeThread thread() {
        requireOpen();
        return thread;
    }

    /**
     * {@return the worker's reclaimer, over {@link #thread()} and its allocator, closed by {@link #close()}}
     * @throws ThreadConfinementException   when called from another Java thread than the owner
     * @throws ClosedComputeThreadException when the worker is closed
     */
    public EpochReclaimer reclaimer() {
        requireOpen();
        return reclaimer;
    }

    /**
     * {@return the worker's lock context over {@link #thread()}, made on the first call, the same one on every
     *          call} Making it costs no RDMA operation and no registered memory (see the class description for
     *          the queue-node pool a queue lock takes from it).
     * @throws ThreadConfinementException   when called from another Java thread than the owner
     * @throws ClosedComputeThreadException when the worker is closed
     */
    public LockContext locks() {
        requireOpen();
        if (locks == null) {
            locks = new LockContext(thread, lockOptions);
        }
        return locks;
    }

    /** {@return whether {@link #locks()} made the lock context, for tests} */
    boolean locksMade() {
        return locks != null;
    }

    /** {@return whether {@link #close()} ran; from any Java thread} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the reclaimer (its last passes free what they safely can, and it gives its slot back), then the
     * compute thread. The compute thread is closed even when the reclaimer's close fails (it is refused inside an
     * open guard, or a memory node does not answer); that failure is thrown afterwards, with the thread's own
     * failure, if any, suppressed in it. Idempotent: a later call returns at once, from any Java thread.
     *
     * @throws ThreadConfinementException when called from another Java thread than the owner while open (nothing
     *                                    is closed)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        thread.checkOwnerThread();
        closed = true;
        RuntimeException failure = null;
        try {
            reclaimer.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            thread.close();
        } catch (RuntimeException e) {
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void requireOpen() {
        thread.checkOwnerThread();
        if (closed) {
            throw new ClosedComputeThreadException("the worker context of compute node " + thread.nodeId()
                    + " is closed");
        }
    }
}
