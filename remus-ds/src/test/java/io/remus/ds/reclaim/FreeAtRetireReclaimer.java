package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemoteAllocator;

/**
 * A deliberately broken reclaimer: frees a block the moment it is retired, while other threads'
 * guards may still read it. The churn checker must catch it.
 */
final class FreeAtRetireReclaimer implements Reclaimer {
    private final RemoteAllocator allocator;
    private final NeverReclaimer.PlainGuard guard;
    private long retired;

    FreeAtRetireReclaimer(ComputeThread thread, RemoteAllocator allocator) {
        this.allocator = allocator;
        this.guard = new NeverReclaimer.PlainGuard(thread);
    }

    @Override
    public Guard enter() {
        guard.open();
        return guard;
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
