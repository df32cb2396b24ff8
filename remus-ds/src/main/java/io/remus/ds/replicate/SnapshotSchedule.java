package io.remus.ds.replicate;

import io.remus.core.error.BadArgumentException;

import java.util.Objects;

/**
 * When a replica stores a snapshot image of its state machine: once {@link #every} entries were applied since the
 * last image (or since the start), on the replica's thread between two applies ({@link LogReplica#takeSnapshot},
 * CPU stores into its snapshot region, no RDMA operation). An image larger than the region is refused by the
 * replica and counted ({@link #refused}); the region keeps its older image and the next try comes {@code every}
 * entries later. A region holding a newer image not yet restored is left alone. A lagging follower is caught up
 * from the image only while the leader's ring still holds every entry after it, so callers keep {@code every} at
 * most half the ring. Not thread-safe: confined to the replica's thread; wait-free.
 */
public final class SnapshotSchedule {
    private final LogReplica replica;
    private final int every;
    private long nextAt;
    private long refused;

    /**
     * A schedule for {@code replica}.
     *
     * @param replica the replica whose images it stores
     * @param every   entries applied between two images; 0 for none
     * @throws NullPointerException for a null replica
     * @throws BadArgumentException for a negative {@code every}
     */
    public SnapshotSchedule(LogReplica replica, int every) {
        this.replica = Objects.requireNonNull(replica, "replica");
        if (every < 0) {
            throw new BadArgumentException("every must be 0 (no images) or positive, got " + every);
        }
        this.every = every;
        this.nextAt = every;
    }

    /** Stores an image when one is due; see the class comment. */
    public void runWhenDue() {
        if (every == 0 || replica.applied() < nextAt) {
            return;
        }
        try {
            if (replica.takeSnapshot() < 0) {
                return;
            }
        } catch (BadArgumentException e) {
            refused++;
        }
        nextAt = replica.applied() + every;
    }

    /** {@return entries applied between two images, 0 for none} */
    public int every() {
        return every;
    }

    /** {@return images not stored because they were larger than the snapshot region} */
    public long refused() {
        return refused;
    }
}
