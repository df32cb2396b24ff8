package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link MemoryNode}'s set-up: a node that cannot publish its segments keeps none of them. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MemoryNodeTest {
    @Test
    void shouldCloseEverySegmentWhenTheyCannotBePublished() {
        try (Fabric fabric = new SimFabric()) {
            CountingFabricNode node = new CountingFabricNode(fabric.open(0), 1 << 16);
            ClusterConfig config = ClusterConfig.builder().nodeCount(1).segmentSize(64 << 10).segmentCount(3).build();
            assertThrows(UnsupportedOperationException.class, () -> new MemoryNode(node, config));
            assertEquals(3, node.registrations.get());
            assertEquals(3, node.registrationCloses.get(), "segments closed after the publication failed");
            assertEquals(List.of(), fabric.publishedRegions(0));
        }
    }
}
