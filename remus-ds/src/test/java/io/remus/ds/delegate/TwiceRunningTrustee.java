package io.remus.ds.delegate;

import io.remus.core.ComputeThread;

/**
 * A deliberately broken trustee: it runs every request's operation twice and answers with the second
 * run's result, as a trustee that served a slot again after a torn or stale sequence would. Its
 * histories must fail the linearizability check.
 */
final class TwiceRunningTrustee<T> extends Trustee<T> {
    private TwiceRunningTrustee(ComputeThread thread, long ptr, int maxClients, int slots) {
        super(thread, ptr, thread.localSegment(ptr, blockBytes(maxClients, slots, 0)), maxClients, slots, 0);
    }

    static <T> Trustee<T> make(ComputeThread thread, int maxClients, int slots) {
        return new TwiceRunningTrustee<>(thread, allocate(thread, maxClients, slots, 0), maxClients, slots);
    }

    @Override
    long run(TrusteeOperation<T> op, T state, long arg) {
        op.apply(state, arg);
        return op.apply(state, arg);
    }
}
