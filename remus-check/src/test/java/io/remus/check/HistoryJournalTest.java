package io.remus.check;

import io.remus.check.spec.SetSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HistoryJournal}: events appended as they happen, read back with pending and voided operations. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HistoryJournalTest {
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(10)));

    @TempDir
    Path dir;

    @Test
    void shouldReadAnInvocationWithoutResponseAsPendingAndLeaveVoidedOnesOut() {
        Path file = dir.resolve("p3.journal");
        try (HistoryJournal j = HistoryJournal.create(file, HistoryClock.EPOCH_MICROS, 3)) {
            j.respond(j.invoke(0, SetSpec.ADD, 5), 1);
            j.voided(j.invoke(1, SetSpec.REMOVE, 5));
            j.invoke(1, SetSpec.REMOVE, 5);
            j.respond(j.invoke(0, SetSpec.CONTAINS, 5), 0);
        }
        HistoryFiles.Recorded r = HistoryJournal.read(file);
        assertEquals(3, r.process());
        assertEquals(HistoryClock.EPOCH_MICROS, r.clock());
        List<Operation> ops = r.operations();
        assertEquals(3, ops.size(), ops.toString());
        assertArrayEquals(new long[]{1}, ops.get(0).result());
        assertTrue(ops.get(1).isPending() && ops.get(1).kind().equals(SetSpec.REMOVE) && ops.get(1).thread() == 1, ops.toString());
        assertFalse(ops.get(2).isPending());
        assertEquals(Verdict.LINEARIZABLE, CHECKER.checkByKey(ops, new SetSpec()).verdict(),
                "contains(5) -> false is explained only by the pending remove having taken effect");
    }

    @Test
    void shouldCatchAHistoryThatNoPendingOperationExplains() {
        Path file = dir.resolve("p0.journal");
        try (HistoryJournal j = HistoryJournal.create(file, HistoryClock.EPOCH_MICROS, 0)) {
            j.respond(j.invoke(0, SetSpec.ADD, 5), 1);
            j.invoke(1, SetSpec.ADD, 6);
            j.respond(j.invoke(0, SetSpec.CONTAINS, 5), 0);
        }
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.checkByKey(HistoryJournal.read(file).operations(), new SetSpec()).verdict());
    }

    @Test
    void shouldKeepTheLinesOfAProcessKilledWithSigkillAndReadItsLastOperationAsPending() throws Exception {
        Path file = dir.resolve("p1.journal");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                JournalKilledProcessMain.class.getName(), file.toString(), dir.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(50);
            while (!Files.exists(dir.resolve("invoked"))) {
                assertTrue(child.isAlive(), () -> "the child died: " + read(dir.resolve("child.log")));
                assertTrue(System.nanoTime() - deadline < 0, "the child never journaled its invocation");
                Thread.sleep(10);
            }
        } finally {
            child.destroyForcibly();
        }
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, child.exitValue(), "killed by SIGKILL");
        List<Operation> ops = HistoryJournal.merge(List.of(file));
        assertEquals(2, ops.size(), ops.toString());
        assertFalse(ops.get(0).isPending());
        assertTrue(ops.get(1).isPending() && ops.get(1).process() == 1, ops.toString());
    }

    @Test
    void shouldIgnoreALastLineCutShort() throws Exception {
        Path file = dir.resolve("cut.journal");
        try (HistoryJournal j = HistoryJournal.create(file, HistoryClock.EPOCH_MICROS, 0)) {
            j.invoke(0, SetSpec.ADD, 5);
        }
        Files.writeString(file, "r 0 12", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
        List<Operation> ops = HistoryJournal.read(file).operations();
        assertEquals(1, ops.size());
        assertTrue(ops.getFirst().isPending());
    }

    @Test
    void shouldNameTheLineWhenAResponseHasNoInvocationOrComesTwice() throws Exception {
        Path file = dir.resolve("bad.journal");
        try (HistoryJournal j = HistoryJournal.create(file, HistoryClock.EPOCH_MICROS, 0)) {
            j.respond(j.invoke(0, SetSpec.ADD, 5), 1);
            assertThrows(HistoryFormatException.class, () -> j.respond(0, 1), "the writer refuses it");
        }
        Files.writeString(file, "r 0 12 (1)\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
        HistoryFormatException twice = assertThrows(HistoryFormatException.class, () -> HistoryJournal.read(file));
        assertTrue(twice.getMessage().contains(":6: operation 0 ended twice"), twice.getMessage());
        Path orphan = dir.resolve("orphan.journal");
        try (HistoryJournal j = HistoryJournal.create(orphan, HistoryClock.EPOCH_MICROS, 0)) {
            assertThrows(HistoryFormatException.class, () -> j.respond(4, 1), "the writer refuses it");
        }
        Files.writeString(orphan, "r 4 12 (1)\n", StandardCharsets.US_ASCII, StandardOpenOption.APPEND);
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> HistoryJournal.read(orphan));
        assertTrue(e.getMessage().contains(":4: operation 4 ended but was never invoked"), e.getMessage());
        assertThrows(HistoryFormatException.class, () -> HistoryJournal.create(dir.resolve("neg"), HistoryClock.EPOCH_MICROS, -1));
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (java.io.IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
