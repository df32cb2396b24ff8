package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabric;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link PeerSegmentsTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}) with the rdma_cm bootstrap:
 * the memory node and the compute node in two fabrics of this process, each its own process as far as the
 * fabric knows, so the compute node reads the memory node's region table over rdma_cm.
 */
@Tag(DeviceTests.TAG)
class PeerSegmentsOnVerbsTest extends PeerSegmentsTest {
    /** The configuration of the fabric opened last: node addresses on the device, on fresh ports. */
    private static volatile ClusterConfig current;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Stream.of(Named.of("verbs, rdma_cm between two fabrics", options -> {
            String device = DeviceTests.deviceName();
            int port = 30000 + ThreadLocalRandom.current().nextInt(20000);
            String ip = DeviceAddress.ipv4(device);
            current = PeerSegmentsTest.twoNodes().nodes(List.of(ip + ":" + port, ip + ":" + (port + 1))).build();
            return VerbsFabric.open(options(device));
        }));
    }

    private static VerbsFabricOptions options(String device) {
        return VerbsFabricOptions.cluster(device, current, Duration.ofSeconds(60));
    }

    @Override
    ClusterConfig config() {
        return current;
    }

    @Override
    Fabric peerView(Fabric home) {
        return VerbsFabric.open(options(DeviceTests.deviceName()));
    }
}
