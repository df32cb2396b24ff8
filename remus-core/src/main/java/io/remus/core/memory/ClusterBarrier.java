package io.remus.core.memory;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemoteTimeoutException;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A cluster-wide sense-reversing barrier (Mellor-Crummey and Scott, "Algorithms for Scalable
 * Synchronization on Shared-Memory Multiprocessors", TOCS 1991) over two words in the control
 * block of the first memory node: an arrival count and a sense bit. Each participant flips its
 * local sense and fetch-and-adds the count; the last to arrive resets the count and then writes the
 * new sense; the others read the sense until it flips. All accesses go through the NIC (reads of
 * the thread's own node take the CPU path, which the atomicity table allows).
 *
 * <p>Blocking, not fault-tolerant: a participant that never arrives stops the others, who then
 * fail with {@link RemoteTimeoutException} after the timeout. One instance per compute thread.
 */
public final class ClusterBarrier {
    private final ComputeThread thread;
    private final int participants;
    private final long count;
    private final long sense;
    private final Duration timeout;
    private long localSense;

    /**
     * A barrier for every compute thread of the cluster ({@code computeNodes x threadsPerNode}).
     *
     * @param thread the calling thread's compute thread
     */
    public ClusterBarrier(ComputeThread thread) {
        this(thread, thread.config().totalComputeThreads());
    }

    /**
     * @param thread       the calling thread's compute thread
     * @param participants how many threads each round waits for; the same everywhere
     */
    public ClusterBarrier(ComputeThread thread, int participants) {
        this(thread, participants, thread.config().operationTimeout());
    }

    /**
     * A barrier with its own wait bound, e.g. a start-up barrier that waits for processes started
     * at different times longer than one operation may take.
     *
     * @param thread       the calling thread's compute thread
     * @param participants how many threads each round waits for; the same everywhere
     * @param timeout      the longest {@link #await()} waits for the others, positive
     */
    public ClusterBarrier(ComputeThread thread, int participants, Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new BadArgumentException("a barrier needs a positive timeout, got " + timeout);
        }
        if (participants <= 0) {
            throw new BadArgumentException("a barrier needs at least one participant, got " + participants);
        }
        this.thread = thread;
        this.participants = participants;
        long block = thread.segmentBase(thread.config().memoryNodes().first(), 0);
        this.count = RemotePtr.offset(block, ControlBlock.BARRIER_COUNT);
        this.sense = RemotePtr.offset(block, ControlBlock.BARRIER_SENSE);
        this.timeout = timeout;
    }

    /**
     * Waits until all participants arrived in this round.
     *
     * @throws RemoteTimeoutException when they did not within the barrier's timeout (by default the
     *                                configured operation timeout)
     */
    public void await() {
        localSense ^= 1;
        long arrived = thread.fetchAndAdd(count, 1);
        if (arrived == participants - 1) {
            thread.write(count, 0);
            thread.write(sense, localSense);
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        int spins = 0;
        while (thread.read(sense) != localSense) {
            spins++;
            if (spins > 64) {
                if (System.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("barrier: not all " + participants + " participants arrived within " + timeout);
                }
                LockSupport.parkNanos(20_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
