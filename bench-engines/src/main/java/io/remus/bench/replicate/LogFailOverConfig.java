package io.remus.bench.replicate;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.replicate.LogLayout;

import java.util.Locale;
import java.util.Objects;

/**
 * One run of the replicated log's fail-over measurement ({@link LogFailOverBenchmark}): a group of {@code replicas}
 * members on as many simulated nodes, each polling a {@code ReplicaAgent} that suspects a member after
 * {@code suspectAfter} unchanged heartbeat READs; the elected leader (node 0) appends {@code appends} entries of
 * {@code entryBytes} and then crashes as {@code crash} says; the simulator's transport timeout is
 * {@code transportTimeoutNanos}. Validated on construction, each message naming the flag of
 * {@code remus bench log --fail-over} and the value.
 *
 * @param replicas              members of the group, {@code 2f + 1}: odd, {@value LogBenchmarkConfig#MIN_REPLICAS}..
 *                              {@value LogBenchmarkConfig#MAX_REPLICAS}
 * @param entryBytes            bytes of every entry, at least 8 (the entry carries its number), such that a log of
 *                              {@code slots} slots fits one allocation ({@value SizeClasses#MAX} bytes)
 * @param appends               appends committed by the first leader before it crashes, 1..{@value #MAX_APPENDS}
 * @param slots                 slots of each member's log, 2..{@value LogLayout#MAX_SLOTS}, at least {@code appends + 1}
 *                              (the new leader recovers the whole log from the survivors' rings)
 * @param suspectAfter          unchanged heartbeat READs in a row before an agent suspects a member,
 *                              1..{@value #MAX_SUSPECT_AFTER}
 * @param crash                 how the leader fails
 * @param transportTimeoutNanos how long a request to a node that stopped answering waits before it fails, in
 *                              nanoseconds of virtual time: {@value #MIN_TRANSPORT_TIMEOUT_NANOS}..
 *                              {@value #MAX_TRANSPORT_TIMEOUT_NANOS}
 */
public record LogFailOverConfig(int replicas, int entryBytes, long appends, int slots, int suspectAfter, Crash crash,
                                long transportTimeoutNanos) {
    /** The most appends before the crash. */
    public static final long MAX_APPENDS = 60_000;
    /** The largest suspicion count. */
    public static final int MAX_SUSPECT_AFTER = 1_000_000;
    /** The shortest transport timeout: 1 us. */
    public static final long MIN_TRANSPORT_TIMEOUT_NANOS = 1_000;
    /** The longest transport timeout: 1 s. */
    public static final long MAX_TRANSPORT_TIMEOUT_NANOS = 1_000_000_000;

    /** How the leader fails. */
    public enum Crash {
        /**
         * The leader's node stops answering ({@code SimFabric.stopAnswering}) and its threads stop: every request
         * to it fails once the transport timeout has passed, so the survivors suspect it at a failed heartbeat READ.
         */
        NODE,
        /**
         * The leader's threads stop but its memory keeps answering (a crashed process whose NIC and memory stay, as
         * on a shared-memory or a frozen host): its heartbeat stops, so the survivors suspect it after
         * {@code suspectAfter} READs in a row show the same heartbeat.
         */
        PROCESS;

        /** {@return the name as {@code --crash} takes it: {@code node} or {@code process}} */
        public String flag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Validates the run.
     *
     * @throws BadArgumentException naming the flag and the value: an even or out-of-range group, an entry size below
     *                              8 or one whose log does not fit one allocation, a slot count out of range or not
     *                              above the appends, appends, a suspicion count or a transport timeout out of range
     */
    public LogFailOverConfig {
        Objects.requireNonNull(crash, "crash");
        if (replicas < LogBenchmarkConfig.MIN_REPLICAS || replicas > LogBenchmarkConfig.MAX_REPLICAS || replicas % 2 == 0) {
            throw new BadArgumentException("--replicas must be an odd group of 2f + 1 members, "
                    + LogBenchmarkConfig.MIN_REPLICAS + ".." + LogBenchmarkConfig.MAX_REPLICAS + ", got " + replicas);
        }
        if (slots < 2 || slots > LogLayout.MAX_SLOTS) {
            throw new BadArgumentException("--log-slots must be 2.." + LogLayout.MAX_SLOTS + ", got " + slots);
        }
        if (entryBytes < 8) {
            throw new BadArgumentException("--entry-bytes must be at least 8 with --fail-over (an entry carries its "
                    + "number), got " + entryBytes);
        }
        if (LogBenchmarkConfig.logBytes(slots, entryBytes) > SizeClasses.MAX) {
            throw new BadArgumentException("--entry-bytes " + entryBytes + " with --log-slots " + slots + ": a log of "
                    + slots + " slots of " + LogBenchmarkConfig.slotBytes(entryBytes) + " bytes takes "
                    + LogBenchmarkConfig.logBytes(slots, entryBytes) + " bytes, more than one allocation's "
                    + SizeClasses.MAX + "; the largest entry with " + slots + " slots is "
                    + LogBenchmarkConfig.maxEntryBytes(slots) + " bytes");
        }
        if (appends < 1 || appends > MAX_APPENDS) {
            throw new BadArgumentException("--appends must be 1.." + MAX_APPENDS + " with --fail-over, got " + appends);
        }
        if (appends >= slots) {
            throw new BadArgumentException("--appends " + appends + " with --fail-over needs --log-slots above it (the "
                    + "new leader recovers the log from the survivors' rings), got --log-slots " + slots);
        }
        if (suspectAfter < 1 || suspectAfter > MAX_SUSPECT_AFTER) {
            throw new BadArgumentException("--suspect-after must be 1.." + MAX_SUSPECT_AFTER + " READs, got "
                    + suspectAfter);
        }
        if (transportTimeoutNanos < MIN_TRANSPORT_TIMEOUT_NANOS || transportTimeoutNanos > MAX_TRANSPORT_TIMEOUT_NANOS) {
            throw badTimeout(transportTimeoutNanos % 1000 == 0 ? Long.toString(transportTimeoutNanos / 1000)
                    : Double.toString(transportTimeoutNanos / 1000.0));
        }
    }

    /**
     * {@return {@code micros} of {@code --transport-timeout-us} in nanoseconds}
     *
     * @param micros the flag's value
     * @throws BadArgumentException naming the flag and the value when it is out of range
     */
    public static long transportTimeoutNanos(long micros) {
        if (micros < MIN_TRANSPORT_TIMEOUT_NANOS / 1000 || micros > MAX_TRANSPORT_TIMEOUT_NANOS / 1000) {
            throw badTimeout(Long.toString(micros));
        }
        return micros * 1000;
    }

    private static BadArgumentException badTimeout(String got) {
        return new BadArgumentException("--transport-timeout-us must be " + MIN_TRANSPORT_TIMEOUT_NANOS / 1000 + ".."
                + MAX_TRANSPORT_TIMEOUT_NANOS / 1000 + ", got " + got);
    }
}
