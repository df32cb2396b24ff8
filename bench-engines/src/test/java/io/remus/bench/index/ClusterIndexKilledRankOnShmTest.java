package io.remus.bench.index;

import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.remus.bench.index.ClusterIndexKilledRankMain.NODES;
import static io.remus.bench.index.ClusterIndexKilledRankMain.OPS;
import static io.remus.bench.index.ClusterIndexKilledRankMain.VICTIM;
import static io.remus.ds.testing.ChildProcesses.fields;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The index benchmark with one process per node ({@link ClusterIndexBenchmark}) survives a killed leader rank: four
 * processes on this host's shared-memory fabric ({@link ClusterIndexKilledRankMain}); once every node runs its
 * measured operations, node {@value ClusterIndexKilledRankMain#VICTIM}, the leader of shard 1, is killed with
 * SIGKILL. The survivors' agents suspect it (by count: on this fabric its memory outlives it), node 2 takes shard 1
 * over, the clients find it, every survivor finishes its operations, and node 0 reports the survivors' operations,
 * a takeover and the dead node. Node 0 leads shards 0, 2 and 3 and coordinates the run, so it is not the victim.
 *
 * <p>Not checked here: that no acknowledged put is lost (the benchmark records no history of what it acknowledged;
 * the index's own kill tests, such as {@code IndexKilledLeaderOnShmTest}, check that with a linearizability checker).
 * Checked instead: each survivor's every operation was answered and counted, and every get found its loaded key.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ClusterIndexKilledRankOnShmTest {
    private static final Duration READY_BOUND = Duration.ofMinutes(5);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(4);

    @Test
    void shouldFinishOnTheSurvivorsAndReportATakeoverWhenALeaderRankIsKilledMidRun(@TempDir Path dir)
            throws InterruptedException {
        ProcessFabric fabric = ProcessFabric.freshShm();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(ClusterIndexKilledRankMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), dir.toString()));
            }
            long deadline = System.nanoTime() + READY_BOUND.toNanos();
            while (!Files.exists(dir.resolve("measuring-" + VICTIM))) {
                if (System.nanoTime() - deadline > 0) {
                    fail("node " + VICTIM + " did not start its operations within " + READY_BOUND + ":\n"
                            + children.get(VICTIM).await(Duration.ZERO).output());
                }
                Thread.sleep(20);
            }
            Thread.sleep(200);
            ChildJvm.Result victim = children.get(VICTIM).await(Duration.ZERO);
            assertTrue(victim.timedOut(), "node " + VICTIM + " was still running when it was killed:\n"
                    + victim.output());
            String report = null;
            for (int i = 0; i < NODES; i++) {
                if (i == VICTIM) {
                    continue;
                }
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "survivor " + i + " failed:\n" + r.output());
                assertTrue(r.output().contains("DONE node=" + i), r.output());
                if (i == 0) {
                    report = r.output().lines().filter(l -> l.startsWith("REPORT ")).findFirst()
                            .orElseThrow(() -> new AssertionError("node 0 printed no report:\n" + r.output()));
                }
            }
            System.out.println(report);
            Map<String, String> f = fields(report);
            assertEquals("[" + VICTIM + "]", f.get("absent"), "node 0 names the dead node: " + report);
            long survivors = NODES - 1;
            assertEquals(survivors * OPS, num(f, "reads") + num(f, "updates"),
                    "every survivor's operations, answered and counted: " + report);
            assertEquals(survivors * OPS, num(f, "samples"), report);
            assertEquals(num(f, "reads"), num(f, "found"), "every get found its loaded key: " + report);
            assertTrue(num(f, "takeovers") >= 1, "a survivor took the dead leader's shard over: " + report);
            assertTrue(num(f, "term") > 0, report);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
