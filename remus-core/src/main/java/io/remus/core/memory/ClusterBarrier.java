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
 * A cluster-wide barrier over one word in the control block of the first memory node
 * ({@link ControlBlock#BARRIER_WORD}), changed only by RDMA compare-and-swap (the thread's own node
 * included). The word holds three fields:
 *
 * <pre>
 *  63            40 39            20 19             0
 * +----------------+----------------+----------------+
 * |   generation   |  participants  |    arrivals    |
 * +----------------+----------------+----------------+
 * </pre>
 *
 * The generation counts released rounds (modulo 2<sup>24</sup>); participants and arrivals
 * describe the round in progress, both 0 between rounds. An arrival is a compare-and-swap that adds
 * one to the arrivals; the first arrival of a round also records its participant count, and every
 * later one must bring the same count: one that does not is refused with a
 * {@link BarrierMismatchException} naming both counts and is not counted. The last arrival of a
 * round swaps the word to the next generation with no round in progress, which releases the others:
 * they wait until the generation differs from the one their arrival saw. So the count is part of
 * the round's identity, and a waiter is released only by the completion of its own round: rounds
 * of other counts, before or after it, cannot release it (generation counting as in the
 * sense-reversing barrier of Mellor-Crummey and Scott, "Algorithms for Scalable Synchronization on
 * Shared-Memory Multiprocessors", TOCS 1991, with the sense widened to a generation). A waiter
 * whose timeout expires withdraws its arrival by compare-and-swap before it fails, so a timed-out
 * round leaves nothing behind; if the round was released in the meantime, it returns normally.
 *
 * <p>RDMA operations per {@link #await()}: one compare-and-swap for the arrival when the guess of
 * the word (the word this instance last saw released) holds, otherwise one more per arrival that
 * changed the word in between (at most the participant count plus one: the arrival is wait-free);
 * the last arrival nothing more; the others READs of the word until its generation changes (CPU
 * reads where the word is on the thread's own node, which the atomicity table allows against RDMA
 * atomics), and on a timeout one more READ and compare-and-swap per change of the word in between.
 *
 * <p>Blocking, not fault-tolerant: a participant that never arrives stops the others, who then
 * fail with {@link RemoteTimeoutException} after the timeout. At most
 * {@value #MAX_PARTICIPANTS} participants. One instance per compute thread.
 */
public final class ClusterBarrier {
    /** The most participants a barrier can count (20 bits). */
    public static final int MAX_PARTICIPANTS = (1 << 20) - 1;
    private static final long FIELD = (1L << 20) - 1;
    private static final int PARTICIPANTS_SHIFT = 20;
    private static final int GENERATION_SHIFT = 40;

    private final ComputeThread thread;
    private final int participants;
    private final long word;
    private final Duration timeout;
    private long guess;

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
     * @throws BadArgumentException naming the value when {@code participants} is not in
     *                              [1, {@value #MAX_PARTICIPANTS}] or {@code timeout} is out of
     *                              {@link Timeouts#require}'s range
     */
    public ClusterBarrier(ComputeThread thread, int participants, Duration timeout) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(timeout, "timeout");
        Timeouts.require(timeout, "barrier timeout");
        if (participants <= 0 || participants > MAX_PARTICIPANTS) {
            throw new BadArgumentException("a barrier needs 1.." + MAX_PARTICIPANTS + " participants, got " + participants);
        }
        this.thread = thread;
        this.participants = participants;
        long block = thread.segmentBase(thread.config().memoryNodes().first(), 0);
        this.word = RemotePtr.offset(block, ControlBlock.BARRIER_WORD);
        this.timeout = timeout;
    }

    /**
     * Waits until all participants arrived in this round.
     *
     * @throws BarrierMismatchException when the current round was opened by a participant counting a
     *                                  different number of participants (this arrival is not counted)
     * @throws RemoteTimeoutException   when they did not within the barrier's timeout (by default the
     *                                  configured operation timeout); this arrival is withdrawn
     */
    public void await() {
        long p = participants;
        long expected = guess;
        long generation;
        long arrived;
        while (true) {
            generation = generation(expected);
            arrived = arrivals(expected);
            long roundParticipants = participants(expected);
            if (arrived != 0 && roundParticipants != p) {
                throw new BarrierMismatchException(participants, roundParticipants, "barrier " + RemotePtr.toString(word)
                        + ": this thread counts " + p + " participants, but the current round was opened by one counting "
                        + roundParticipants + " (" + arrived + " arrived); this arrival is not counted");
            }
            long next = arrived + 1 == p ? word(generation + 1, 0, 0) : word(generation, p, arrived + 1);
            long was = thread.compareAndSwap(word, expected, next);
            if (was == expected) {
                break;
            }
            expected = was;
        }
        guess = word(generation + 1, 0, 0);
        if (arrived + 1 == p) {
            return;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        int spins = 0;
        while (generation(thread.read(word)) == generation) {
            spins++;
            if (spins > 64) {
                if (System.nanoTime() - deadline > 0) {
                    withdraw(generation);
                    return;
                }
                LockSupport.parkNanos(20_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Takes this thread's arrival back from round {@code generation} and fails; returns if the round was released meanwhile. */
    private void withdraw(long generation) {
        long now = thread.read(word);
        while (generation(now) == generation) {
            long arrived = arrivals(now);
            long next = arrived == 1 ? word(generation, 0, 0) : now - 1;
            long was = thread.compareAndSwap(word, now, next);
            if (was == now) {
                throw new RemoteTimeoutException("barrier: not all " + participants + " participants arrived within "
                        + timeout + " (" + (arrived - 1) + " others had arrived; this arrival is withdrawn)");
            }
            now = was;
        }
    }

    static long word(long generation, long participants, long arrivals) {
        return (generation & ((1L << 24) - 1)) << GENERATION_SHIFT | participants << PARTICIPANTS_SHIFT | arrivals;
    }

    static long generation(long word) {
        return word >>> GENERATION_SHIFT;
    }

    static long participants(long word) {
        return (word >>> PARTICIPANTS_SHIFT) & FIELD;
    }

    static long arrivals(long word) {
        return word & FIELD;
    }
}
