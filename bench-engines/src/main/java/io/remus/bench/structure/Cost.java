package io.remus.bench.structure;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;

import java.util.Locale;

/**
 * What a {@link ComputeThread}'s counters count, per operation of the benchmark: the counters move only
 * for work that goes through the fabric (what takes the CPU path on the thread's own node is not
 * counted; see {@link ComputeThread#postedOperations}).
 */
public enum Cost {
    /** {@link ComputeThread#roundTrips()}. */
    ROUND_TRIPS,
    /** RDMA READs posted. */
    READS,
    /** RDMA WRITEs posted. */
    WRITES,
    /** Compare-and-swaps posted. */
    COMPARE_AND_SWAPS,
    /** Fetch-and-adds posted. */
    FETCH_AND_ADDS,
    /** {@link ComputeThread#bytesRead()}. */
    BYTES_READ,
    /** {@link ComputeThread#bytesWritten()}. */
    BYTES_WRITTEN,
    /**
     * The round trips of {@link #ROUND_TRIPS} that the structure's allocations took (its handle's
     * {@code allocatorRoundTrips()}): subtracted, what remains is the cost the structure documents.
     */
    ALLOCATOR_ROUND_TRIPS,
    /**
     * The round trips of {@link #ROUND_TRIPS} that the worker's epoch reclaimer took ({@link
     * io.remus.ds.reclaim.EpochReclaimer#roundTrips()}: announcements, passes and the frees they make).
     */
    RECLAIMER_ROUND_TRIPS,
    /**
     * The round trips of {@link #ROUND_TRIPS} that YCSB D's cluster-wide key generator took for the
     * operation, not the structure: an insert's fetch-and-add of the insert counter and its
     * acknowledgment (compare-and-swaps and READs on node 0), a read's READ of the acknowledged limit every
     * 64 reads (see {@link DsBenchmark}). Their operations are in the
     * other counts too ({@link #FETCH_AND_ADDS}, {@link #COMPARE_AND_SWAPS}, {@link #READS}); 0 in every other
     * workload.
     */
    KEY_GENERATOR_ROUND_TRIPS;

    private static final Cost[] ALL = values();

    /** {@return the lower-case name with underscores, as reports spell it} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Adds the thread's counters, by {@link Cost} ordinal, into {@code into} with the sign given: taken
     * before an operation with {@code -1} and after it with {@code +1}, it adds what the operation cost.
     *
     * @param t    the thread (its owner calls)
     * @param into an array with {@code values().length} counts from {@code at}
     * @param at   where the counts start
     * @param sign 1 or -1
     */
    static void add(ComputeThread t, long[] into, int at, int sign) {
        into[at] += sign * t.roundTrips();
        into[at + 1] += sign * t.postedOperations(Opcode.READ);
        into[at + 2] += sign * t.postedOperations(Opcode.WRITE);
        into[at + 3] += sign * t.postedOperations(Opcode.COMPARE_AND_SWAP);
        into[at + 4] += sign * t.postedOperations(Opcode.FETCH_AND_ADD);
        into[at + 5] += sign * t.bytesRead();
        into[at + 6] += sign * t.bytesWritten();
    }

    /** {@return how many costs there are} */
    static int count() {
        return ALL.length;
    }
}
