package io.remus.core.verbs;

import io.remus.core.config.ClusterConfig;
import io.remus.core.testing.ClusterProcess;
import io.remus.verbs.testing.ClusterNode;
import io.remus.verbs.testing.ClusterTest;
import io.remus.verbs.testing.ClusterTests;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The multi-node scenario across hosts: each guest of {@code softroce/run-cluster} plays node
 * {@code REMUS_CLUSTER_NODE}, bootstrapping over rdma_cm on port {@value #PORT} + index and retrying
 * until a generous deadline (guests boot at different speeds).
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class ClusterScenarioTest {
    private static final int PORT = 18600;
    private static final int OPS = 50;

    @ClusterTest
    void shouldCountExactlyWhenEveryHostSharesCounters() throws Exception {
        ClusterNode node = ClusterTests.node();
        String device = DeviceTests.deviceName();
        Duration connect = Duration.ofMinutes(8);
        ClusterConfig config = ClusterProcess.config(node.index(), node.addresses(), PORT);
        VerbsFabricOptions options = MultiNodeScenario.options(device, config, connect, BootstrapKind.RDMA_CM);
        String result = MultiNodeScenario.run(options, config, OPS, connect);
        if (node.index() == 0) {
            long total = (long) node.size() * OPS;
            assertEquals("TOTALS faa=" + total + " cas=" + total + " slots=" + total, result);
        } else {
            assertEquals("DONE", result);
        }
    }
}
