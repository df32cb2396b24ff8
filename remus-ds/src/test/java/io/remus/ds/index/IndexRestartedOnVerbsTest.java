package io.remus.ds.index;

import io.remus.core.testing.ProcessFabric;
import io.remus.ds.testing.ChildProcesses;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.remus.ds.index.IndexKilledLeaderMain.FOLLOWER;
import static io.remus.ds.index.IndexKilledLeaderMain.NEW_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.NODES;
import static io.remus.ds.index.IndexKilledLeaderMain.OLD_LEADER;
import static io.remus.ds.testing.ChildProcesses.killMidOperation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An index server process killed and started again as a new process, then the leader killed, across five processes
 * on one rxe device ({@link IndexRestartedMain}): three servers of the index's one shard with fail-over on (node 0
 * leads first) and two client processes running a journaled put/get/delete workload, every process's RPC endpoint
 * opened through the cluster. Once node 0 has appended a few requests, the test kills follower node 2 with
 * {@code SIGKILL} and starts it again at once: a new process with the same node id and new memory, which joins,
 * opens its endpoint with {@link io.remus.core.RemusCluster#reopenRpcEndpoint} and rejoins its shard's group
 * ({@link IndexShardServer#rejoin}). Once node 0 has caught its log up, the test kills node 0 while it serves a
 * request ({@link ChildProcesses#killMidOperation}); nodes 1 and 2 elect node 1, whose takeover needs node 2's log,
 * and the clients finish through it.
 *
 * <p>Checks: {@link IndexKilledLeaderVerdict}'s (the clients kept completing operations, every key's history with the
 * operations pending at the kill is linearizable, each operation applied once, node 1 took over once in a higher
 * term, both survivors, node 2's second life among them, applied the same entries and end in equal states), and that
 * node 2's second life began recovering, was caught up before node 0's kill, and node 2's first life died of the
 * kill. Waits are in minutes: an emulated guest is 20 to 100 times slower than a host.
 */
@Timeout(value = 1800, unit = TimeUnit.SECONDS)
@Tag(DeviceTests.SLOW_TAG) // multi-process restarts take many minutes in a TCG guest; CI runs IndexRestartedOnShmTest
class IndexRestartedOnVerbsTest {
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final Duration REJOINED_BOUND = Duration.ofMinutes(7);
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration CHECK_BUDGET = Duration.ofSeconds(60);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    /**
     * @return heartbeat READs in a row without change before an agent suspects a member: on verbs a dead member's
     *         READs fail, so this count only guards a live leader against a guest's long stalls (20 s, as
     *         {@link IndexKilledLeaderMain#SUSPECT_AFTER})
     */
    int suspectAfter() {
        return IndexKilledLeaderMain.SUSPECT_AFTER;
    }

    /** @return how long a client's attempt waits for an answer, as {@link IndexKilledLeaderMain#ATTEMPT} */
    Duration attempt() {
        return IndexKilledLeaderMain.ATTEMPT;
    }

    @DeviceTest
    void shouldRejoinARestartedServerProcessAndFailOverWithItWhenTheLeaderIsKilled(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> all = new ArrayList<>();
        try {
            List<ChildJvm> children = new ArrayList<>();
            for (int i = 0; i < NODES; i++) {
                children.add(start(fabric, i, port, dir, IndexRestartedMain.FIRST));
            }
            all.addAll(children);
            awaitFile(dir.resolve("ready"), READY_BOUND, children);
            ChildJvm.Result firstLife = ChildProcesses.kill(children.get(FOLLOWER), "node " + FOLLOWER + "'s first life");
            System.out.println("---- node " + FOLLOWER + "'s first life\n" + firstLife.output());
            ChildJvm second = start(fabric, FOLLOWER, port, dir, IndexRestartedMain.REJOIN);
            all.add(second);
            children.set(FOLLOWER, second);
            awaitFile(dir.resolve(IndexRestartedMain.REJOINED), REJOINED_BOUND, children);
            long appliedAtCatchUp = Long.parseLong(Files.readString(dir.resolve(IndexRestartedMain.REJOINED)).strip());

            ChildProcesses.Killed killed = killMidOperation(children, OLD_LEADER, dir,
                    dir.resolve(IndexKilledLeaderMain.IN_FLIGHT), 1, READY_BOUND, MAX_STOPS, CHILD_TIMEOUT);
            List<String> outputs = killed.outputs();
            try {
                System.out.println(IndexKilledLeaderVerdict.check(dir, outputs, killed.killedAt(), CHECK_BUDGET));
            } catch (IllegalStateException e) {
                throw new AssertionError(e.getMessage() + "; the processes' outputs:\n" + String.join("\n", outputs), e);
            }
            Map<String, String> rejoined = ChildProcesses.fields(outputs.get(FOLLOWER).lines()
                    .filter(l -> l.startsWith("REJOINED ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no REJOINED line:\n" + outputs.get(FOLLOWER))));
            Map<String, String> follower = ChildProcesses.fields(outputs.get(FOLLOWER).lines()
                    .filter(l -> l.startsWith("FOLLOWER ")).findFirst().orElseThrow());
            assertEquals("true", rejoined.get("wasRecovering"), "node " + FOLLOWER + "'s rejoined log began recovering");
            assertEquals(appliedAtCatchUp, ChildProcesses.num(rejoined, "appliedAtCatchUp"), "the rejoined file");
            assertTrue(appliedAtCatchUp > 0, "node " + FOLLOWER + "'s second life applied the entries before its restart");
            assertTrue(ChildProcesses.num(follower, "entries") >= appliedAtCatchUp, "node " + FOLLOWER
                    + " applied on from its catch-up");
            assertTrue(outputs.get(NEW_LEADER).contains("LEADER "), "node " + NEW_LEADER + " reported as the leader");
        } finally {
            all.forEach(ChildJvm::close);
        }
    }

    /**
     * {@link ChildProcesses#awaitFile}, failing at once (with every child's output) when one of {@code live} exited
     * before the file appeared.
     */
    private static void awaitFile(Path file, Duration bound, List<ChildJvm> live) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!Files.exists(file) && System.nanoTime() - deadline < 0) {
            for (ChildJvm child : live) {
                if (!ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false) && !Files.exists(file)) {
                    ChildProcesses.awaitFile(file, Duration.ZERO, live);
                }
            }
            Thread.sleep(20);
        }
        ChildProcesses.awaitFile(file, Duration.ZERO, live);
    }

    private ChildJvm start(ProcessFabric fabric, int node, int port, Path dir, String life) {
        return ChildJvm.start(IndexRestartedMain.class, fabric.argument(), Integer.toString(node),
                Integer.toString(NODES), Integer.toString(port), dir.toString(), Integer.toString(suspectAfter()),
                Long.toString(attempt().toSeconds()), life);
    }
}
