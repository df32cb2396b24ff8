package io.remus.ds.delegate;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;

/**
 * What a compute thread's operation counters moved by over one call: taken before the call with
 * {@link #of}, read after it with {@link #since}.
 */
record Counts(long roundTrips, long reads, long writes, long compareAndSwaps, long fetchAndAdds, long bytesRead,
              long bytesWritten) {

    static Counts of(ComputeThread t) {
        return new Counts(t.roundTrips(), t.postedOperations(Opcode.READ), t.postedOperations(Opcode.WRITE),
                t.postedOperations(Opcode.COMPARE_AND_SWAP), t.postedOperations(Opcode.FETCH_AND_ADD), t.bytesRead(),
                t.bytesWritten());
    }

    Counts since(ComputeThread t) {
        Counts now = of(t);
        return new Counts(now.roundTrips - roundTrips, now.reads - reads, now.writes - writes,
                now.compareAndSwaps - compareAndSwaps, now.fetchAndAdds - fetchAndAdds, now.bytesRead - bytesRead,
                now.bytesWritten - bytesWritten);
    }

    long operations() {
        return reads + writes + compareAndSwaps + fetchAndAdds;
    }
}
