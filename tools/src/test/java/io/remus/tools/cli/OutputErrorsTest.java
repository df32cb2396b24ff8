package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Output that cannot be written is a failure: standard output that fails on write, and output files
 * that cannot be written, found before the run; each is one {@code remus:} line and exit status 1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutputErrorsTest {
    private static final String STDOUT_FAILED = "remus: cannot write to standard output (closed, full, or a broken "
            + "pipe): the output is incomplete";

    @Test
    void shouldExitOneWhenTheJsonReportCannotBeWritten() {
        RemusRun run = ToolRun.withStdout(new ToolRun.FailingStream(), null,
                "bench", "read-lat", "-n", "20", "--json", "--fabric", "sim", "--no-progress");
        assertEquals(1, run.exit(), run.err());
        assertEquals(List.of(STDOUT_FAILED), run.errLines());
    }

    @Test
    void shouldExitOneWhenTheLockColumnsOrTheHelpCannotBeWritten() {
        for (String[] args : new String[][] {{"bench", "lock", "--csv-columns"}, {"bench", "read-lat", "--help"},
            {"--version"}}) {
            RemusRun run = ToolRun.withStdout(new ToolRun.FailingStream(), null, args);
            assertEquals(1, run.exit(), String.join(" ", args) + ": " + run.err());
            assertEquals(List.of(STDOUT_FAILED), run.errLines());
        }
    }

    @Test
    void shouldExitZeroWhenStandardOutputTakesEverything() {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        RemusRun run = ToolRun.withStdout(stdout, null, "bench", "lock", "--csv-columns");
        assertEquals(0, run.exit(), run.err());
        assertTrue(stdout.toString(StandardCharsets.UTF_8).startsWith("fabric,"), stdout.toString(StandardCharsets.UTF_8));
    }

    private static void assertFailsBeforeRunning(String expected, String... args) {
        RemusRun run = RemusRun.of(ToolRun.NO_DEVICE, args);
        assertEquals(1, run.exit(), run.err());
        List<String> lines = run.err().lines().filter(l -> !l.contains("running on the simulator")).toList();
        assertEquals(List.of(expected), lines, run.err());
        assertEquals("", run.out(), "no report: the run did not start");
    }

    @Test
    void shouldFailBeforeRunningWhenTheHistogramFileIsInAMissingDirectory(@TempDir Path dir) {
        Path hgrm = dir.resolve("missing").resolve("lat.hgrm");
        assertFailsBeforeRunning("remus: --hgrm " + hgrm + ": cannot be created: " + hgrm.getParent()
                + " does not exist", "bench", "read-lat", "--fabric", "sim", "--hgrm", hgrm.toString());
    }

    @Test
    void shouldFailBeforeRunningWhenTheIntervalLogIsADirectory(@TempDir Path dir) {
        assertFailsBeforeRunning("remus: --interval-log " + dir + ": is a directory",
                "bench", "write-lat", "--fabric", "sim", "--interval-log", dir.toString());
    }

    @Test
    void shouldFailBeforeRunningWhenTheCsvIsUnderARegularFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        Path csv = file.resolve("grid.csv");
        assertFailsBeforeRunning("remus: --csv " + csv + ": cannot be created: " + file + " is not a directory",
                "bench", "lock", "--fabric", "sim", "--csv", csv.toString());
    }

    @Test
    void shouldFailBeforeRunningWhenThePlotCannotBeWritten(@TempDir Path dir) {
        Path png = dir.resolve("no").resolve("loopback.png");
        assertFailsBeforeRunning("remus: --plot " + png + ": cannot be created: " + png.getParent() + " does not exist",
                "experiment", "loopback", "--fabric", "sim", "--plot", png.toString());
    }

    @Test
    void shouldLeaveNoFileBehindAndNoContentChangedWhenChecking(@TempDir Path dir) throws Exception {
        Path fresh = dir.resolve("fresh.hgrm");
        OutputFiles.checkWritable("--hgrm", fresh);
        assertFalse(Files.exists(fresh));
        Path kept = Files.writeString(dir.resolve("kept.csv"), "a,b\n");
        OutputFiles.checkWritable("--csv", kept);
        assertEquals("a,b\n", Files.readString(kept));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void shouldNotBlockWhenTheFileIsANamedPipeWithoutAReader(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("hgrm.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0,
                "mkfifo is not available");
        OutputFiles.checkWritable("--hgrm", fifo);
        OutputFiles.checkWritable("--hgrm", Path.of("/dev/null"));
        assertTrue(Files.exists(fifo) && !Files.isRegularFile(fifo), "the pipe is left as it was");
    }

    @Test
    void shouldNameTheFirstOptionWhoseFileCannotBeWritten(@TempDir Path dir) {
        UnwritableFileException e = assertThrows(UnwritableFileException.class, () -> new OutputFiles()
                .add("--hgrm", dir.resolve("ok.hgrm")).add("--interval-log", null).add("--plot", dir).check());
        assertEquals("--plot", e.option());
        assertEquals("--plot " + dir + ": is a directory", e.getMessage());
    }

    @Test
    void shouldPrintOneLineWithoutAStackTraceWhenACommandFailsOnAFile() {
        RemusRun run = ToolRun.withStdout(new ByteArrayOutputStream(),
                new Object[] {"fail", new ToolRun.Failing(new NoSuchFileException("/gone/x.csv"))}, "fail");
        assertEquals(1, run.exit());
        assertEquals(List.of("remus: /gone/x.csv: no such file or directory"), run.errLines());
        RemusRun unchecked = ToolRun.withStdout(new ByteArrayOutputStream(), new Object[] {"fail",
            new ToolRun.Failing(new java.io.UncheckedIOException(new java.io.IOException("disk full")))}, "fail");
        assertEquals(1, unchecked.exit());
        assertEquals(List.of("remus: disk full"), unchecked.errLines());
    }
}
