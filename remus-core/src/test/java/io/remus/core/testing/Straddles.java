package io.remus.core.testing;

import io.remus.core.memory.ControlBlock;
import io.remus.core.sim.SimOptions;

/**
 * Where a history's segments cross a 4 GiB boundary ({@link SimOptions#straddleOffset()}): a seeded byte
 * among the first few KiB of a fresh cluster's heap, where the blocks a short history allocates are carved, so
 * that the structure under test has blocks on both sides of the boundary and a pointer READ torn between two
 * of them points outside every segment.
 */
public final class Straddles {
    /** How far apart the boundaries of consecutive seeds lie. */
    private static final long STEP = 256;
    /** Boundaries a seed picks from, one every {@link #STEP} bytes. */
    private static final int CHOICES = 14;

    private Straddles() {
    }

    /**
     * @param seed  the history's seed
     * @param nodes the cluster's node count (segment 0's heap starts behind its bitmaps)
     * @return the straddle offset for a fresh cluster of {@code nodes} nodes: the heap's start plus
     *         {@code 64 + 256 * (seed mod 14)} bytes
     */
    public static long offset(long seed, int nodes) {
        return ControlBlock.heapStart(0, nodes) + 64 + STEP * Math.floorMod(seed, CHOICES);
    }

    /**
     * @param options the history's other knobs
     * @param seed    the history's seed
     * @param nodes   the cluster's node count
     * @return {@code options} with segments across a 4 GiB boundary at {@link #offset(long, int)}
     */
    public static SimOptions across(SimOptions options, long seed, int nodes) {
        return options.withStraddleOffset(offset(seed, nodes));
    }
}
