package io.remus.alock.cluster;

import io.remus.core.config.ClusterConfig;
import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ClusterNode;
import io.remus.verbs.testing.ClusterTest;
import io.remus.verbs.testing.ClusterTests;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lock suite across hosts ({@link LockNodeScenario}): each guest of {@code softroce/run-cluster N}
 * plays node {@code REMUS_CLUSTER_NODE} of N, bootstrapping over rdma_cm on port {@value #PORT} + index
 * with a deadline of minutes (guests boot at different speeds), and checks its own reports.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class LockClusterTest {
    private static final int PORT = 18700;
    private static final Duration SLICE = Duration.ofSeconds(8);

    @ClusterTest
    void shouldKeepMutualExclusionWhenEveryHostLocksKeysHomedOnEveryHost() throws Exception {
        ClusterNode node = ClusterTests.node();
        Duration connect = Duration.ofMinutes(8);
        ClusterConfig config = LockNodeScenario.config(node.index(), node.addresses(), PORT);
        List<LockNodeReport> reports = LockNodeScenario.run(ProcessFabric.verbs(DeviceTests.deviceName()), config, connect, SLICE);
        assertEquals(LockNodeScenario.KINDS.size(), reports.size());
        for (LockNodeReport r : reports) {
            System.out.println(r.line());
            assertTrue(r.isClean(), r.line());
        }
    }
}
