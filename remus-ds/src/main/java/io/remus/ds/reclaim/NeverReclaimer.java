package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;

import java.util.Objects;

/**
 * Never frees: retired blocks stay allocated. The baseline for benchmarks (what most
 * disaggregated-memory systems do: FUSEE, Sherman, SMART and CHIME), and the
 * cost floor of the {@link Reclaimer} interface.
 *
 * <p><b>Safe:</b> trivially; no block is ever reused, so a reference stays readable forever.
 * <b>Unreclaimed memory:</b> unbounded, every retired byte ({@link #unreclaimedBytes()} equals
 * {@link #retiredBytes()}), stalled threads or not. <b>RDMA operations:</b> none per enter, exit,
 * retire or {@link #reclaim()}; {@link Guard#incarnation} and {@link Guard#validate} READ the
 * header. <b>Progress:</b> wait-free. The guard is always {@link Guard#valid()}.
 */
public final class NeverReclaimer implements Reclaimer {
    private final PlainGuard guard;
    private volatile long bytes;
    private volatile long blocks;

    /**
     * A reclaimer that never frees, for the calling thread.
     *
     * @param thread the calling thread's compute thread (its header reads serve {@link Guard#validate})
     */
    public NeverReclaimer(ComputeThread thread) {
        this.guard = new PlainGuard(Objects.requireNonNull(thread, "thread"));
    }

    @Override
    public Guard enter() {
        return guard.entered();
    }

    /** Counts the block as unreclaimed, for ever. */
    @Override
    public void retire(long block, long size) {
        RetiredList.checkBlock(block, size);
        bytes += size;
        blocks++;
    }

    /** Does nothing (outside a guard). */
    @Override
    public void reclaim() {
        guard.requireOutside("reclaim");
    }

    @Override
    public long unreclaimedBytes() {
        return bytes;
    }

    @Override
    public long unreclaimedBlocks() {
        return blocks;
    }

    @Override
    public long retiredBytes() {
        return bytes;
    }

    @Override
    public void close() {
        guard.requireOutside("close");
    }

    /** A guard that is always valid; its close does nothing but end the nesting. */
    static final class PlainGuard extends BaseGuard {
        PlainGuard(ComputeThread thread) {
            super(thread);
        }

        /** Opens this guard (one nesting level deeper) and returns it: what a reclaimer's enter does. */
        PlainGuard entered() {
            open();
            return this;
        }

        @Override
        public boolean valid() {
            return true;
        }

        @Override
        public void check() {
        }

        @Override
        public void close() {
            release();
        }
    }
}
