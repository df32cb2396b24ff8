package io.remus.tools.cli;

import io.remus.bench.perftest.BenchFlags;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import io.remus.bench.perftest.AtomicType;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTest;
import io.remus.bench.perftest.verbs.VerbsBenchOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerftestCommandTest {
    private static PerftestCommand command(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        return (PerftestCommand) parsed.subcommand().subcommand().commandSpec().commandLine().getCommand();
    }

    private static BenchSettings parse(String... args) {
        return command(args).settings();
    }

    @Test
    void shouldUsePerftestLatencyDefaultsWhenNoFlagsAreGiven() {
        BenchSettings s = parse("bench", "read-lat");
        assertEquals(BenchTest.READ_LAT, s.test());
        assertEquals(List.of(2), s.sizes());
        assertEquals(1000, s.iterations());
        assertEquals(100, s.warmupIterations());
        assertEquals(1, s.txDepth());
        assertEquals(1, s.queuePairs());
        assertNull(s.duration());
        assertEquals(AtomicType.FETCH_AND_ADD, s.atomicType());
    }

    @Test
    void shouldUsePerftestBandwidthDefaultsWhenNoFlagsAreGiven() {
        BenchSettings s = parse("bench", "write-bw");
        assertEquals(List.of(65536), s.sizes());
        assertEquals(5000, s.iterations());
        assertEquals(128, s.txDepth());
    }

    @Test
    void shouldTakePerftestFlagsWhenGiven() {
        BenchSettings s = parse("bench", "read-bw", "-s", "4096", "-n", "77", "-t", "32", "-q", "4", "-o", "8",
                "-d", "mlx5_0", "-i", "2", "-x", "3", "-I", "64", "-R", "--report_gbits", "10.0.0.1");
        assertEquals(List.of(4096), s.sizes());
        assertEquals(77, s.iterations());
        assertEquals(32, s.txDepth());
        assertEquals(4, s.queuePairs());
        assertEquals(8, s.outstandingReads());
        assertEquals(32, s.inFlightPerQueuePair());
        assertEquals(32, s.cqModeration());
    }

    @Test
    void shouldModerateCompletionsAsPerftestWhenNoCqModIsGiven() {
        assertEquals(1, parse("bench", "write-bw").cqModeration());
        assertEquals(1, parse("bench", "write-bw", "-s", "8193").cqModeration());
        assertEquals(100, parse("bench", "write-bw", "-s", "8192").cqModeration());
        assertEquals(100, parse("bench", "atomic-bw").cqModeration());
        assertEquals(100, parse("bench", "read-bw", "-a").cqModeration());
        assertEquals(16, parse("bench", "send-bw", "-s", "64", "-t", "16").cqModeration());
        assertEquals(1, parse("bench", "read-lat").cqModeration());
    }

    @Test
    void shouldTakeTheCqModWhenGiven() {
        assertEquals(10, parse("bench", "write-bw", "-Q", "10").cqModeration());
        assertEquals(7, parse("bench", "read-bw", "-s", "64", "--cq-mod", "7").cqModeration());
        assertEquals(64, parse("bench", "write-bw", "-s", "64", "-Q", "1000", "-t", "64").cqModeration());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-Q 0", "-Q 1025", "-Q x"})
    void shouldExitWithUsageWhenTheCqModIsBad(String flags) {
        RemusRun run = RemusRun.of(("bench write-bw " + flags).split(" "));
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("Usage: remus bench write-bw"), run.err());
    }

    @Test
    void shouldLeaveTheOutstandingReadsToTheDeviceWhenNoneIsGiven() {
        assertEquals(BenchSettings.DEVICE_MOST_READS, parse("bench", "read-bw").outstandingReads());
        assertEquals(255, parse("bench", "atomic-lat", "--outs", "255").outstandingReads());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-o 0", "-o 256", "-o -1", "-o x"})
    void shouldExitWithUsageWhenTheOutstandingReadsAreBad(String flags) {
        RemusRun run = RemusRun.of(("bench read-bw " + flags).split(" "));
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("Usage: remus bench read-bw"), run.err());
    }

    private static VerbsBenchOptions verbsOptions(String... args) {
        PerftestCommand c = command(args);
        return c.verbsOptions(c.settings());
    }

    @Test
    void shouldTakeTheInlineSizeWhenGivenWithoutAskingTheDevice() {
        assertEquals(64, verbsOptions("bench", "write-lat", "-I", "64").inlineSize());
        assertEquals(0, verbsOptions("bench", "send-lat", "-I", "0", "10.0.0.1").inlineSize());
        assertEquals(200, verbsOptions("bench", "write-bw", "--inline-size", "200").inlineSize());
    }

    @Test
    void shouldSendNothingInlineWithoutTheFlagWherePerftestDoesNotWhateverTheDevice() {
        assertEquals(0, verbsOptions("bench", "read-lat", "-d", "no-such-device").inlineSize());
        assertEquals(0, verbsOptions("bench", "write-bw", "-d", "no-such-device").inlineSize());
        assertEquals(0, verbsOptions("bench", "send-bw", "-d", "no-such-device", "10.0.0.1").inlineSize());
    }

    @Test
    void shouldUsePerftestsQpTimeoutWhenNoneIsGiven() {
        assertEquals(14, verbsOptions("bench", "write-bw").qpTimeout());
    }

    @Test
    void shouldTakeTheQpTimeoutWhenGiven() {
        assertEquals(18, verbsOptions("bench", "write-bw", "-u", "18").qpTimeout());
        assertEquals(0, verbsOptions("bench", "read-lat", "--qp-timeout", "0", "10.0.0.1").qpTimeout());
        assertEquals(31, verbsOptions("bench", "atomic-bw", "--qp_timeout", "31").qpTimeout());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-u -1", "-u 32", "-u x"})
    void shouldExitWithUsageWhenTheQpTimeoutIsBad(String flags) {
        RemusRun run = RemusRun.of(("bench write-bw " + flags).split(" "));
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("Usage: remus bench write-bw"), run.err());
    }

    @Test
    void shouldRunAllPowersOfTwoWhenAllSizesAreAsked() {
        List<Integer> sizes = parse("bench", "write-lat", "-a").sizes();
        assertEquals(23, sizes.size());
        assertEquals(2, sizes.getFirst());
        assertEquals(1 << 23, sizes.getLast());
    }

    @Test
    void shouldRunEachSizeInARowWhenRepeatIsGiven() {
        assertEquals(List.of(64, 64, 64), parse("bench", "read-bw", "-s", "64", "--repeat", "3").sizes());
        assertEquals(List.of(8, 8), parse("bench", "atomic-lat", "--repeat", "2").sizes());
        List<Integer> all = parse("bench", "write-lat", "-a", "--repeat", "2").sizes();
        assertEquals(46, all.size());
        assertEquals(List.of(2, 2, 4, 4), all.subList(0, 4));
        assertEquals(List.of(65536), parse("bench", "write-bw").sizes(), "one run by default");
    }

    @Test
    void shouldSignRepeatedRunsDifferentlyWhenTheRepeatsDiffer() {
        // a server given another --repeat than its client refuses it at the connection, as for -s
        assertTrue(BenchFlags.signature(parse("bench", "read-bw", "--repeat", "2"))
                != BenchFlags.signature(parse("bench", "read-bw", "--repeat", "3")));
    }

    @Test
    void shouldDefaultTheMarginWhenDurationIsGiven() {
        BenchSettings s = parse("bench", "read-lat", "-D", "4");
        assertEquals(Duration.ofSeconds(4), s.duration());
        assertEquals(Duration.ofSeconds(1), s.margin());
        assertTrue(s.durationMode());
    }

    @Test
    void shouldTakeAtomicTypeCaseInsensitivelyWhenGiven() {
        BenchSettings s = parse("bench", "atomic-lat", "-A", "cmp_and_swap");
        assertEquals(AtomicType.CMP_AND_SWAP, s.atomicType());
        assertEquals(List.of(8), s.sizes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--bogus", "-s 0", "-s x", "-n 0", "-n -5", "-D 0", "-q 0", "-t 0", "-o 0",
            "-A XOR", "-s 2 -a", "--json --perftest-format", "-D 2 -n 10", "--margin 1", "-D 2 --margin 1",
            "--fabric tcp", "-q 2", "-t 4", "--timeout 0", "a b", "-Q 4", "--repeat 0", "--repeat 1001", "--repeat x"})
    void shouldExitWithUsageWhenFlagsAreBad(String flags) {
        String[] args = ("bench read-lat " + flags).split(" ");
        RemusRun run = RemusRun.of(args);
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("Usage: remus bench read-lat"), run.err());
        assertEquals("", run.out());
    }

    @Test
    void shouldExitWithUsageWhenAtomicSizeIsNotEight() {
        RemusRun run = RemusRun.of("bench", "atomic-bw", "-s", "16");
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("8-byte"), run.err());
    }

    @Test
    void shouldExitWithUsageWhenNoSubcommandIsGiven() {
        assertEquals(2, RemusRun.of().exit());
        assertEquals(2, RemusRun.of("bench").exit());
    }

    @Test
    void shouldRunTheSendTestsOnTheSimulatorWithAResponderInThisProcess() {
        RemusRun lat = RemusRun.of("bench", "send-lat", "--fabric", "sim", "-n", "200", "-s", "64");
        assertEquals(0, lat.exit(), lat.err());
        assertTrue(lat.out().lines().anyMatch(l -> l.trim().startsWith("64 ") && l.contains(" 200 ")), lat.out());
        RemusRun bw = RemusRun.of("bench", "send-bw", "--fabric", "sim", "-n", "500", "-s", "4096");
        assertEquals(0, bw.exit(), bw.err());
        assertTrue(bw.out().lines().anyMatch(l -> l.trim().startsWith("4096 ") && l.contains(" 500 ")), bw.out());
    }
}
