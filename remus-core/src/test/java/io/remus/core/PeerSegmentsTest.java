package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a peer sees of a memory node's segments while the node publishes them: none or all of them, never
 * some, so a compute thread of another node that looks at the node while it starts reaches every segment
 * afterwards.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeerSegmentsTest {
    static final int SEGMENTS = 3;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /**
     * The fabric through which another process reaches the memory node's fabric {@code home}: on the
     * simulator {@code home} itself (its nodes are all in this process).
     */
    Fabric peerView(Fabric home) {
        return home;
    }

    /** {@return the configuration of {@link #config()}, to be built} */
    static ClusterConfig.Builder twoNodes() {
        return ClusterConfig.builder().nodeCount(2).memoryNodes(new NodeRange(0, 0)).computeNodes(new NodeRange(1, 1))
                .segmentSize(64 << 10).segmentCount(SEGMENTS).bufferSizePerThread(8192)
                .operationTimeout(Duration.ofSeconds(30));
    }

    /** {@return memory node 0 with {@value #SEGMENTS} segments, compute node 1; read after the fabric is made} */
    ClusterConfig config() {
        return twoNodes().build();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldShowPeersNoSegmentOrEveryOneWhileMemoryNodePublishes(Function<SimOptions, Fabric> make) {
        try (Fabric home = make.apply(SimOptions.defaults()); Fabric peer = peerView(home)) {
            FabricNode node = home.open(0);
            List<Integer> seen = new ArrayList<>();
            seen.add(peer.publishedRegions(0).size());
            try (MemoryNode memory = new MemoryNode(new PublishHookFabricNode(node, () -> seen.add(peer.publishedRegions(0).size())),
                    config().withNodeId(0))) {
                seen.add(peer.publishedRegions(0).size());
                for (int n : seen) {
                    assertTrue(n == 0 || n == SEGMENTS, "a peer saw " + n + " of node 0's " + SEGMENTS
                            + " segments while it published them; every look: " + seen);
                }
                assertEquals(SEGMENTS, seen.get(seen.size() - 1));
                List<Long> published = peer.publishedRegions(0).stream().map(r -> r.address()).toList();
                assertEquals(memory.segments().stream().map(RegisteredMemory::address).toList(), published,
                        "the segments in publication order");
            } finally {
                node.close();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldReachEverySegmentWhenPeerThreadLookedWhileMemoryNodePublished(Function<SimOptions, Fabric> make) {
        try (Fabric home = make.apply(SimOptions.defaults()); Fabric peer = peerView(home);
             RemusNode computeNode = RemusNode.start(peer, config().withNodeId(1));
             ComputeThread t = computeNode.newComputeThread()) {
            List<String> looks = new ArrayList<>();
            FabricNode node = home.open(0);
            try (MemoryNode memory = new MemoryNode(new PublishHookFabricNode(node, () -> {
                if (looks.isEmpty()) {
                    looks.add(t.isPublished(RemotePtr.of(0, node0Address(home)), 8) + "");
                }
            }), config().withNodeId(0))) {
                RegisteredMemory last = memory.segments().get(SEGMENTS - 1);
                long word = RemotePtr.of(0, last.address() + 4096);
                assertEquals(SEGMENTS, t.segmentCount(0), "segments of node 0 its peer's thread sees");
                assertTrue(t.isPublished(word, 8), "a word of node 0's last segment is published");
                t.write(word, 42);
                assertEquals(42, t.read(word));
                assertEquals(RemotePtr.of(0, last.address()), t.segmentBase(0, SEGMENTS - 1));
                assertEquals(last.length(), t.segmentLength(0, SEGMENTS - 1));
                long footprint = 8192 + 64;
                int blocks = (int) ((SEGMENTS - 1) * (config().segmentSize() / footprint)) + 1;
                for (int i = 0; i < blocks; i++) {
                    t.allocator().allocate(8000, 0);
                }
            } finally {
                node.close();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAndLookAgainWhenMemoryNodeShowsSomeOfItsSegments(Function<SimOptions, Fabric> make) {
        try (Fabric home = make.apply(SimOptions.defaults()); Fabric peer = peerView(home);
             RemusNode computeNode = RemusNode.start(peer, config().withNodeId(1));
             ComputeThread t = computeNode.newComputeThread()) {
            FabricNode node = home.open(0);
            try {
                List<RegisteredMemory> segments = new ArrayList<>();
                for (int i = 0; i < SEGMENTS; i++) {
                    segments.add(node.allocate(config().segmentSize()));
                }
                long first = RemotePtr.of(0, segments.get(0).address() + 4096);
                long last = RemotePtr.of(0, segments.get(SEGMENTS - 1).address() + 4096);
                node.publish(segments.get(0));
                BadArgumentException some = assertThrows(BadArgumentException.class, () -> t.segmentCount(0));
                assertTrue(some.getMessage().contains("publishes 1 of its " + SEGMENTS + " segments"), some.getMessage());
                assertFalse(t.isPublished(first, 8), "a node that shows some of its segments is not published yet");
                assertThrows(BadArgumentException.class, () -> t.read(first));
                for (int i = 1; i < SEGMENTS; i++) {
                    node.publish(segments.get(i));
                }
                assertEquals(SEGMENTS, t.segmentCount(0), "the thread looks again once the node shows every segment");
                assertTrue(t.isPublished(last, 8));
                t.write(last, 7);
                assertEquals(7, t.read(last));
                BadArgumentException beyond = assertThrows(BadArgumentException.class, () -> t.segmentBase(0, SEGMENTS));
                assertTrue(beyond.getMessage().contains("segment " + SEGMENTS + " of node 0"), beyond.getMessage());
                assertThrows(BadArgumentException.class, () -> t.segmentLength(0, -1));
            } finally {
                node.close();
            }
        }
    }

    /** {@return the address of node 0's first published region, or 0 when it published none} */
    private static long node0Address(Fabric home) {
        var regions = home.publishedRegions(0);
        return regions.isEmpty() ? 0 : regions.get(0).address();
    }
}
