package io.remus.bench.perftest;

import io.remus.core.sim.SimOptions;
import io.remus.bench.perftest.sim.SimBenchTransport;
import io.remus.bench.stats.BandwidthSummary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunGateTest {
    @AfterEach
    void off() {
        RunGate.use(null, null);
    }

    private static ProgressLine quiet() {
        return new ProgressLine(new PrintWriter(new StringWriter()), false);
    }

    private static BenchSettings writeBw(List<Integer> runs) {
        return new BenchSettings(BenchTest.WRITE_BW, runs, 2000, 100, null, null, 16, 1, 16, 10,
                AtomicType.FETCH_AND_ADD, Duration.ofSeconds(10), JitWait.off());
    }

    @Test
    void shouldSayReadyAndDoneAroundEachRunWhenTheHarnessSaysGo() {
        StringWriter said = new StringWriter();
        RunGate.use(new BufferedReader(new StringReader("go\ngo\ngo\n")), said);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 1, 16)) {
            List<BandwidthSummary> results = new BenchRunner(t, writeBw(List.of(64, 64, 64)), quiet(), null).bandwidth();
            assertEquals(3, results.size());
            results.forEach(r -> assertEquals(2000, r.iterations()));
        }
        assertEquals("ready 1\ndone 1\nready 2\ndone 2\nready 3\ndone 3\n", said.toString());
    }

    @Test
    void shouldFailClearlyWhenTheHarnessSaysSomethingElse() {
        StringWriter said = new StringWriter();
        RunGate.use(new BufferedReader(new StringReader("go\nstop\n")), said);
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 1, 16)) {
            BenchRunner runner = new BenchRunner(t, writeBw(List.of(64, 64)), quiet(), null);
            BenchFailedException e = assertThrows(BenchFailedException.class, runner::bandwidth);
            assertTrue(e.getMessage().contains("expected 'go' before run 2, got 'stop'"), e.getMessage());
        }
        assertEquals("ready 1\ndone 1\nready 2\n", said.toString(), "run 2 never started");
    }

    @Test
    void shouldFailClearlyWhenTheHarnessHasGone() {
        RunGate.use(new BufferedReader(new StringReader("")), new StringWriter());
        BenchFailedException e = assertThrows(BenchFailedException.class, () -> RunGate.beforeRun(1));
        assertTrue(e.getMessage().contains("the end of " + RunGate.TO_CLIENT), e.getMessage());
    }

    @Test
    void shouldDoNothingWhenOff() {
        StringWriter said = new StringWriter();
        RunGate.use(null, said); // no harness to read from: off
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            RunGate.beforeRun(1);
            RunGate.afterRun(1);
        }, "an off gate waits for nothing");
        assertEquals("", said.toString(), "an off gate says nothing");
        try (SimBenchTransport t = new SimBenchTransport(SimOptions.defaults(), 4096, 1, 16)) {
            List<BandwidthSummary> results = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> new BenchRunner(t, writeBw(List.of(64, 64)), quiet(), null).bandwidth());
            assertEquals(2, results.size(), "every run ran");
        }
        assertEquals("", said.toString());
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldTalkThroughTwoFifosWhenADirectoryIsNamed(@TempDir Path dir) throws Exception {
        for (String name : List.of(RunGate.TO_HARNESS, RunGate.TO_CLIENT)) {
            Process mkfifo = new ProcessBuilder("mkfifo", dir.resolve(name).toString()).start();
            assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo");
        }
        // the harness's side, as softroce/guest/perftest-compare.sh holds it: both FIFOs open read-write, so no open waits
        try (RandomAccessFile fromClient = new RandomAccessFile(dir.resolve(RunGate.TO_HARNESS).toFile(), "rw");
             RandomAccessFile toClient = new RandomAccessFile(dir.resolve(RunGate.TO_CLIENT).toFile(), "rw")) {
            toClient.write("go\n".getBytes(StandardCharsets.US_ASCII));
            RunGate.useDirectory(dir.toString());
            RunGate.beforeRun(1);
            RunGate.afterRun(1);
            assertEquals("ready 1", fromClient.readLine());
            assertEquals("done 1", fromClient.readLine());
        }
    }
}
