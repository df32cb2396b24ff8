package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;

/**
 * What a compute thread's operation counters moved by over one call: taken before the call with
 * {@link #of}, read after it with {@link #since}.
 */
record MapCounts(long roundTrips, long reads, long writes, long compareAndSwaps) {

    static MapCounts of(ComputeThread t) {
        return new MapCounts(t.roundTrips(), t.postedOperations(Opcode.READ), t.postedOperations(Opcode.WRITE),
                t.postedOperations(Opcode.COMPARE_AND_SWAP));
    }

    MapCounts since(ComputeThread t) {
        MapCounts now = of(t);
        return new MapCounts(now.roundTrips - roundTrips, now.reads - reads, now.writes - writes,
                now.compareAndSwaps - compareAndSwaps);
    }
}
