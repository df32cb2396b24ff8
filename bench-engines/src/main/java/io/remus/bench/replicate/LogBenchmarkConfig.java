package io.remus.bench.replicate;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.replicate.LogLayout;

/**
 * One run of the replicated-log benchmark: a group of {@code replicas} members on as many simulated nodes, a log
 * of {@code slots} slots per member sized for entries of {@code entryBytes}, and {@code appends} appends of that
 * size by the leader on node 0. Validated on construction, each message naming the flag of {@code remus bench log}
 * and the value.
 *
 * @param replicas   members of the group, {@code 2f + 1}: odd, {@value #MIN_REPLICAS}..{@value #MAX_REPLICAS}
 * @param entryBytes bytes of every entry, at least 1, such that a log of {@code slots} slots fits one allocation
 *                   ({@value SizeClasses#MAX} bytes)
 * @param appends    appends measured, 1..{@value #MAX_APPENDS}
 * @param slots      slots of each member's log, 2..{@value LogLayout#MAX_SLOTS}; the log wraps when
 *                   {@code appends > slots}
 */
public record LogBenchmarkConfig(int replicas, int entryBytes, long appends, int slots) {
    /** The smallest group: {@code f = 1}. */
    public static final int MIN_REPLICAS = 3;
    /** The largest group the benchmark runs: {@code f = 7}. */
    public static final int MAX_REPLICAS = 15;
    /** The most appends one run measures. */
    public static final long MAX_APPENDS = 10_000_000L;

    /**
     * Validates the run.
     *
     * @throws BadArgumentException naming the flag and the value: an even or out-of-range group, an entry size
     *                              below 1 or one whose log does not fit one allocation, a slot count or number of
     *                              appends out of range
     */
    public LogBenchmarkConfig {
        if (replicas < MIN_REPLICAS || replicas > MAX_REPLICAS || replicas % 2 == 0) {
            throw new BadArgumentException("--replicas must be an odd group of 2f + 1 members, " + MIN_REPLICAS + ".."
                    + MAX_REPLICAS + ", got " + replicas);
        }
        if (slots < 2 || slots > LogLayout.MAX_SLOTS) {
            throw new BadArgumentException("--log-slots must be 2.." + LogLayout.MAX_SLOTS + ", got " + slots);
        }
        if (entryBytes < 1) {
            throw new BadArgumentException("--entry-bytes must be at least 1, got " + entryBytes);
        }
        if (logBytes(slots, entryBytes) > SizeClasses.MAX) {
            throw new BadArgumentException("--entry-bytes " + entryBytes + " with --log-slots " + slots + ": a log of "
                    + slots + " slots of " + slotBytes(entryBytes) + " bytes takes " + logBytes(slots, entryBytes)
                    + " bytes, more than one allocation's " + SizeClasses.MAX + "; the largest entry with " + slots
                    + " slots is " + maxEntryBytes(slots) + " bytes");
        }
        if (appends < 1 || appends > MAX_APPENDS) {
            throw new BadArgumentException("--appends must be 1.." + MAX_APPENDS + ", got " + appends);
        }
    }

    /** {@return the followers the leader WRITEs each entry to: {@code 2f}} */
    public int followers() {
        return replicas - 1;
    }

    /**
     * {@return the bytes of one slot holding entries up to {@code entryBytes}: {@link LogLayout#OVERHEAD_BYTES} and
     *          the entry padded to 8 bytes, as {@link LogLayout} lays a slot out}
     *
     * @param entryBytes the largest entry
     */
    public static long slotBytes(long entryBytes) {
        return LogLayout.OVERHEAD_BYTES + ((entryBytes + 7) & ~7L);
    }

    /**
     * {@return the bytes of one member's log: its header and {@code slots} slots}
     *
     * @param slots      the log's slots
     * @param entryBytes the largest entry
     */
    public static long logBytes(int slots, long entryBytes) {
        return LogLayout.HEADER_BYTES + slots * slotBytes(entryBytes);
    }

    /**
     * {@return the largest entry, a multiple of 8, whose log of {@code slots} slots fits one allocation; 0 when none
     *          does}
     *
     * @param slots the log's slots, 2..{@value LogLayout#MAX_SLOTS}
     */
    public static int maxEntryBytes(int slots) {
        long slot = (SizeClasses.MAX - LogLayout.HEADER_BYTES) / slots;
        return (int) Math.max(0, (slot - LogLayout.OVERHEAD_BYTES) & ~7L);
    }
}
