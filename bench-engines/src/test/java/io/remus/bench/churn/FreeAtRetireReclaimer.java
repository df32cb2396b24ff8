package io.remus.bench.churn;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;

/**
 * A deliberately broken reclaimer: frees a block the moment it is retired, while other threads'
 * guards may still read it. The churn checker must catch it.
 */
final class FreeAtRetireReclaimer implements Reclaimer {
    private final RemoteAllocator allocator;
    /** Its guards, which never free: this reclaimer's guards are theirs. */
    private final NeverReclaimer guards;
    private long retired;

    FreeAtRetireReclaimer(ComputeThread thread, RemoteAllocator allocator) {
        this.allocator = allocator;
        this.guards = new NeverReclaimer(thread);
    }

    @Override
    public Guard enter() {
        return guards.enter();
    }

    @Override
    public void retire(long block, long size) {
        retired += size;
        allocator.deallocate(block, size);
    }

    @Override
    public void reclaim() {
    }

    @Override
    public long unreclaimedBytes() {
        return 0;
    }

    @Override
    public long unreclaimedBlocks() {
        return 0;
    }

    @Override
    public long retiredBytes() {
        return retired;
    }

    @Override
    public void close() {
    }
}
