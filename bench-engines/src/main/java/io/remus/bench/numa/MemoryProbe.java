package io.remus.bench.numa;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * CPU access to one memory region, the two classic probes: a dependent pointer chase through a
 * random cyclic permutation of its cache lines (each load's address is the previous load's value,
 * so the hardware can neither overlap nor prefetch them: the load-to-use latency), and a sequential
 * read of every 8-byte word (the streaming bandwidth one thread gets).
 */
public final class MemoryProbe {
    /** Bytes per chased cache line. */
    public static final int LINE = 64;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

    private MemoryProbe() {
    }

    /**
     * Links the region's lines into one random cycle (Sattolo's algorithm): the first word of each
     * line holds the offset of the next.
     *
     * @param region the memory, at least two lines
     * @param seed   the permutation's seed
     */
    public static void linkCycle(MemorySegment region, long seed) {
        int lines = (int) Math.min(Integer.MAX_VALUE, region.byteSize() / LINE);
        if (lines < 2) {
            throw new IllegalArgumentException("a pointer chase needs at least two " + LINE + "-byte lines");
        }
        int[] order = new int[lines];
        for (int i = 0; i < lines; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = lines - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < lines; i++) {
            region.set(WORD, (long) order[i] * LINE, (long) order[(i + 1) % lines] * LINE);
        }
    }

    /**
     * @param region a region linked by {@link #linkCycle}
     * @param steps  dependent loads, positive
     * @return nanoseconds per load
     */
    public static double chaseNanos(MemorySegment region, long steps) {
        long p = 0;
        long t0 = System.nanoTime();
        for (long i = 0; i < steps; i++) {
            p = region.get(WORD, p);
        }
        long nanos = System.nanoTime() - t0;
        Blackhole.consume(p);
        return (double) nanos / steps;
    }

    /**
     * @param region   the memory
     * @param minBytes read the whole region as many times as it takes to read at least this much
     * @return bytes per nanosecond (GB/s)
     */
    public static double sequentialGigabytesPerSecond(MemorySegment region, long minBytes) {
        long size = region.byteSize() & ~7L;
        long passes = Math.max(1, (minBytes + size - 1) / size);
        long sum = 0;
        long t0 = System.nanoTime();
        for (long pass = 0; pass < passes; pass++) {
            for (long off = 0; off < size; off += 8) {
                sum += region.get(WORD, off);
            }
        }
        long nanos = Math.max(1, System.nanoTime() - t0);
        Blackhole.consume(sum);
        return (double) (passes * size) / nanos;
    }

    /** Keeps a result alive so that the JIT cannot drop the loop that made it. */
    private static final class Blackhole {
        private static volatile long sink;

        static void consume(long v) {
            sink = v;
        }
    }
}
