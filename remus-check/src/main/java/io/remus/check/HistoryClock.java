package io.remus.check;

import io.remus.core.time.ThreadTime;

import java.time.Clock;
import java.time.Instant;

/**
 * Where a history's timestamps come from. The checker orders two operations only when one's
 * response reading is strictly less than the other's invocation reading, so a coarse clock makes
 * more operations concurrent (a weaker check) and never a false order: with readings floored to a
 * tick, {@code r < i} implies the true response was before the true invocation.
 */
public enum HistoryClock {
    /**
     * {@link ThreadTime#nanoTime()}: nanosecond readings of a monotonic clock, comparable only within
     * one JVM (its origin is arbitrary and differs between JVMs). For the threads of one process. On a
     * host thread that is {@link System#nanoTime()}; on a thread of the simulator's virtual-time
     * scheduler it is the thread's virtual clock, so that a history recorded there is the same on every
     * run of the same seed.
     */
    NANO_TIME {
        @Override
        public long now() {
            return ThreadTime.nanoTime();
        }
    },
    /**
     * Microseconds since the epoch from {@link Clock#systemUTC()} ({@code clock_gettime(CLOCK_REALTIME)}
     * on Linux, which JDK 15+ reads at microsecond or finer resolution; the reading is floored to
     * microseconds). Every process of one host reads the same kernel clock, so readings of several
     * processes on one host are comparable and their histories can be merged
     * ({@link HistoryFiles#merge}). Two assumptions: the host's clock is not stepped during the run
     * (NTP slews rather than steps once synchronised; a step would reorder operations), and the
     * processes are on one host: clocks of different hosts differ by their synchronisation error,
     * which this clock does not bound, so histories of several hosts are comparable only where the
     * operations are further apart than that error. Each reading makes an {@link Instant}, which the
     * JIT usually scalar-replaces; {@link #NANO_TIME} allocates nothing. It reads the host's clock on
     * every thread, virtual-time scheduled ones included: a virtual-time run records with
     * {@link #NANO_TIME}.
     */
    EPOCH_MICROS {
        @Override
        public long now() {
            Instant t = UTC.instant();
            return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
        }
    };

    private static final Clock UTC = Clock.systemUTC();

    /** {@return the current reading} */
    public abstract long now();
}
