package io.remus.tools.cli;

import io.remus.bench.index.IndexBenchmarkConfig;
import io.remus.bench.structure.Ycsb;
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
 * {@code remus bench index}: its runs of the replicated index in virtual time replay from the seed, count what
 * docs/INDEX.md states per operation (at the leader {@code 4f} WRITEs and 2 round trips, at the client one RPC: 3
 * network round trips), run the hash map beside it on the same workload, and its refusals name the flag and the
 * value before anything runs.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IndexBenchCommandTest {
    private static final String[] VIRTUAL = {"bench", "index", "--sim-time", "virtual", "--sim-cost", "connectx5"};

    private static RemusRun run(String... args) {
        String[] all = new String[VIRTUAL.length + args.length];
        System.arraycopy(VIRTUAL, 0, all, 0, VIRTUAL.length);
        System.arraycopy(args, 0, all, VIRTUAL.length, args.length);
        return RemusRun.of(all);
    }

    private static List<IndexBenchmarkConfig> parse(String... args) {
        CommandLine top = Remus.commandLine(() -> 0);
        CommandLine.ParseResult parsed = top.parseArgs(args);
        CommandLine leaf = parsed.subcommand().subcommand().commandSpec().commandLine();
        return ((IndexBenchCommand) leaf.getCommand()).configs();
    }

    /**
     * {@return the number of the first JSON field {@code key} in the {@code index}-th run of {@code json}: the
     *          index's figures come before the map's ({@code rdma_per_op} before {@code map_rdma_per_op})}
     */
    private static double number(String json, int index, String key) {
        String[] runs = json.split("\\{\"shards\":");
        assertTrue(runs.length > index + 1, "no run " + index + ": " + json);
        Matcher m = Pattern.compile("\"" + key + "\":(-?[0-9.]+)").matcher(runs[index + 1]);
        assertTrue(m.find(), "run " + index + " has no " + key + ": " + json);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void shouldRunYcsbAOnTwoShardsOfThreeReplicasWhenNothingIsGiven() {
        assertEquals(List.of(new IndexBenchmarkConfig(2, 3, 2, Ycsb.A, 0, 1024, 64, 1000, 256, 1)),
                parse("bench", "index"));
    }

    @Test
    void shouldGiveTheSameJsonForTheSameSeed() {
        String[] args = {"--shards", "2", "--clients", "2", "--ycsb", "B", "--keys", "64", "--num-ops", "40",
                "--seed", "7", "--json"};
        RemusRun a = run(args);
        RemusRun b = run(args);
        assertEquals(0, a.exit(), a.err());
        assertTrue(a.out().contains("\"test\":\"index\""), a.out());
        assertTrue(a.out().contains("\"time\":\"virtual time, model connectx5, CPU charged as model: "), a.out());
        assertTrue(a.out().contains(", seed 7\""), a.out());
        assertEquals(a.out(), b.out(), "the same seed, the same report");
        assertEquals(80, number(a.out(), 0, "ops"));
        assertEquals(80, number(a.out(), 0, "map_ops"), "the map ran the same number of operations");
        assertEquals(number(a.out(), 0, "reads"), number(a.out(), 0, "found"), "every key was loaded");
    }

    /**
     * docs/INDEX.md: per operation the leader appends once ({@code 2f} WRITEs, 1 round trip) and flushes the commit
     * ({@code 2f} WRITEs, 1 round trip), and the client sends one request: 4 WRITEs and 2 leader round trips for 3
     * replicas, 8 and 2 for 5, and 3 network round trips, as long as the log does not wrap.
     */
    @Test
    void shouldCountWhatTheIndexDocumentStatesPerOperationForThreeAndFiveReplicas() {
        RemusRun r = run("--replicas", "3,5", "--shards", "2", "--clients", "2", "--ycsb", "A", "--keys", "32",
                "--num-ops", "30", "--log-slots", "256", "--json");
        assertEquals(0, r.exit(), r.err());
        int[] replicas = {3, 5};
        for (int i = 0; i < replicas.length; i++) {
            int f = (replicas[i] - 1) / 2;
            String what = replicas[i] + " replicas: ";
            assertEquals(replicas[i], number(r.out(), i, "replicas"), what);
            assertEquals(60, number(r.out(), i, "ops"), what);
            assertEquals(4 * f, number(r.out(), i, "write"), what + "WRITEs per operation at the leader");
            assertEquals(0, number(r.out(), i, "read"), what + "READs per operation at the leader");
            assertEquals(4 * f, number(r.out(), i, "total"), what + "RDMA operations per operation at the leader");
            assertEquals(2, number(r.out(), i, "leader_round_trips_per_op"), what + "leader round trips per operation");
            assertEquals(1, number(r.out(), i, "appends_per_op"), what + "one append per operation");
            assertEquals(1, number(r.out(), i, "rpcs_per_op"), what + "one request per operation");
            assertEquals(3, number(r.out(), i, "network_round_trips_per_op"), what + "network round trips per operation");
            assertEquals(0, number(r.out(), i, "not_leader_answers"), what);
            assertEquals(60, number(r.out(), i, "map_ops"), what);
            assertTrue(number(r.out(), i, "map_round_trips_per_op") >= 1, what + "the map's operations are remote");
            assertTrue(number(r.out(), i, "p50") >= 3 * 2_000, what + "at least three connectx5 round trips");
            assertTrue(number(r.out(), i, "map_over_index_throughput") > 1, what + "the unreplicated map is faster");
        }
    }

    @Test
    void shouldSayHowTheFiguresWereTimedAboveTheTable() {
        RemusRun r = run("--shards", "1", "--clients", "1", "--keys", "16", "--num-ops", "10");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("remus bench index on sim\n"), r.out());
        assertTrue(r.out().contains("every figure below is virtual time, model connectx5, "), r.out());
        assertTrue(r.out().contains("map/idx"), r.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bench index --sim-time virtual --sim-cost connectx5 --replicas 4|--replicas must be an odd group of 2f + 1 members, 3..15, got 4",
            "bench index --sim-time virtual --sim-cost connectx5 --replicas 3,2|--replicas must be an odd group of 2f + 1 members, 3..15, got 2",
            "bench index --sim-time virtual --sim-cost connectx5 --replicas 1|--replicas must be an odd group of 2f + 1 members, 3..15, got 1",
            "bench index --sim-time virtual --sim-cost connectx5 --shards 0|--shards must be 1..16, got 0",
            "bench index --sim-time virtual --sim-cost connectx5 --shards 17|--shards must be 1..16, got 17",
            "bench index --sim-time virtual --sim-cost connectx5 --shards 16 --replicas 5|--shards 16 x --replicas 5 + --clients 2 is 82 nodes, more than 64",
            "bench index --sim-time virtual --sim-cost connectx5 --clients 0|--clients must be 1..32, got 0",
            "bench index --sim-time virtual --sim-cost connectx5 --ycsb Q|--ycsb: unknown YCSB workload 'Q', expected one of [A, B, C, D, F]",
            "bench index --sim-time virtual --sim-cost connectx5 --ycsb D|--ycsb must be A, B or C for the index (gets and puts of loaded keys), got D",
            "bench index --sim-time virtual --sim-cost connectx5 --ycsb F|--ycsb must be A, B or C for the index (gets and puts of loaded keys), got F",
            "bench index --sim-time virtual --sim-cost connectx5 --zipf 1|--zipf must be 0 (YCSB's 0.99) or in (0, 1), got 1.0",
            "bench index --sim-time virtual --sim-cost connectx5 --keys 0|--keys must be 1..1048576, got 0",
            "bench index --sim-time virtual --sim-cost connectx5 --value-size 169|--value-size must be 1..168 for the index, got 169",
            "bench index --sim-time virtual --sim-cost connectx5 --num-ops 0|--num-ops must be 1..10000000, got 0",
            "bench index --sim-time virtual --sim-cost connectx5 --log-slots 1|--log-slots must be 2..3449 for the index (a log of 304-byte slots in one allocation of 1048576 bytes), got 1",
            "bench index --sim-cost connectx5|bench index runs in virtual time only; not with --sim-time host (give --sim-time virtual --sim-cost connectx5)",
            "bench index --sim-time host --sim-cost connectx5|bench index runs in virtual time only; not with --sim-time host (give --sim-time virtual --sim-cost connectx5)",
            "bench index --sim-time virtual|--sim-time virtual: virtual time needs a cost model that charges time, got model none (give --sim-cost connectx5)",
            "bench index --sim-time virtual --sim-cost cx9|--sim-cost: no simulator cost model named 'cx9'; presets: [none, connectx3, connectx5, connectx6]"})
    void shouldRefuseABadFlagNamingItsValueBeforeAnythingRuns(String args, String firstLine) {
        RemusRun r = RemusRun.of(args.split(" "));
        assertEquals(2, r.exit(), r.err());
        assertEquals(firstLine, r.errLines().getFirst(), r.err());
        assertTrue(r.err().contains("Usage: remus bench index"), r.err());
        assertEquals("", r.out());
    }
}
