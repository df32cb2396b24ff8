package io.remus.bench.structure;

import java.util.Objects;

/**
 * What {@link DsBenchmark} measured, over the measured operations only (the prefill is not counted).
 *
 * @param config       what ran
 * @param elapsedNanos from the workers' release to the last one's end
 * @param prefilled    keys the prefill inserted (inserts that returned true)
 * @param outcomes     by {@code 2 * OpType ordinal}: operations of that type that returned true, and at
 *                     {@code + 1} those that returned false
 * @param costs        by {@code OpType ordinal * Cost count + Cost ordinal}: what the workers' compute-thread
 *                     counters moved by over the operations of that type
 */
public record DsBenchmarkResult(DsBenchmarkConfig config, long elapsedNanos, long prefilled, long[] outcomes,
                                long[] costs) {
    private static final int TYPES = OpType.values().length;

    /**
     * Copies the arrays.
     *
     * @throws IllegalArgumentException when an array has the wrong length
     */
    public DsBenchmarkResult {
        Objects.requireNonNull(config, "config");
        outcomes = outcomes.clone();
        costs = costs.clone();
        if (outcomes.length != 2 * TYPES || costs.length != TYPES * Cost.count()) {
            throw new IllegalArgumentException("outcomes must have " + 2 * TYPES + " and costs " + TYPES * Cost.count()
                    + " entries, got " + outcomes.length + " and " + costs.length);
        }
    }

    /** {@return every measured operation} */
    public long ops() {
        long sum = 0;
        for (long n : outcomes) {
            sum += n;
        }
        return sum;
    }

    /** @param op a type @return its operations */
    public long ops(OpType op) {
        return succeeded(op) + failed(op);
    }

    /** @param op a type @return its operations that returned true */
    public long succeeded(OpType op) {
        return outcomes[2 * op.ordinal()];
    }

    /** @param op a type @return its operations that returned false */
    public long failed(OpType op) {
        return outcomes[2 * op.ordinal() + 1];
    }

    /** @param cost a counter @return its total over every operation */
    public long total(Cost cost) {
        long sum = 0;
        for (OpType op : OpType.values()) {
            sum += total(op, cost);
        }
        return sum;
    }

    /** @param op a type @param cost a counter @return its total over the operations of that type */
    public long total(OpType op, Cost cost) {
        return costs[op.ordinal() * Cost.count() + cost.ordinal()];
    }

    /** @param cost a counter @return its mean per operation (0 without operations) */
    public double perOp(Cost cost) {
        long ops = ops();
        return ops == 0 ? 0 : (double) total(cost) / ops;
    }

    /** @param op a type @param cost a counter @return its mean per operation of that type (0 without any) */
    public double perOp(OpType op, Cost cost) {
        long ops = ops(op);
        return ops == 0 ? 0 : (double) total(op, cost) / ops;
    }

    /** {@return the compute threads' RDMA operations of every kind (READs, WRITEs, compare-and-swaps, fetch-and-adds) per operation} */
    public double rdmaPerOp() {
        return perOp(Cost.READS) + perOp(Cost.WRITES) + perOp(Cost.COMPARE_AND_SWAPS) + perOp(Cost.FETCH_AND_ADDS);
    }

    /** {@return operations per second, all workers together} */
    public double opsPerSecond() {
        return elapsedNanos == 0 ? 0 : ops() * 1e9 / elapsedNanos;
    }

    /** {@return the outcomes (a copy)} */
    @Override
    public long[] outcomes() {
        return outcomes.clone();
    }

    /** {@return the costs (a copy)} */
    @Override
    public long[] costs() {
        return costs.clone();
    }
}
