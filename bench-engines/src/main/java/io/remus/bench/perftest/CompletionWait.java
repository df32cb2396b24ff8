package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * The bounded waits of the benchmark loops: every wait ends in a result or a timeout. Each spins
 * through a number of empty checks (below), then yields the CPU after every further one: on an
 * oversubscribed CPU (a Soft-RoCE guest, whose RDMA transport runs in the kernel's deferred
 * contexts; JIT compiler threads; a peer process on the same cores) a thread that never yields
 * makes that work wait for the scheduler tick, milliseconds per operation. Where nothing else
 * wants the CPU, a yield returns at once. The system property {@code remus.bench.spinChecks} sets
 * the number of empty checks before the first yield (default {@value #DEFAULT_SPIN_CHECKS}): a
 * large number spins without yielding, as perftest does. Clocks, spins and yields go through
 * {@link ThreadTime}: under the simulator's virtual-time scheduler every empty check is one charged
 * check of a wait loop, which sleeps until the completion queue's next event, and timeouts are virtual time.
 */
final class CompletionWait {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final int DEFAULT_SPIN_CHECKS = 64;
    private static final int SPIN_CHECKS = Math.max(0, Integer.getInteger("remus.bench.spinChecks", DEFAULT_SPIN_CHECKS));
    private static final int SPINS_PER_CLOCK_CHECK = 256;
    private static final BooleanSupplier NEVER = () -> false;
    /** Whether the waits count their empty checks and yields ({@value Bandwidth#POLL_STATS_PROPERTY}). */
    static final boolean COUNTING = Boolean.getBoolean(Bandwidth.POLL_STATS_PROPERTY);
    /** Empty checks of the waits since the JVM started, when {@link #COUNTING} (one thread's loops). */
    static long emptyChecks;
    /** Yields of the waits since the JVM started, when {@link #COUNTING}. */
    static long yields;

    private CompletionWait() {
    }

    /**
     * Polls until at least one completion arrives.
     *
     * @return the time of the poll that returned it
     * @throws BenchTimeoutException when none arrives within {@code timeoutNanos} of {@code since}
     */
    static long forCompletion(BenchConnection c, long[] ids, long since, long timeoutNanos, String what) {
        int empty = 0;
        while (c.poll(ids) == 0) {
            idle(++empty, since, timeoutNanos, NEVER, "no completion of ", what, "");
        }
        return ThreadTime.nanoTime();
    }

    /**
     * Spins until the byte at {@code offset} of {@code buffer} ({@code c}'s, taken once by the caller:
     * {@link BenchConnection#buffer()} may make a new view each call) equals {@code expected},
     * reading it with volatile semantics, and polls {@code c}'s completion queue meanwhile (a fabric
     * may need polling to make progress), counting completions in {@code completed[0]}.
     *
     * @return the time it was seen, or -1 when {@code stop} became true first
     * @throws BenchTimeoutException when it does not appear within {@code timeoutNanos} of {@code since}
     */
    static long forByte(BenchConnection c, MemorySegment buffer, long[] ids, long[] completed, long offset,
                        byte expected, long since, long timeoutNanos, BooleanSupplier stop, String what) {
        int empty = 0;
        while ((byte) BYTE.getVolatile(buffer, offset) != expected) {
            completed[0] += c.poll(ids);
            if (idle(++empty, since, timeoutNanos, stop, "", what, " did not arrive")) {
                return -1;
            }
        }
        return ThreadTime.nanoTime();
    }

    /**
     * One check of a wait loop that found nothing: the first {@code remus.bench.spinChecks} only spin, every
     * later one yields the CPU; every {@value #SPINS_PER_CLOCK_CHECK}th asks {@code stop} and then
     * the clock. The timeout's message is {@code before + what + after + " within N ms"}, built
     * only when it is thrown.
     *
     * @param empty the empty checks of this wait so far, this one included
     * @return true when {@code stop} became true
     * @throws BenchTimeoutException when more than {@code timeoutNanos} passed since {@code since}
     */
    static boolean idle(int empty, long since, long timeoutNanos, BooleanSupplier stop, String before, String what,
                        String after) {
        if (COUNTING) {
            emptyChecks++;
        }
        if (empty > SPIN_CHECKS) {
            if (COUNTING) {
                yields++;
            }
            ThreadTime.yield();
        } else if (ThreadTime.isScheduled()) {
            ThreadTime.onSpinWait(what);
        }
        if (empty % SPINS_PER_CLOCK_CHECK == 0) {
            if (stop.getAsBoolean()) {
                return true;
            }
            if (ThreadTime.nanoTime() - since > timeoutNanos) {
                throw new BenchTimeoutException(before + what + after + " within " + timeoutNanos / 1_000_000 + " ms");
            }
        }
        return false;
    }

    /**
     * Waits until {@code completed[0]} is positive, then takes one completion off it.
     *
     * @throws BenchTimeoutException when none arrives within {@code timeoutNanos} of {@code since}
     */
    static void takeOne(BenchConnection c, long[] ids, long[] completed, long since, long timeoutNanos, String what) {
        if (completed[0] == 0) {
            forCompletion(c, ids, since, timeoutNanos, what);
            completed[0]++;
        }
        completed[0]--;
    }

    /** Stores {@code value} at {@code offset} with volatile semantics. */
    static void putByte(MemorySegment buffer, long offset, byte value) {
        BYTE.setVolatile(buffer, offset, value);
    }
}
