package io.remus.ds.reclaim;

/**
 * What {@link BarrierReclaimer} and {@link EpochReclaimer} share: each keeps its thread's retired blocks on a
 * {@link RetiredList} until a pass frees them, and reports that list's counts.
 */
abstract class ListReclaimer implements Reclaimer {
    /** This thread's retired blocks, not yet freed. */
    final RetiredList retired = new RetiredList();

    @Override
    public final long unreclaimedBytes() {
        return retired.bytes();
    }

    @Override
    public final long unreclaimedBlocks() {
        return retired.count();
    }

    @Override
    public final long retiredBytes() {
        return retired.retiredBytes();
    }
}
