package io.remus.core.memory;

import io.remus.core.BadArgumentException;
import io.remus.core.BarrierMismatchException;
import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;
import io.remus.core.RemoteTimeoutException;
import io.remus.core.config.Timeouts;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A cluster-wide sense-reversing barrier (Mellor-Crummey and Scott, "Algorithms for Scalable
 * Synchronization on Shared-Memory Multiprocessors", TOCS 1991) over two words in the control
 * block of the first memory node: the barrier word and the sense bit ({@link ControlBlock}). The
 * barrier word holds the participant count of the current round beside its arrivals, so the count
 * is part of the round's identity: the first arrival of a round records its count, every later one
 * must bring the same count, and one that does not is refused with a
 * {@link BarrierMismatchException} naming both counts, uncounted. Among arrivals that meet in one
 * round, therefore, only as many agreeing ones as its count release it. Two groups of different
 * counts (two or more each) that take turns on the cluster's one barrier, a whole round of one
 * while the other is between rounds, never meet and are not detected: the finished round flips
 * the sense that the other group's existing instances wait on, so its next round releases at its
 * first arrival. Each arrival is a compare-and-swap of the
 * barrier word; the last one of a round swaps it back to 0 and then writes the flipped sense; the
 * others read the sense until it flips. All changes of the barrier word are RDMA compare-and-swaps
 * (the thread's own node included), and reads of the thread's own node take the CPU path, which
 * the atomicity table allows.
 *
 * <p>RDMA operations per {@link #await()}: one READ of the sense word on an instance's first call
 * (its starting sense, so an instance made after earlier rounds joins the current one); one
 * compare-and-swap for the arrival when the guess that the round is empty holds, otherwise one more
 * per arrival that changed the word in between (at most the participant count plus one: the word
 * changes only by arrivals of this round until this one arrives, so the arrival is wait-free); the
 * last arrival one WRITE of the sense word; the others READs of the sense until it flips. A barrier
 * of one participant never writes the sense: no one waits for its rounds, and a flip by it would
 * release the next round of the others at once, past the check of their count.
 *
 * <p>Blocking, not fault-tolerant: a participant that never arrives stops the others, who then
 * fail with {@link RemoteTimeoutException} after the timeout. One instance per compute thread.
 */
public final class ClusterBarrier {
    private static final long ARRIVALS = 0xFFFF_FFFFL;

    private final ComputeThread thread;
    private final int participants;
    private final long word;
    private final long sense;
    private final Duration timeout;
    private boolean joined;
    private long localSense;

    /**
     * A barrier for every compute thread of the cluster ({@code computeNodes x threadsPerNode}).
     *
     * @param thread the calling thread's compute thread
     */
    public ClusterBarrier(ComputeThread thread) {
        this(thread, Objects.requireNonNull(thread, "thread").config().totalComputeThreads());
    }

    /**
     * @param thread       the calling thread's compute thread
     * @param participants how many threads each round waits for; the same everywhere
     */
    public ClusterBarrier(ComputeThread thread, int participants) {
        this(thread, participants, Objects.requireNonNull(thread, "thread").config().operationTimeout());
    }

    /**
     * A barrier with its own wait bound, e.g. a start-up barrier that waits for processes started
     * at different times longer than one operation may take.
     *
     * @param thread       the calling thread's compute thread
     * @param participants how many threads each round waits for; the same everywhere
     * @param timeout      the longest {@link #await()} waits for the others: positive, at most
     *                     {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER} to wait without end
     * @throws NullPointerException when {@code thread} or {@code timeout} is null
     * @throws BadArgumentException naming the value when {@code participants} is not positive or
     *                              {@code timeout} is out of {@link Timeouts#require}'s range
     */
    public ClusterBarrier(ComputeThread thread, int participants, Duration timeout) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(timeout, "timeout");
        Timeouts.require(timeout, "barrier timeout");
        if (participants <= 0) {
            throw new BadArgumentException("a barrier needs at least one participant, got " + participants);
        }
        this.thread = thread;
        this.participants = participants;
        long block = thread.segmentBase(thread.config().memoryNodes().first(), 0);
        this.word = RemotePtr.offset(block, ControlBlock.BARRIER_WORD);
        this.sense = RemotePtr.offset(block, ControlBlock.BARRIER_SENSE);
        this.timeout = timeout;
    }

    /**
     * Waits until all participants arrived in this round.
     *
     * @throws BarrierMismatchException when the current round was opened by a participant counting a
     *                                  different number of participants (this arrival is not counted)
     * @throws RemoteTimeoutException   when they did not within the barrier's timeout (by default the
     *                                  configured operation timeout)
     */
    public void await() {
        if (!joined) {
            localSense = thread.read(sense);
            joined = true;
        }
        long p = participants;
        long expected = 0;
        long arrived;
        while (true) {
            long roundParticipants = expected >>> 32;
            if (expected != 0 && roundParticipants != p) {
                throw new BarrierMismatchException(participants, roundParticipants, "barrier " + RemotePtr.toString(word)
                        + ": this thread counts " + p + " participants, but the current round was opened by one counting "
                        + roundParticipants + " (" + (expected & ARRIVALS) + " arrived); this arrival is not counted");
            }
            arrived = expected & ARRIVALS;
            long next = arrived + 1 == p ? 0 : (p << 32) | (arrived + 1);
            long was = thread.compareAndSwap(word, expected, next);
            if (was == expected) {
                break;
            }
            expected = was;
        }
        if (p == 1) {
            return;
        }
        localSense ^= 1;
        if (arrived == p - 1) {
            thread.write(sense, localSense);
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        int spins = 0;
        while (thread.read(sense) != localSense) {
            spins++;
            if (spins > 64) {
                if (System.nanoTime() - deadline > 0) {
                    long now = thread.read(word);
                    throw new RemoteTimeoutException("barrier: not all " + participants + " participants arrived within "
                            + timeout + " (the round's word now counts " + (now & ARRIVALS) + " arrivals of "
                            + (now >>> 32) + ")");
                }
                LockSupport.parkNanos(20_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
