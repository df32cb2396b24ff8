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
