package io.remus.ds.index;

import io.remus.core.testing.ProcessFabric;
import io.remus.ds.testing.ChildProcesses;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.remus.ds.index.IndexKilledLeaderMain.NODES;
import static io.remus.ds.index.IndexKilledLeaderMain.OLD_LEADER;
import static io.remus.ds.testing.ChildProcesses.killMidOperation;

/**
 * Leader change of the replicated index across five processes on one rxe device ({@link IndexKilledLeaderMain}):
 * three servers of the index's one shard with fail-over on, the first of which (node 0) the group elects and which
 * takes the shard over, and two client processes running a journaled put/get/delete workload over a few keys; the
 * test kills node 0 with {@code SIGKILL} while it serves a request ({@link ChildProcesses#killMidOperation}: between
 * the request's append and the end of its reply). The survivors' agents suspect it and elect node 1, which takes
 * the shard over; the clients find it by themselves. The checks, on counts and contents, are
 * {@link IndexKilledLeaderVerdict}'s: the clients keep completing operations, every key's history (the operations in
 * flight at the kill among them) is linearizable, each operation is applied once, node 1 took over once in a higher
 * term, and the survivors' states are equal.
 * Waits are in minutes: an emulated guest is 20 to 100 times slower than a host.
 */
@Timeout(value = 1200, unit = TimeUnit.SECONDS)
class IndexKilledLeaderOnVerbsTest {
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);
    private static final Duration CHECK_BUDGET = Duration.ofSeconds(60);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldFailOverAndApplyEachOperationOnceWhenTheLeaderIsKilledMidRequest(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(IndexKilledLeaderMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), dir.toString()));
            }
            ChildProcesses.Killed killed = killMidOperation(children, OLD_LEADER, dir,
                    dir.resolve(IndexKilledLeaderMain.IN_FLIGHT), 1, READY_BOUND, MAX_STOPS, CHILD_TIMEOUT);
            List<String> outputs = killed.outputs();
            try {
                System.out.println(IndexKilledLeaderVerdict.check(dir, outputs, killed.killedAt(), CHECK_BUDGET));
            } catch (IllegalStateException e) {
                throw new AssertionError(e.getMessage() + "; the processes' outputs:\n" + String.join("\n", outputs), e);
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
