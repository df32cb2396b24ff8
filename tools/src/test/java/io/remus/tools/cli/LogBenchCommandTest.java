package io.remus.tools.cli;

import io.remus.bench.replicate.LogBenchmarkConfig;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench log}: its runs of the replicated log in virtual time replay from the seed, count what
 * {@code LogLeader.append} states per append (one WRITE per follower, one round trip, one slot's bytes each), and
 * its refusals name the flag and the value before anything runs.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LogBenchCommandTest {
    private static final String[] VIRTUAL = {"bench", "log", "--sim-time", "virtual", "--sim-cost", "connectx5"};

    private static RemusRun run(String... args) {
        String[] all = new String[VIRTUAL.length + args.length];
        System.arraycopy(VIRTUAL, 0, all, 0, VIRTUAL.length);
        System.arraycopy(args, 0, all, VIRTUAL.length, args.length);
        return RemusRun.of(all);
    }

    private static List<LogBenchmarkConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((LogBenchCommand) leaf.getCommand()).configs();
    }

    /** {@return the number of the JSON field {@code key} in the {@code index}-th run of {@code json}} */
    private static double number(String json, int index, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(-?[0-9.]+)").matcher(json);
        for (int i = 0; i <= index; i++) {
            assertTrue(m.find(), "run " + index + " has no " + key + ": " + json);
        }
        return Double.parseDouble(m.group(1));
    }

    @Test
    void shouldRunThreeReplicasOf64ByteEntriesWhenNoSizeIsGiven() {
        List<LogBenchmarkConfig> c = parse("bench", "log");
        assertEquals(List.of(new LogBenchmarkConfig(3, 64, 1000, 256)), c);
    }

    @Test
    void shouldRunEveryEntrySizeForEachGroupSizeInOrder() {
        List<LogBenchmarkConfig> c = parse("bench", "log", "--replicas", "3,5", "--entry-bytes", "64,1024",
                "--appends", "10", "--log-slots", "32");
        assertEquals(List.of("3x64", "3x1024", "5x64", "5x1024"),
                c.stream().map(x -> x.replicas() + "x" + x.entryBytes()).toList());
    }

    @Test
    void shouldGiveTheSameJsonForTheSameSeed() {
        RemusRun a = run("--replicas", "3", "--entry-bytes", "64", "--appends", "40", "--log-slots", "16", "--seed", "7",
                "--json");
        RemusRun b = run("--replicas", "3", "--entry-bytes", "64", "--appends", "40", "--log-slots", "16", "--seed", "7",
                "--json");
        assertEquals(0, a.exit(), a.err());
        assertTrue(a.out().contains("\"test\":\"log\""), a.out());
        assertTrue(a.out().contains("\"time\":\"virtual time, model connectx5, CPU charged as model: "), a.out());
        assertTrue(a.out().contains(", seed 7\""), a.out());
        assertEquals(a.out(), b.out(), "the same seed, the same report");
        assertEquals(40, number(a.out(), 0, "committed"));
        assertEquals(40, number(a.out(), 0, "min_applied"), "every member applied every entry");
    }

    /** Before the log wraps: {@code 2f} WRITEs of one slot each, no READ, 1 round trip per append. */
    @Test
    void shouldCountOneWritePerFollowerAndOneRoundTripPerAppend() {
        RemusRun r = run("--replicas", "3,5", "--entry-bytes", "64,1024", "--appends", "30", "--log-slots", "32", "--json");
        assertEquals(0, r.exit(), r.err());
        int[][] runs = {{3, 64}, {3, 1024}, {5, 64}, {5, 1024}};
        for (int i = 0; i < runs.length; i++) {
            int followers = runs[i][0] - 1;
            String what = runs[i][0] + " replicas, " + runs[i][1] + " B: ";
            assertEquals(runs[i][0], number(r.out(), i, "replicas"), what);
            assertEquals(followers, number(r.out(), i, "write"), what + "WRITEs per append");
            assertEquals(0, number(r.out(), i, "read"), what + "READs per append");
            assertEquals(followers, number(r.out(), i, "total"), what + "RDMA operations per append");
            assertEquals(1, number(r.out(), i, "round_trips_per_append"), what + "round trips per append");
            assertEquals(followers * LogBenchmarkConfig.slotBytes(runs[i][1]), number(r.out(), i, "bytes_written_per_append"),
                    what + "bytes per append: one slot per follower");
            assertEquals(30, number(r.out(), i, "count"), what + "latencies recorded");
            assertTrue(number(r.out(), i, "p50") >= 2_000, what + "an append takes at least connectx5's WRITE round trip");
            assertTrue(number(r.out(), i, "appends_per_sec") > 0, what);
        }
    }

    @Test
    void shouldSayHowTheFiguresWereTimedAboveTheTable() {
        RemusRun r = run("--appends", "5", "--log-slots", "8");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("remus bench log on sim\n"), r.out());
        assertTrue(r.out().contains("every figure below is virtual time, model connectx5, "), r.out());
        assertTrue(r.out().contains("p50 us"), r.out());
    }

    /**
     * {@code --fail-over}: the same seed gives the same JSON; the phases are ordered and positive; a silent node is
     * detected at the transport timeout whatever the suspicion count, a stopped process after more READs the larger
     * the count; the takeover of 3 members WRITEs its rewrites and one commit flush, one operation per round trip.
     */
    @Test
    void shouldReplayAFailOverFromItsSeedWithItsPhasesInOrder() {
        String[] args = {"--fail-over", "--crash", "node,process", "--suspect-after", "8,32", "--appends", "20",
                "--log-slots", "32", "--transport-timeout-us", "500", "--seed", "3", "--json"};
        RemusRun a = run(args);
        RemusRun b = run(args);
        assertEquals(0, a.exit(), a.err());
        assertEquals(a.out(), b.out(), "the same seed, the same report");
        assertTrue(a.out().contains("\"mode\":\"fail-over\""), a.out());
        assertTrue(a.out().contains(", seed 3\""), a.out());
        String[] crash = {"node", "node", "process", "process"};
        int[] suspect = {8, 32, 8, 32};
        double[] detection = new double[4];
        for (int i = 0; i < 4; i++) {
            String what = crash[i] + ", suspect-after " + suspect[i] + ": ";
            assertEquals(suspect[i], number(a.out(), i, "suspect_after"), what);
            detection[i] = number(a.out(), i, "detection_ns");
            double detected = number(a.out(), i, "detected_ns");
            double tookOver = number(a.out(), i, "took_over_ns");
            double firstCommit = number(a.out(), i, "first_commit_ns");
            assertTrue(detected > 0 && tookOver > detected && firstCommit > tookOver, what + a.out());
            assertEquals(detected, detection[i], what);
            assertEquals(tookOver - detected, number(a.out(), i, "takeover_ns"), what);
            assertEquals(firstCommit - tookOver, number(a.out(), i, "first_append_ns"), what);
            double writes = number(a.out(), i, "write");
            assertEquals(number(a.out(), i, "rewrite_writes") + 1, writes, what + "rewrites and one commit-flush WRITE");
            assertEquals(number(a.out(), i, "read") + writes, number(a.out(), i, "takeover_round_trips"),
                    what + "one operation per round trip");
            assertEquals(20, number(a.out(), i, "recovered"), what);
            assertEquals(21, number(a.out(), i, "min_applied"), what);
            assertEquals(0, number(a.out(), i, "false_suspicions"), what);
        }
        assertEquals(detection[0], detection[1], "a silent node: the transport timeout, whatever the count");
        assertTrue(detection[0] >= 500_000, "a silent node: at least the transport timeout: " + detection[0]);
        assertTrue(detection[2] < detection[3], "a stopped process: more READs, later: " + detection[2] + " " + detection[3]);
        assertTrue(detection[3] < 500_000, "a stopped process: no transport timeout: " + detection[3]);
    }

    @Test
    void shouldRunEveryCrashAndSuspicionCountForEachGroupAndEntrySizeInOrder() {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs("bench", "log", "--fail-over", "--replicas", "3,5", "--crash",
                "node,process", "--suspect-after", "4,8");
        LogBenchCommand c = (LogBenchCommand) parsed.subcommand().subcommand().commandSpec().commandLine().getCommand();
        List<String> runs = c.failOverConfigs().stream().map(x -> x.replicas() + " " + x.crash().flag() + " " + x.suspectAfter()
                + " " + x.appends() + " " + x.transportTimeoutNanos()).toList();
        assertEquals(List.of("3 node 4 100 1000000", "3 node 8 100 1000000", "3 process 4 100 1000000",
                "3 process 8 100 1000000", "5 node 4 100 1000000", "5 node 8 100 1000000", "5 process 4 100 1000000",
                "5 process 8 100 1000000"), runs);
    }

    @Test
    void shouldShowTheFailOverPhasesInTheTable() {
        RemusRun r = run("--fail-over", "--crash", "process", "--appends", "5", "--log-slots", "8");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every figure below is virtual time, model connectx5, "), r.out());
        assertTrue(r.out().contains("detect us takeover us 1st commit us"), r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --suspect-after 0|--suspect-after must be 1..1000000 READs, got 0",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --suspect-after 4,-1|--suspect-after must be 1..1000000 READs, got -1",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --crash fire|--crash must be node or process, got 'fire'",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --transport-timeout-us 0|--transport-timeout-us must be 1..1000000, got 0",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --transport-timeout-us 9000000000000000|--transport-timeout-us must be 1..1000000, got 9000000000000000",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --appends 256|--appends 256 with --fail-over needs --log-slots above it (the new leader recovers the log from the survivors' rings), got --log-slots 256",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --entry-bytes 4|--entry-bytes must be at least 8 with --fail-over (an entry carries its number), got 4",
            "bench log --sim-time virtual --sim-cost connectx5 --fail-over --replicas 4|--replicas must be an odd group of 2f + 1 members, 3..15, got 4",
            "bench log --sim-time host --sim-cost connectx5 --fail-over|bench log runs in virtual time only; not with --sim-time host (give --sim-time virtual --sim-cost connectx5)",
            "bench log --sim-time virtual --sim-cost connectx5 --suspect-after 8|--suspect-after is for --fail-over runs only; give --fail-over",
            "bench log --sim-time virtual --sim-cost connectx5 --crash node|--crash is for --fail-over runs only; give --fail-over",
            "bench log --sim-time virtual --sim-cost connectx5 --transport-timeout-us 100|--transport-timeout-us is for --fail-over runs only; give --fail-over"})
    void shouldRefuseABadFailOverFlagNamingItsValueBeforeAnythingRuns(String args, String firstLine) {
        RemusRun r = RemusRun.of(args.split(" "));
        assertEquals(2, r.exit(), r.err());
        assertEquals(firstLine, r.errLines().getFirst(), r.err());
        assertTrue(r.err().contains("Usage: remus bench log"), r.err());
        assertEquals("", r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bench log --sim-time virtual --sim-cost connectx5 --replicas 4|--replicas must be an odd group of 2f + 1 members, 3..15, got 4",
            "bench log --sim-time virtual --sim-cost connectx5 --replicas 3,2|--replicas must be an odd group of 2f + 1 members, 3..15, got 2",
            "bench log --sim-time virtual --sim-cost connectx5 --replicas 17|--replicas must be an odd group of 2f + 1 members, 3..15, got 17",
            "bench log --sim-time virtual --sim-cost connectx5 --entry-bytes 0|--entry-bytes must be at least 1, got 0",
            "bench log --sim-time virtual --sim-cost connectx5 --entry-bytes -8|--entry-bytes must be at least 1, got -8",
            "bench log --sim-time virtual --sim-cost connectx5 --entry-bytes 8192|--entry-bytes 8192 with --log-slots 256: a log of 256 slots of 8240 bytes takes 2109504 bytes, more than one allocation's 1048576; the largest entry with 256 slots is 4040 bytes",
            "bench log --sim-time virtual --sim-cost connectx5 --log-slots 1|--log-slots must be 2..65536, got 1",
            "bench log --sim-time virtual --sim-cost connectx5 --appends 0|--appends must be 1..10000000, got 0",
            "bench log --sim-cost connectx5|bench log runs in virtual time only; not with --sim-time host (give --sim-time virtual --sim-cost connectx5)",
            "bench log --sim-time host --sim-cost connectx5|bench log runs in virtual time only; not with --sim-time host (give --sim-time virtual --sim-cost connectx5)",
            "bench log --sim-time virtual|--sim-time virtual: virtual time needs a cost model that charges time, got model none (give --sim-cost connectx5)",
            "bench log --sim-time virtual --sim-cost none|--sim-time virtual: virtual time needs a cost model that charges time, got model none (give --sim-cost connectx5)",
            "bench log --sim-time virtual --sim-cost cx9|--sim-cost: no simulator cost model named 'cx9'; presets: [none, connectx3, connectx5, connectx6]"})
    void shouldRefuseABadFlagNamingItsValueBeforeAnythingRuns(String args, String firstLine) {
        RemusRun r = RemusRun.of(args.split(" "));
        assertEquals(2, r.exit(), r.err());
        assertEquals(firstLine, r.errLines().getFirst(), r.err());
        assertTrue(r.err().contains("Usage: remus bench log"), r.err());
        assertEquals("", r.out());
    }
}
