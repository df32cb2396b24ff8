package io.remus.tools.cli;

import io.remus.bench.lock.LockFlags;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.FabricKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Combinations that would not finish are capped as perftest caps them, rejected, or warned about before the run. */
class RunBoundsTest {
    private static CommandLine leaf(String... args) {
        CommandLine.ParseResult parsed = Remus.commandLine(() -> 0).parseArgs(args);
        return parsed.subcommand().subcommand().commandSpec().commandLine();
    }

    private static PerftestCommand command(String... args) {
        return (PerftestCommand) leaf(args).getCommand();
    }

    @Test
    void shouldKeepASubMillisecondTimeoutInsteadOfRoundingItToZero() {
        assertEquals(java.time.Duration.ofNanos(400_000),
                command("bench", "read-lat", "-n", "50", "--timeout", "0.0004").settings().timeout());
        assertEquals(java.time.Duration.ofSeconds(10), command("bench", "read-lat", "-n", "50").settings().timeout());
    }

    @Test
    void shouldCapTheTxDepthAtTheIterationsAsPerftestDoes() {
        BenchSettings s = command("bench", "write-bw", "-n", "50", "-t", "128", "-s", "64").settings();
        assertEquals(50, s.txDepth());
        assertEquals(50, s.cqModeration());
        assertEquals(128, command("bench", "write-bw", "-n", "500", "-t", "128").settings().txDepth());
        assertEquals(128, command("bench", "write-bw", "-D", "2", "-t", "128").settings().txDepth(), "duration mode");
    }

