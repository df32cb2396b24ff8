package io.remus.tools.cli;

import io.remus.bench.perftest.BenchFlags;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import io.remus.bench.perftest.BenchSettings;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerbsFlagsTest {
    private static BenchSettings parse(String... args) {
        return command(args).settings();
    }

    private static PerftestCommand command(String... args) {
        CommandLine.ParseResult parsed = Remus.commandLine(() -> 0).parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return (PerftestCommand) leaf.getCommand();
    }

    /** @return the receives per QP the verbs transport of this command line would post */
    private static int receiveDepth(String... args) {
        PerftestCommand command = command(args);
        return command.verbsOptions(command.settings()).receiveDepth();
    }

    @Test
    void shouldGiveBothSidesTheSameSignatureWhenTheirFlagsMatch() {
        BenchSettings server = parse("bench", "write-lat", "-s", "64", "-n", "500", "-I", "32");
        BenchSettings client = parse("bench", "write-lat", "-s", "64", "-n", "500", "-I", "32", "10.0.0.1");
        assertEquals(BenchFlags.signature(server), BenchFlags.signature(client));
    }

    @Test
    void shouldGiveDifferentSignaturesWhenIterationsOrSizesDiffer() {
        int base = BenchFlags.signature(parse("bench", "write-lat", "-s", "64", "-n", "500"));
        assertNotEquals(base, BenchFlags.signature(parse("bench", "write-lat", "-s", "64", "-n", "501")));
        assertNotEquals(base, BenchFlags.signature(parse("bench", "write-lat", "-s", "128", "-n", "500")));
        assertNotEquals(base, BenchFlags.signature(parse("bench", "read-lat", "-s", "64", "-n", "500")));
    }

    @Test
    void shouldFailCleanlyAndQuicklyWhenVerbsIsAskedOnAHostWithoutDevices() {
        RemusRun run = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> RemusRun.of("bench", "read-lat", "--fabric", "verbs", "127.0.0.1", "-p", "1", "--timeout", "2"));
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("remus: "), run.err());
        assertTrue(!run.err().contains("Exception"), run.err());
    }

    @Test
    void shouldFailSendTestsCleanlyWhenVerbsIsAskedOnAHostWithoutDevices() {
        RemusRun run = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> RemusRun.of("bench", "send-bw", "--fabric", "verbs", "127.0.0.1", "-p", "1", "--timeout", "2"));
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("remus: "), run.err());
        assertTrue(!run.err().contains("Exception"), run.err());
    }

    @Test
    void shouldTakeTheReceiveDepthOnSimForTheSendTests() {
        RemusRun run = RemusRun.of("bench", "send-lat", "--fabric", "sim", "-n", "50", "-r", "4");
        assertEquals(0, run.exit(), run.err());
        assertTrue(!run.err().contains("verbs"), "-r is no longer a verbs-only flag: " + run.err());
    }

    @Test
    void shouldGiveUsageErrorWhenTheReceiveDepthIsOutOfRange() {
        for (String depth : new String[] {"0", "16385"}) {
            RemusRun run = RemusRun.of("bench", "send-bw", "--fabric", "verbs", "-r", depth);
            assertEquals(2, run.exit(), run.err());
            assertTrue(run.err().contains("-r must be 1..16384"), run.err());
        }
    }

    @Test
    void shouldAcceptPerftestsSpellingsOfTheReceiveDepth() {
        assertEquals(512, receiveDepth("bench", "send-bw"), "the default");
        assertEquals(64, receiveDepth("bench", "send-bw", "--rx-depth", "64"));
        assertEquals(96, receiveDepth("bench", "send-bw", "--rx_depth", "96"));
        // -I given: send-lat's inline size would otherwise be asked of a device
        assertEquals(1, receiveDepth("bench", "send-lat", "-I", "0", "-r", "1"));
    }

    @Test
    void shouldGiveUsageErrorWhenTheInlineSizeIsNegative() {
        RemusRun run = RemusRun.of("bench", "write-lat", "--fabric", "verbs", "-I", "-1");
        assertEquals(2, run.exit());
        assertTrue(run.err().contains("-I must not be negative"), run.err());
    }
}
