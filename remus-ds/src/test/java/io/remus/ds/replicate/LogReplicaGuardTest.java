package io.remus.ds.replicate;

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

/**
 * A replica's guard on its slots, with slot images stored by hand and a commit count that covers them: a slot
 * whose canary, checksum, check or stamp disagrees is left (counted) and never applied, whatever the commit
 * count says; once whole, it is applied.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LogReplicaGuardTest {
    private static final int SLOTS = 4;
    private static final int MAX = 32;

    /** Stores entry {@code index} (its bytes {@code index + j}) whole into {@code log}; returns the slot's offset. */
    private static long store(MemorySegment log, long index, int length) {
        int slotBytes = LogLayout.slotBytes(MAX);
        long offset = LogLayout.HEADER_BYTES + (index % SLOTS) * slotBytes;
        MemorySegment slot = log.asSlice(offset, slotBytes);
        slot.fill((byte) 0);
        long stamp = index + 1;
        slot.set(ValueLayout.JAVA_LONG, LogLayout.STAMP, stamp);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.TERM, 1);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.SLOT_COMMIT, index);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.CHECK, LogLayout.check(stamp, length));
        for (int j = 0; j < length; j++) {
            slot.set(ValueLayout.JAVA_BYTE, LogLayout.PAYLOAD + j, (byte) (index + j));
        }
        long checksum = LogLayout.checksum(slot, length);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.CHECKSUM, checksum);
        slot.set(ValueLayout.JAVA_LONG, LogLayout.PAYLOAD + LogLayout.padded(length), checksum);
        return offset;
    }

    @Test
    void shouldApplyNoSlotWhoseCanaryChecksumCheckOrStampDisagreesEvenWhenTheCommitCountCoversIt() throws InterruptedException {
        try (TestCluster c = new TestCluster(SimFabric::new, SimOptions.defaults(), 3, b -> { })) {
            c.runOnThreads(new int[] {0}, (unused, t) -> {
                List<Long> applied = new ArrayList<>();
                LogReplica r = LogReplica.create(c.node(0), t, ReplicaGroup.of(0, 1, 2), "guard", SLOTS, MAX,
                        (index, e) -> applied.add(index));
                MemorySegment log = c.raw(r.ptr(), LogLayout.logBytes(SLOTS, MAX));
                store(log, 0, 20);
                assertEquals(0, r.applyCommitted(), "entry 0 is whole but no commit count covers it yet");
                assertEquals(1, r.received());
                log.set(ValueLayout.JAVA_LONG, LogLayout.COMMIT, 100);
                assertEquals(1, r.applyCommitted(), "a flushed commit count covers it");

                long offset = store(log, 1, 20);
                long canary = offset + LogLayout.PAYLOAD + LogLayout.padded(20);
                long whole = log.get(ValueLayout.JAVA_LONG, canary);
                log.set(ValueLayout.JAVA_LONG, canary, whole ^ 0xFFFF_FFFFL);
                assertEquals(0, r.applyCommitted(), "a canary not landed yet (a WRITE torn before its last word)");
                log.set(ValueLayout.JAVA_LONG, canary, whole);

                log.set(ValueLayout.JAVA_BYTE, offset + LogLayout.PAYLOAD + 3, (byte) 77);
                assertEquals(0, r.applyCommitted(), "a payload byte that disagrees with the checksum");
                log.set(ValueLayout.JAVA_BYTE, offset + LogLayout.PAYLOAD + 3, (byte) 4);

                long check = log.get(ValueLayout.JAVA_LONG, offset + LogLayout.CHECK);
                log.set(ValueLayout.JAVA_LONG, offset + LogLayout.CHECK, LogLayout.check(2, MAX + 1));
                assertEquals(0, r.applyCommitted(), "a length above the limit");
                log.set(ValueLayout.JAVA_LONG, offset + LogLayout.CHECK, check);

                log.set(ValueLayout.JAVA_LONG, offset + LogLayout.STAMP, 2 + SLOTS);
                assertEquals(0, r.applyCommitted(), "another lap's stamp");
                assertEquals(3, r.incompleteSlots(), "three slots with the expected stamp were left as incomplete");
                log.set(ValueLayout.JAVA_LONG, offset + LogLayout.STAMP, 2);

                assertEquals(1, r.applyCommitted(), "the whole slot is applied");
                assertEquals(List.of(0L, 1L), applied);
                assertEquals(2, log.get(ValueLayout.JAVA_LONG, LogLayout.APPLIED), "the applied count the leader READs");
            });
        }
    }
}
