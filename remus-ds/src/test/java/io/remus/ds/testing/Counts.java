package io.remus.ds.testing;

import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;

/**
 * What a compute thread's operation counters moved by over one call: taken before the call with
 * {@link #of}, read after it with {@link #since}.
 */
public record Counts(long roundTrips, long reads, long writes, long compareAndSwaps, long fetchAndAdds, long bytesRead,
              long bytesWritten) {

    /** @param t the thread @return its counters now */
    public static Counts of(ComputeThread t) {
        return new Counts(t.roundTrips(), t.postedOperations(Opcode.READ), t.postedOperations(Opcode.WRITE),
                t.postedOperations(Opcode.COMPARE_AND_SWAP), t.postedOperations(Opcode.FETCH_AND_ADD), t.bytesRead(),
                t.bytesWritten());
    }

    /** @param t the same thread @return how far its counters moved since this reading */
    public Counts since(ComputeThread t) {
        Counts now = of(t);
        return new Counts(now.roundTrips - roundTrips, now.reads - reads, now.writes - writes,
                now.compareAndSwaps - compareAndSwaps, now.fetchAndAdds - fetchAndAdds, now.bytesRead - bytesRead,
                now.bytesWritten - bytesWritten);
    }

    /** @return RDMA operations of every kind */
    public long operations() {
        return reads + writes + compareAndSwaps + fetchAndAdds;
    }
}
