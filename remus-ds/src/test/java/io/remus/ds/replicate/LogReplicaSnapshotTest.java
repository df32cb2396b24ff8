package io.remus.ds.replicate;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.SizeClasses;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replica's guard on its snapshot region, with images stored by hand: an image whose bytes or descriptor disagree
 * with its checksum (a WRITE torn or still landing), or whose covers word was cleared (an install not finished), is
 * never restored, and is restored once whole; then the entries after it are applied. Bad input to snapshots is
 * refused typed, naming the value.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LogReplicaSnapshotTest {
    private static final int SLOTS = 4;
    private static final int MAX = 32;
    private static final int CAPACITY = 256;

    /** A machine of a list of longs: images are the longs; restores are recorded. */
    private static final class Longs implements StateMachine {
        final List<Long> values = new ArrayList<>();
        final List<Long> restores = new ArrayList<>();
        MemorySegment next;

        @Override
        public void apply(long index, MemorySegment entry) {
            values.add(index);
        }

        @Override
        public MemorySegment snapshot() {
            if (next != null) {
                return next;
            }
            MemorySegment image = MemorySegment.ofArray(new byte[8 * values.size()]);
            for (int k = 0; k < values.size(); k++) {
                image.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * k, values.get(k));
            }
            return image;
        }

        @Override
        public void restore(MemorySegment image, long covers) {
            values.clear();
            for (long off = 0; off < image.byteSize(); off += 8) {
                values.add(image.get(ValueLayout.JAVA_LONG_UNALIGNED, off));
            }
            restores.add(covers);
        }
    }

    /** Stores an image of the values 0..covers-1 whole into {@code region}; returns its checksum. */
    private static long storeImage(MemorySegment region, long covers) {
        long length = 8 * covers;
        MemorySegment image = region.asSlice(LogLayout.SNAP_IMAGE, length);
        for (int k = 0; k < covers; k++) {
            image.set(ValueLayout.JAVA_LONG, 8L * k, k);
        }
        long checksum = LogLayout.snapshotChecksum(covers, length, image);
        region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_LENGTH, length);
        region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_CHECKSUM, checksum);
        region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_COVERS, covers);
        return checksum;
    }

    /** Stores entry {@code index} whole into its slot, as a leader's WRITE would (see LogReplicaGuardTest). */
    private static void storeEntry(MemorySegment log, long index) {
        int slotBytes = LogLayout.slotBytes(MAX);
        MemorySegment slot = log.asSlice(LogLayout.HEADER_BYTES + (index % SLOTS) * slotBytes, slotBytes);
        slot.fill((byte) 0);
        int length = 8;
        slot.set(ValueLayout.JAVA_LONG, LogLayout.STAMP, index + 1);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.TERM, 1);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.SLOT_COMMIT, index);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.CHECK, LogLayout.check(index + 1, length));
        slot.set(ValueLayout.JAVA_LONG, LogLayout.PAYLOAD, index);
        long checksum = LogLayout.checksum(slot, length);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.CHECKSUM, checksum);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.PAYLOAD + length, checksum);
    }

    @Test
    void shouldRestoreNoImageWhoseBytesDescriptorOrCoversDisagreeAndRestoreItOnceWhole() throws InterruptedException {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(new int[] {0}, (unused, t) -> {
                Longs machine = new Longs();
                LogReplica r = LogReplica.create(c.node(0), t, ReplicaGroup.of(0, 1, 2), "snap-guard", SLOTS, MAX, CAPACITY,
                        machine);
                assertEquals(CAPACITY, r.snapshotCapacity());
                MemorySegment log = c.raw(r.ptr(), LogLayout.logBytes(SLOTS, MAX));
                assertEquals(r.snapshotPtr(), log.get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT), "the header names the region");
                assertEquals(CAPACITY, log.get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT_CAPACITY));
                MemorySegment region = c.raw(r.snapshotPtr(), LogLayout.snapshotRegionBytes(CAPACITY));
                assertEquals(CAPACITY, region.get(ValueLayout.JAVA_LONG, LogLayout.SNAP_CAPACITY));

                long checksum = storeImage(region, 10);
                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_IMAGE + 8 * 7, 99);
                assertEquals(0, r.applyCommitted());
                assertEquals(1, r.snapshotsRejected(), "an image byte that disagrees with the checksum (a torn chunk)");
                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_IMAGE + 8 * 7, 7);

                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_LENGTH, 8 * 9);
                r.applyCommitted();
                assertEquals(2, r.snapshotsRejected(), "a descriptor torn: the length of another image");
                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_LENGTH, 8 * 10);

                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_COVERS, 12);
                r.applyCommitted();
                assertEquals(3, r.snapshotsRejected(), "a descriptor torn: the covers count of another image");

                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_LENGTH, CAPACITY + 8);
                r.applyCommitted();
                assertEquals(4, r.snapshotsRejected(), "a length above the region's capacity");
                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_LENGTH, 8 * 10);

                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_COVERS, 0);
                r.applyCommitted();
                assertEquals(4, r.snapshotsRejected(), "a cleared covers word (an install not finished) is not looked at");
                assertEquals(List.of(), machine.restores, "nothing restored");
                assertEquals(0, r.applied());

                region.set(ValueLayout.JAVA_LONG, LogLayout.SNAP_COVERS, 10);
                assertEquals(checksum, region.get(ValueLayout.JAVA_LONG, LogLayout.SNAP_CHECKSUM));
                storeEntry(log, 10);
                storeEntry(log, 11);
                log.set(ValueLayout.JAVA_LONG, LogLayout.COMMIT, 12);
                assertEquals(2, r.applyCommitted(), "the whole image restored, then entries 10 and 11 applied");
                assertEquals(List.of(10L), machine.restores);
                assertEquals(1, r.snapshotsRestored());
                assertEquals(12, r.applied());
                assertEquals(12, log.get(ValueLayout.JAVA_LONG, LogLayout.APPLIED), "the applied count the leader READs");
                assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), machine.values);
                r.applyCommitted();
                assertEquals(1, r.snapshotsRestored(), "an image covering no more than applied is not restored again");

                assertEquals(12, r.takeSnapshot(), "the member's own image covers what it applied");
                assertEquals(12, region.get(ValueLayout.JAVA_LONG, LogLayout.SNAP_COVERS));
                assertEquals(96, region.get(ValueLayout.JAVA_LONG, LogLayout.SNAP_LENGTH));
                assertEquals(LogLayout.snapshotChecksum(12, 96, region.asSlice(LogLayout.SNAP_IMAGE)),
                        region.get(ValueLayout.JAVA_LONG, LogLayout.SNAP_CHECKSUM));
                storeImage(region, 20);
                assertEquals(-1, r.takeSnapshot(), "no own image over one covering more, not restored yet");
                assertEquals(20, r.snapshotCovers());
                assertEquals(1, r.snapshotsTaken());
            });
        }
    }

    @Test
    void shouldRefuseBadSnapshotInputTyped() throws InterruptedException {
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(new int[] {0}, (unused, t) -> {
                BadArgumentException e = assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(0), t, group,
                        "bad-snap", SLOTS, MAX, -1, new Longs()));
                assertTrue(e.getMessage().contains("got -1"), e.getMessage());
                int tooLarge = (int) SizeClasses.MAX;
                e = assertThrows(BadArgumentException.class, () -> LogReplica.create(c.node(0), t, group, "bad-snap", SLOTS,
                        MAX, tooLarge, new Longs()));
                assertTrue(e.getMessage().contains("got " + tooLarge), e.getMessage());

                LogReplica plain = LogReplica.create(c.node(0), t, group, "plain", SLOTS, MAX, (index, entry) -> { });
                assertEquals(0, plain.snapshotPtr());
                e = assertThrows(BadArgumentException.class, plain::takeSnapshot);
                assertTrue(e.getMessage().contains("no snapshot region"), e.getMessage());

                LogReplica none = LogReplica.create(c.node(0), t, group, "no-snapshots", SLOTS, MAX, CAPACITY,
                        (index, entry) -> { });
                e = assertThrows(BadArgumentException.class, none::takeSnapshot);
                assertTrue(e.getMessage().contains("takes no snapshots"), e.getMessage());

                Longs machine = new Longs();
                LogReplica r = LogReplica.create(c.node(0), t, group, "big-image", SLOTS, MAX, CAPACITY, machine);
                machine.next = MemorySegment.ofArray(new byte[CAPACITY + 1]);
                e = assertThrows(BadArgumentException.class, r::takeSnapshot);
                assertTrue(e.getMessage().contains((CAPACITY + 1) + " bytes") && e.getMessage().contains("0.." + CAPACITY),
                        e.getMessage());
                assertEquals(0, r.snapshotCovers(), "the region is left as it was");
                assertEquals(0, r.snapshotsTaken());
                machine.next = MemorySegment.ofArray(new byte[CAPACITY]);
                assertEquals(0, r.takeSnapshot(), "an image of exactly the capacity fits");
            });
        }
    }
}
