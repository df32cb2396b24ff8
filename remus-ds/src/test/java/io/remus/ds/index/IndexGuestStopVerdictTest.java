package io.remus.ds.index;

import io.remus.check.HistoryClock;
import io.remus.check.HistoryJournal;
import io.remus.check.spec.MapSpec;
import io.remus.ds.replicate.GuestStopMain;
import io.remus.ds.replicate.GuestStopMain.NodeArgs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static io.remus.ds.index.IndexKilledLeaderMain.AFTER;
import static io.remus.ds.index.IndexKilledLeaderMain.CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.OTHER_CLIENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link IndexGuestStopMain}'s argument parsing and verdict on canned files, without a guest: a run in which each
 * client put one key before the stop and read it {@value IndexKilledLeaderMain#AFTER} times after, then the final
 * reads, passes; the same run with an acknowledged write lost, an operation applied twice, the survivors' states
 * apart or a log missing fails, naming what is wrong.
 */
class IndexGuestStopVerdictTest {
    private static final long WORD_3 = ((long) CLIENT << 32) | 1;
    private static final long WORD_4 = ((long) OTHER_CLIENT << 32) | 1;
    private static final String NODE_ARGS = "node rxe0 %s 198.18.0.2,198.18.0.1,198.18.0.1,198.18.0.1,198.18.0.1 18700 /tmp 240000";

    @Test
    void shouldPassACannedRunThatKeptEveryPropertyAndWriteItsVerdict(@TempDir Path dir) throws Exception {
        cannedRun(dir, false, 0, false);

        String counts = IndexGuestStopMain.check(dir);
        boolean passed = GuestStopMain.writeVerdict(dir, () -> IndexGuestStopMain.check(dir));

        assertTrue(counts.contains("operations=" + (2 * (1 + AFTER) + IndexKilledFollowerMain.KEYS)), counts);
        assertTrue(counts.contains("acrossKill=1 ") && counts.contains("term=2") && counts.contains("survivors=2 equal"),
                counts);
        assertTrue(passed);
        assertTrue(Files.readString(dir.resolve("verdict")).startsWith("VERDICT PASSED operations="));
    }

    @Test
    void shouldFailWhenAnAcknowledgedWriteIsLost(@TempDir Path dir) throws Exception {
        cannedRun(dir, true, 0, false);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> IndexGuestStopMain.check(dir));
        boolean passed = GuestStopMain.writeVerdict(dir, () -> IndexGuestStopMain.check(dir));

        assertTrue(e.getMessage().startsWith("per-key histories: "), e.getMessage());
        assertEquals(false, passed);
        assertTrue(Files.readString(dir.resolve("verdict")).startsWith("VERDICT FAILED per-key histories: "));
    }

    @Test
    void shouldFailWhenAnOperationIsAppliedTwice(@TempDir Path dir) throws Exception {
        cannedRun(dir, false, 1, false);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> IndexGuestStopMain.check(dir));

        assertEquals("node 1 applied " + (2 * (1 + AFTER) + IndexKilledFollowerMain.KEYS + 1) + " commands for "
                + (2 * (1 + AFTER) + IndexKilledFollowerMain.KEYS) + " operations", e.getMessage());
    }

    @Test
    void shouldFailWhenTheSurvivorsStatesDiffer(@TempDir Path dir) throws Exception {
        cannedRun(dir, false, 0, true);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> IndexGuestStopMain.check(dir));

        assertEquals("the survivors' states differ", e.getMessage());
    }

    @Test
    void shouldFailWithoutTheStoppedLeadersLog(@TempDir Path dir) throws Exception {
        cannedRun(dir, false, 0, false);
        Files.delete(dir.resolve("node0.log"));

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> IndexGuestStopMain.check(dir));

        assertEquals("no node0.log", e.getMessage());
    }

    @Test
    void shouldParseANodesArgumentsAndRefuseBadOnes() {
        NodeArgs node = IndexGuestStopMain.parse(NODE_ARGS.formatted("3").split(" "));

        assertEquals("rxe0", node.device());
        assertEquals(3, node.nodeId());
        assertEquals(List.of("198.18.0.2", "198.18.0.1", "198.18.0.1", "198.18.0.1", "198.18.0.1"), node.hosts());
        assertEquals(18700, node.basePort());
        assertEquals(Path.of("/tmp"), node.dir());
        assertEquals(Duration.ofMillis(240000), node.connect());
        assertEquals("NODE_ID 5 is not in 0..4", assertThrows(IllegalArgumentException.class,
                () -> IndexGuestStopMain.parse(NODE_ARGS.formatted("5").split(" "))).getMessage());
        assertEquals("NODE_ID x is not a number", assertThrows(IllegalArgumentException.class,
                () -> IndexGuestStopMain.parse(NODE_ARGS.formatted("x").split(" "))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> IndexGuestStopMain.parse(
                "node rxe0 1 198.18.0.2,198.18.0.1,198.18.0.1 18700 /tmp 240000".split(" "))).getMessage()
                .startsWith("HOSTS names 3 nodes, this run has 5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> IndexGuestStopMain.parse(
                new String[] {"node", "rxe0"})).getMessage().startsWith("expected " + NodeArgs.USAGE));
    }

    /**
     * Writes the files of a run: client 3 puts key 1 and client 4 key 2 before the stop, each then reads its key
     * {@value IndexKilledLeaderMain#AFTER} times, and the final reads see both; {@code lost} makes the final read of
     * key 1 find nothing, {@code twice} adds applied commands, {@code apart} changes the follower's state.
     */
    private static void cannedRun(Path dir, boolean lost, int twice, boolean apart) throws IOException {
        long killSeen3 = clientJournal(dir, CLIENT, 1, WORD_3);
        long killSeen4 = clientJournal(dir, OTHER_CLIENT, 2, WORD_4);
        try (HistoryJournal j = HistoryJournal.create(dir.resolve("map-sweep.journal"), HistoryClock.EPOCH_MICROS,
                IndexKilledLeaderMain.NODES)) {
            for (long k = 1; k <= IndexKilledFollowerMain.KEYS; k++) {
                int op = j.invoke(0, MapSpec.GET, k);
                long word = k == 1 && !lost ? WORD_3 : k == 2 ? WORD_4 : 0;
                if (word == 0) {
                    j.respond(op, 0);
                } else {
                    j.respond(op, 1, word);
                }
            }
        }
        long ops = 1 + AFTER;
        long applied = 2 * ops + IndexKilledFollowerMain.KEYS + twice;
        long entries = applied + 1;
        String agent = " elected=1 suspectsOld=true grantSwitches=1 polls=900 failedReads=3";
        Files.writeString(dir.resolve("node0.log"), "PROGRESS joining node=0\nPROGRESS leading node=0 term=1\n");
        Files.writeString(dir.resolve("node1.log"), "PROGRESS node 1 leads term=2\nLEADER term=2 takeovers=1 entries="
                + entries + " applied=" + applied + " duplicates=1 malformed=0 fencedWrites=0" + agent + " seq1003=" + ops
                + " seq1004=" + ops + " seq1005=" + IndexKilledFollowerMain.KEYS + "\nCLOSE LeaveException: node 0\n");
        Files.writeString(dir.resolve("node2.log"), "FOLLOWER node=2 leads=false entries=" + entries + " applied="
                + applied + " duplicates=1 notLeader=4 takeovers=0" + agent + "\n");
        Files.writeString(dir.resolve("node3.log"), "CLIENT node=3 client=1003 before=1 after=" + AFTER + " killSeen="
                + killSeen3 + " sequence=" + ops + "\nSWEEP key1=" + (lost ? "-" : Long.toString(WORD_3)) + " key2="
                + WORD_4 + " key3=- key4=-\n");
        Files.writeString(dir.resolve("node4.log"), "CLIENT node=4 client=1004 before=1 after=" + AFTER + " killSeen="
                + killSeen4 + " sequence=" + ops + "\n");
        String state = state(lost, ops, WORD_4);
        Files.writeString(dir.resolve("state-1"), state);
        Files.writeString(dir.resolve("state-2"), apart ? state(lost, ops, WORD_4 + 1) : state);
    }

    /**
     * Client {@code node}'s journal: a put of {@code word} at {@code key}, then reads of it; client 3's put is in
     * flight at the instant written to {@code killed-at}. Returns the client's killSeen.
     */
    private static long clientJournal(Path dir, int node, long key, long word) throws IOException {
        try (HistoryJournal j = HistoryJournal.create(dir.resolve("map-" + node + ".journal"), HistoryClock.EPOCH_MICROS,
                node)) {
            int put = j.invoke(0, MapSpec.PUT, key, word);
            if (node == CLIENT) {
                Files.writeString(dir.resolve(IndexGuestStopMain.KILLED_AT), Long.toString(later(
                        HistoryClock.EPOCH_MICROS.now())));
                later(HistoryClock.EPOCH_MICROS.now());
            }
            j.respond(put, 1);
            long killSeen = later(HistoryClock.EPOCH_MICROS.now());
            later(killSeen);
            for (int i = 0; i < AFTER; i++) {
                j.respond(j.invoke(0, MapSpec.GET, key), 1, word);
            }
            return killSeen;
        }
    }

    /** {@return {@code after}, once the journals' clock has passed it} */
    private static long later(long after) {
        while (HistoryClock.EPOCH_MICROS.now() <= after) {
            Thread.onSpinWait();
        }
        return after;
    }

    /** {@return an {@link IndexStateMachine#describe()} of key 1 (unless {@code lost}) and key 2 holding {@code word2}} */
    private static String state(boolean lost, long ops, long word2) {
        HexFormat hex = HexFormat.of();
        String key1 = "k:" + hex.formatHex(IndexKilledFollowerMain.key(1)) + "="
                + hex.formatHex(ByteBuffer.allocate(8).putLong(WORD_3).array());
        String key2 = "k:" + hex.formatHex(IndexKilledFollowerMain.key(2)) + "="
                + hex.formatHex(ByteBuffer.allocate(8).putLong(word2).array());
        return "{c:1003=" + ops + " OK -, c:1004=" + ops + " OK -, c:1005=" + IndexKilledFollowerMain.KEYS + " OK -, "
                + (lost ? "" : key1 + ", ") + key2 + "}";
    }
}