    @Test
    void shouldSayThatTheTxDepthWasCappedInTheReport() {
        RemusRun run = RemusRun.of("bench", "write-bw", "--fabric", "sim", "-n", "40", "-s", "64", "--json",
                "--no-progress", "--warmup", "0");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("TX depth 128 capped at -n 40"), run.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--warmup 1000000000001", "--warmup -1", "-n 1000000000001", "-n 0", "-s 3000000000",
            "-s 268435457", "-p 0", "-p 65536", "-u 20 -R", "-t 16385", "-q 1025", "--timeout 1e9", "-i 0", "-i 256"})
    void shouldExitWithUsageNamingTheOptionWhenAValueIsAbsurd(String flags) {
        RemusRun run = RemusRun.of(("bench read-bw -n 50 " + flags).split(" "));
        assertEquals(2, run.exit(), run.err());
        String option = flags.split(" ")[0];
        String named = switch (option) {
            case "-s" -> flags.equals("-s 3000000000") ? "--size" : "-s";
            case "-n" -> flags.equals("-n 1000000000001") ? "-n" : "-n";
            case "-u" -> "-u";
            default -> option;
        };
        assertTrue(run.err().contains(named), run.err());
        assertTrue(run.err().contains("Usage: remus bench read-bw"), run.err());
    }

    @Test
    void shouldWarnBeforeARunThatMovesTerabytes() {
        PerftestCommand c = command("bench", "write-bw", "-s", "268435456", "-n", "5000");
        StringWriter err = new StringWriter();
        assertTrue(c.warnIfLong(c.settings(), new PrintWriter(err, true)));
        assertTrue(err.toString().startsWith("remus: warning: this run moves 1.3 TiB (-s 268435456, -n 5000, "
                + "--warmup 500, -q 1)"), err.toString());
        assertEquals(1, err.toString().lines().count());
        PerftestCommand small = command("bench", "write-bw");
        assertFalse(small.warnIfLong(small.settings(), new PrintWriter(new StringWriter())));
        PerftestCommand timed = command("bench", "write-bw", "-s", "268435456", "-D", "5");
        assertFalse(timed.warnIfLong(timed.settings(), new PrintWriter(new StringWriter())), "-D bounds the run");
    }

    @Test
    void shouldRejectBuffersLargerThanTheHostsMemory() {
        PerftestCommand c = command("bench", "write-bw", "-s", "268435456", "-q", "64");
        BenchSettings s = c.settings();
        CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
                () -> c.checkBuffers(s, FabricKind.SIM, 16L << 30));
        assertTrue(e.getMessage().startsWith("-s 268435456 with -q 64 needs 65536 MiB of buffers (both sides, in this "
                + "process), more than this host's 16384 MiB"), e.getMessage());
        c.checkBuffers(s, FabricKind.VERBS, 64L << 30);
        c.checkBuffers(s, FabricKind.SIM, -1);
    }

    @Test
    void shouldRejectMoreSpinningLockWorkersThanTheCap() {
        RemusRun run = RemusRun.of("bench", "lock", "--nodes", "64", "--threads", "256");
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("--nodes 64 x --threads 256 = 16384 worker threads"), run.err());
        assertTrue(run.err().contains("at most " + LockFlags.MAX_TOTAL_THREADS), run.err());
    }

    @Test
    void shouldWarnWhenLockWorkersFarOutnumberTheCpus() {
        LockBenchCommand c = (LockBenchCommand) leaf("bench", "lock", "--nodes", "4", "--threads", "4").getCommand();
        StringWriter err = new StringWriter();
        assertTrue(c.warnIfOversubscribed(new PrintWriter(err, true), 2));
        assertTrue(err.toString().startsWith("remus: warning: --nodes 4 x --threads 4 = 16 spinning worker threads on "
                + "2 CPU(s)"), err.toString());
        assertFalse(c.warnIfOversubscribed(new PrintWriter(new StringWriter()), 8));
    }

    @ParameterizedTest
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @ValueSource(strings = {"read-lat -s 268435456|moves 275.0 GiB (-s 268435456, -n 1000, --warmup 100)",
            "read-bw -q 1024 -t 16384|-q 1024 x -t 16384 (5000 after the cap at -n) = 5120000 work requests in flight",
            "read-bw -q 1024 -t 16384 -D 5|-q 1024 x -t 16384 = 16777216 work requests in flight",
            "write-bw -q 1024|-q 1024 x -t 128 = 131072 work requests in flight",
            "read-bw -s 268435456 -n 5000|-s 268435456 with -q 1 x -t 128 puts 32.0 GiB in flight",
            "write-bw -a -n 5000 -q 4|moves",
            "send-bw -s 1048576 -q 64 -t 128|-s 1048576 with -q 64 x -t 128 puts 8.0 GiB in flight",
            "read-lat --sim-latency-ns 9223372036854775807|--sim-latency-ns 9223372036854775807 is longer than --timeout 10.0 s",
            "read-lat --sim-latency-ns 2000000000 --timeout 1|--sim-latency-ns 2000000000 is longer than --timeout 1.0 s"})
    void shouldRefuseASimulatorRunPastItsBoundsBeforeItStarts(String row) {
        String[] parts = row.split("\\|");
        RemusRun run = RemusRun.of(("bench " + parts[0] + " --fabric sim").split(" "));
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains(parts[1]), run.err());
        assertTrue(run.err().contains("Usage: remus bench"), run.err());
    }

    @Test
    void shouldLetDurationBoundALargeSimulatorRunAndKeepTheBoundsOffVerbs() {
        PerftestCommand big = command("bench", "read-lat", "-s", "268435456");
        BenchSettings iterations = big.settings();
        assertThrows(CommandLine.ParameterException.class, () -> big.checkSimulatorBounds(iterations, FabricKind.SIM));
        big.checkSimulatorBounds(iterations, FabricKind.VERBS);
        PerftestCommand timed = command("bench", "read-lat", "-s", "268435456", "-D", "5");
        timed.checkSimulatorBounds(timed.settings(), FabricKind.SIM);
        PerftestCommand wide = command("bench", "read-bw", "-q", "1024", "-t", "16384");
        wide.checkSimulatorBounds(wide.settings(), FabricKind.VERBS);
        PerftestCommand fits = command("bench", "read-bw", "-q", "512", "-t", "128", "-s", "65536", "-D", "2");
        fits.checkSimulatorBounds(fits.settings(), FabricKind.SIM);
        PerftestCommand defaults = command("bench", "read-bw", "-a");
        defaults.checkSimulatorBounds(defaults.settings(), FabricKind.SIM);
    }
}
