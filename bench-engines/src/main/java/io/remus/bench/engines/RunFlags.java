package io.remus.bench.engines;

import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The bounds that several engines' flags share, each error a {@link BadArgumentException} whose message names
 * the flag and the bad value: a run's length, its warm-up, the memory segment of a node, and a list of kinds.
 */
public final class RunFlags {
    /** The longest run, in seconds. */
    public static final double MAX_RUN_SECONDS = 3600;
    /** The longest warm-up, in seconds. */
    public static final double MAX_WARMUP_SECONDS = 600;
    /** The largest node segment, in MiB. */
    public static final int MAX_SEGMENT_MIB = 1024;

    private RunFlags() {
    }

    /**
     * @param ok      whether the rule holds
     * @param message what is wrong, naming the flag and its value
     * @throws BadArgumentException with {@code message} when {@code ok} is false
     */
    public static void require(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException(message);
        }
    }

    /**
     * @param flag    the flag, e.g. {@code -D}
     * @param seconds its value
     * @return it as a duration
     * @throws BadArgumentException unless it is in (0, 3600] seconds
     */
    public static Duration positiveSeconds(String flag, double seconds) {
        require(seconds > 0 && seconds <= MAX_RUN_SECONDS, flag + " must be in (0, 3600] seconds, got " + seconds);
        return nanos(seconds);
    }

    /**
     * @param flag    the flag, e.g. {@code --duration}
     * @param seconds its value
     * @return it as a duration
     * @throws BadArgumentException unless it is in [0.01, 3600] seconds
     */
    public static Duration hundredthsOrMore(String flag, double seconds) {
        require(seconds >= 0.01 && seconds <= MAX_RUN_SECONDS, flag + " must be in [0.01, 3600] seconds, got " + seconds);
        return nanos(seconds);
    }

    /**
     * @param seconds {@code --warmup}
     * @throws BadArgumentException unless it is in [0, 600] seconds
     */
    public static void checkWarmup(double seconds) {
        require(seconds >= 0 && seconds <= MAX_WARMUP_SECONDS, "--warmup must be in [0, 600] seconds, got " + seconds);
    }

    /**
     * @param mib {@code --segment-mib}
     * @return the segment's bytes
     * @throws BadArgumentException unless it is 1..1024
     */
    public static long segmentBytes(long mib) {
        require(mib >= 1 && mib <= MAX_SEGMENT_MIB, "--segment-mib must be 1..1024, got " + mib);
        return mib << 20;
    }

    /**
     * @param flag  the flag, e.g. {@code --object}
     * @param names its values as given
     * @param parse parses one value; throws {@link BadArgumentException} naming a bad one
     * @param <K>   the kind
     * @return the kinds, in the order given
     * @throws BadArgumentException naming the flag and the value when one is unknown or given twice
     */
    public static <K> List<K> kinds(String flag, List<String> names, Function<String, K> parse) {
        List<K> kinds = new ArrayList<>();
        for (String name : names) {
            K k;
            try {
                k = parse.apply(name.strip());
            } catch (BadArgumentException e) {
                throw new BadArgumentException(flag + ": " + e.getMessage());
            }
            require(!kinds.contains(k), flag + " names " + name.strip() + " twice");
            kinds.add(k);
        }
        return kinds;
    }

    /** @param seconds a duration in seconds @return it, rounded to nanoseconds */
    public static Duration nanos(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }
}
