package io.remus.ds.reclaim;

import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.error.RemoteTimeoutException;

import java.util.Objects;

/**
 * Remus' reclamation: a retired block waits on its thread's list until the thread's next
 * {@link #reclaim()}, which meets every other thread at a cluster-wide {@link ClusterBarrier} and
 * then frees the blocks retired before it (into this thread's allocator). The baseline that the
 * other reclaimers are compared against.
 *
 * <p><b>Safe:</b> every thread calls {@link #reclaim()} outside its guards, so when the barrier
 * releases, each thread has closed every guard it opened before the blocks were retired (they were
 * retired before their retirer arrived), and every guard opened since began after the blocks were
 * unlinked. Every compute thread of the barrier must call {@link #reclaim()} equally often (it is
 * the barrier's round). The guard is always {@link Guard#valid()}.
 *
 * <p><b>Unreclaimed memory:</b> everything a thread retires between two barriers, without bound;
 * a thread that never reaches the barrier (stalled, dead) stops all reclamation, and the others
 * fail with {@link RemoteTimeoutException} after the barrier's timeout.
 *
 * <p><b>RDMA operations:</b> none per enter, exit and retire; per {@link #reclaim()}, the barrier's
 * (one compare-and-swap to arrive, usually, then READs of the barrier word until released) and the
 * allocator's per freed block. <b>Progress:</b> enter, exit and retire are wait-free;
 * {@link #reclaim()} blocks until every thread arrived, up to the barrier's timeout.
 */
public final class BarrierReclaimer extends ListReclaimer {
    private final RemoteAllocator allocator;
    private final ClusterBarrier barrier;
    private final NeverReclaimer.PlainGuard guard;

    /**
     * A reclaimer whose barrier counts every compute thread of the cluster
     * ({@code computeNodes x threadsPerNode}), freeing with the thread's own {@link ComputeThread#allocator()}:
     * the constructor to use.
     *
     * @param thread the calling thread's compute thread
     * @throws NullPointerException when {@code thread} is null
     */
    public BarrierReclaimer(ComputeThread thread) {
        this(thread, Objects.requireNonNull(thread, "thread").allocator());
    }

    /**
     * A reclaimer whose passes meet at a given barrier, freeing with the thread's own
     * {@link ComputeThread#allocator()}.
     *
     * @param thread  the calling thread's compute thread
     * @param barrier the barrier every participating thread meets at in {@link #reclaim()} (this thread's)
     * @throws NullPointerException when {@code thread} or {@code barrier} is null
     */
    public BarrierReclaimer(ComputeThread thread, ClusterBarrier barrier) {
        this(thread, ownAllocator(thread, barrier), barrier);
    }

    /**
     * A reclaimer whose barrier counts every compute thread of the cluster
     * ({@code computeNodes x threadsPerNode}), with a given allocator. {@link #BarrierReclaimer(ComputeThread)} is the
     * same with {@code thread.allocator()}: pass an allocator only when retired blocks must go to another one than
     * the thread's.
     *
     * @param thread    the calling thread's compute thread
     * @param allocator the allocator retired blocks are freed with (the thread's)
     */
    public BarrierReclaimer(ComputeThread thread, RemoteAllocator allocator) {
        this(thread, allocator, new ClusterBarrier(Objects.requireNonNull(thread, "thread")));
    }

    /**
     * A reclaimer whose passes meet at a given barrier, with a given allocator
     * ({@link #BarrierReclaimer(ComputeThread, ClusterBarrier)} with the thread's own).
     *
     * @param thread    the calling thread's compute thread
     * @param allocator the allocator retired blocks are freed with (the thread's)
     * @param barrier   the barrier every participating thread meets at in {@link #reclaim()} (this thread's)
     */
    public BarrierReclaimer(ComputeThread thread, RemoteAllocator allocator, ClusterBarrier barrier) {
        this.guard = new NeverReclaimer.PlainGuard(Objects.requireNonNull(thread, "thread"));
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.barrier = Objects.requireNonNull(barrier, "barrier");
    }

    private static RemoteAllocator ownAllocator(ComputeThread thread, ClusterBarrier barrier) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(barrier, "barrier");
        return thread.allocator();
    }

    @Override
    public Guard enter() {
        return guard.entered();
    }

    /** Keeps the block until the next {@link #reclaim()}. */
    @Override
    public void retire(long block, long size) {
        RetiredList.checkBlock(block, size);
        retired.add(block, size, 0);
    }

    /**
     * Waits at the barrier, then frees every block this thread retired before it.
     *
     * @throws RemoteTimeoutException when not every participant arrived within the barrier's timeout
     *                                (nothing is freed)
     */
    @Override
    public void reclaim() {
        guard.requireOutside("reclaim");
        barrier.await();
        retired.freeUpTo(0, allocator);
    }

    /** Keeps what is unreclaimed (freeing it needs a barrier round, which the others may not join). */
    @Override
    public void close() {
        guard.requireOutside("close");
    }
}
