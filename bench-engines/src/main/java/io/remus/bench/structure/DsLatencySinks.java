package io.remus.bench.structure;

import io.remus.bench.stats.LatencySink;

/** Hands {@link DsBenchmark} one {@link LatencySink} per worker and operation type. */
@FunctionalInterface
public interface DsLatencySinks {
    /** Drops every sample. */
    DsLatencySinks NONE = (worker, op) -> LatencySink.NONE;

    /**
     * Called once per worker and type before the run, on the worker's thread, which alone records into it.
     *
     * @param worker the worker's index in the whole run, {@code 0..workers-1}, node-major
     * @param op     the operation type
     * @return the sink of that worker's operations of that type
     */
    LatencySink sink(int worker, OpType op);
}
