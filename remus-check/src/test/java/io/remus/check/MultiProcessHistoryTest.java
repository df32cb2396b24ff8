package io.remus.check;

import io.remus.check.spec.CounterSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.remus.check.Ops.CHECKER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Histories of separate JVMs on one host merge on the shared clock: three processes increment one
 * counter in a shared mapped file, each records its own history, and the merge must check as
 * linearizable.
 */
class MultiProcessHistoryTest {
    private static final int PROCESSES = 3;
    private static final int THREADS = 2;
    private static final int OPS = 5000;

    @TempDir
    Path dir;

    @Test
    void shouldMergeHistoriesOfThreeJvmsIntoALinearizableHistory() throws Exception {
        Path counter = dir.resolve("counter");
        Files.write(counter, new byte[16]);
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<Process> children = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            Path file = dir.resolve("p" + p + ".history");
            files.add(file);
            children.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    SharedCounterProcessMain.class.getName(), counter.toString(), file.toString(), String.valueOf(p),
                    String.valueOf(THREADS), String.valueOf(OPS), String.valueOf(PROCESSES))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("p" + p + ".log").toFile()).start());
        }
        try {
            for (int p = 0; p < PROCESSES; p++) {
                Process c = children.get(p);
                Path log = dir.resolve("p" + p + ".log");
                assertTrue(c.waitFor(90, TimeUnit.SECONDS), "process " + p + " did not finish within 90 s");
                assertEquals(0, c.exitValue(), () -> "process failed: " + read(log));
            }
        } finally {
            children.forEach(Process::destroyForcibly);
        }
        List<Operation> merged = HistoryFiles.merge(files);
        assertEquals(PROCESSES * THREADS * OPS, merged.size());
        assertTrue(crossProcessOverlaps(merged) > 0, "no operation of one process overlapped another's: the test ran no concurrency");
        CHECKER.check(merged, new CounterSpec()).assertLinearizable();
    }

    private static long crossProcessOverlaps(List<Operation> ops) {
        long n = 0;
        for (int i = 1; i < ops.size(); i++) {
            Operation a = ops.get(i - 1);
            Operation b = ops.get(i);
            if (a.process() != b.process() && !a.precedes(b)) {
                n++;
            }
        }
        return n;
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (java.io.IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
