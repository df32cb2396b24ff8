package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RegistrationChecks;
import io.remus.core.sim.SimFabric;
import io.remus.core.verbs.VerbsFabricOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Values no component can use are refused where they enter, with a message naming the key and
 * the value: timeouts that would overflow a deadline, sizes beyond an {@code int} or the machine,
 * node counts beyond 16-bit node ids. Waiting without end is the explicit {@link Timeouts#FOREVER}.
 */
class ConfigLimitsTest {
    private static final long SEED = 0x5EEDL;

    private static ClusterConfig fromArgs(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--nodes=127.0.0.1");
        return ConfigSources.fromArgs(all.toArray(String[]::new));
    }

    private static void assertRefused(String key, String value, Runnable action) {
        BadArgumentException e = assertThrows(BadArgumentException.class, action::run, key + "=" + value);
        assertTrue(e.getMessage().contains(key), "message should name " + key + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(value), "message should name " + value + ": " + e.getMessage());
    }

    @Test
    void shouldRefuseNodeCountsBeyondNodeIdsBeforeNamingAnyNode() {
        for (int count : new int[] {ClusterConfig.MAX_NODES + 1, 1 << 24, Integer.MAX_VALUE, 0, -1, Integer.MIN_VALUE}) {
            assertRefused("nodeCount", Integer.toString(count), () -> ClusterConfig.builder().nodeCount(count));
        }
        ClusterConfig.builder().nodeCount(ClusterConfig.MAX_NODES);
    }

    @Test
    void shouldRefuseALauncherSizeBeyondNodeIdsWithoutRunningOutOfMemory() {
        for (String[] launcher : new String[][] {{"SLURM_PROCID", "SLURM_NTASKS"}, {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
                {"PMI_RANK", "PMI_SIZE"}}) {
            for (int size : new int[] {ClusterConfig.MAX_NODES + 1, Integer.MAX_VALUE}) {
                assertRefused("nodeCount", Integer.toString(size),
                        () -> ConfigSources.fromEnvironment(Map.of(launcher[0], "0", launcher[1], Integer.toString(size))));
            }
        }
    }

    @Test
    void shouldRefuseTimeoutsThatWouldOverflowAndAcceptForeverByName() {
        for (String bad : new String[] {"0", "-1", Long.toString(Long.MAX_VALUE), Long.toString(Long.MIN_VALUE),
                Long.toString(Timeouts.MAX_FINITE.toMillis() + 1)}) {
            assertRefused("timeout.ms", bad, () -> fromArgs("--timeout.ms=" + bad));
        }
        assertRefused("timeout.ms", "soon", () -> fromArgs("--timeout.ms=soon"));
        assertEquals(Timeouts.FOREVER, fromArgs("--timeout.ms=forever").operationTimeout());
        assertEquals(Timeouts.FOREVER, fromArgs("--timeout.ms=FOREVER").operationTimeout());
        assertEquals(Timeouts.MAX_FINITE, fromArgs("--timeout.ms=" + Timeouts.MAX_FINITE.toMillis()).operationTimeout());
        ClusterConfig forever = ClusterConfig.builder().operationTimeout(Timeouts.FOREVER).build();
        assertTrue(Timeouts.isForever(forever.operationTimeout()));
        long deadline = System.nanoTime() + forever.operationTimeout().toNanos();
        assertTrue(deadline - System.nanoTime() > 0, "a FOREVER deadline lies ahead");
        for (Duration bad : List.of(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofDays(365 * 300L),
                Timeouts.MAX_FINITE.plusNanos(1), Timeouts.FOREVER.plusNanos(1), Duration.ZERO, Duration.ofNanos(-1))) {
            BadArgumentException e = assertThrows(BadArgumentException.class,
                    () -> ClusterConfig.builder().operationTimeout(bad).build(), bad.toString());
            assertTrue(e.getMessage().contains("operationTimeout") && e.getMessage().contains(bad.toString()), e.getMessage());
        }
    }

    @Test
    void shouldYieldOnlyConvertibleTimeoutsForArbitraryMillis() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 2000; i++) {
            long millis = switch (i % 4) {
                case 0 -> random.nextLong();
                case 1 -> random.nextLong(Timeouts.MAX_FINITE.toMillis() * 2);
                case 2 -> Long.MAX_VALUE - random.nextInt(1000);
                default -> random.nextInt(10_000) - 5_000;
            };
            ClusterConfig c;
            try {
                c = fromArgs("--timeout.ms=" + millis);
            } catch (BadArgumentException e) {
                assertTrue(e.getMessage().contains("timeout.ms"), e.getMessage());
                continue;
            }
            assertTrue(millis > 0 && millis <= Timeouts.MAX_FINITE.toMillis(), "accepted " + millis);
            assertEquals(millis, c.operationTimeout().toNanos() / 1_000_000);
        }
    }

    @Test
    void shouldRefuseByteSizesThatOverflowAnIntOrTheirRange() {
        assertRefused("buffer.size", "3G", () -> fromArgs("--buffer.size=3G"));
        assertRefused("buffer.size", "2147483648", () -> fromArgs("--buffer.size=2147483648"));
        assertRefused("buffer.size", "99999999999G", () -> fromArgs("--buffer.size=99999999999G"));
        assertRefused("buffer.size", "2G", () -> fromArgs("--buffer.size=2G"));
        assertRefused("segment.size", Long.toString(1048577L << 20), () -> fromArgs("--segment.size=1048577M"));
        assertRefused("segment.size", "9223372036854775807", () -> fromArgs("--segment.size=9223372036854775807"));
        assertRefused("segment.count", "1025", () -> fromArgs("--segment.count=1025"));
        assertRefused("threads.per.node", "65537", () -> fromArgs("--threads.per.node=65537"));
        assertEquals(1 << 30, fromArgs("--buffer.size=1G").bufferSizePerThread());
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 2000; i++) {
            long value = i % 2 == 0 ? random.nextLong() : random.nextLong(1L << 42);
            String text = Long.toString(value);
            for (String key : new String[] {"buffer.size", "segment.size"}) {
                ClusterConfig c;
                try {
                    c = fromArgs("--" + key + "=" + text);
                } catch (BadArgumentException e) {
                    assertTrue(e.getMessage().contains(key), e.getMessage());
                    continue;
                }
                long got = key.equals("buffer.size") ? c.bufferSizePerThread() : c.segmentSize();
                assertEquals(value, got);
            }
        }
    }

    @Test
    void shouldRefuseASegmentLargerThanTheMachineBeforeAllocatingIt() {
        long physical = RegistrationChecks.physicalMemory();
        assumeTrue(physical > 0 && physical < ClusterConfig.MAX_SEGMENT_SIZE, "physical memory unknown or above 1 TiB");
        try (Fabric fabric = new SimFabric()) {
            FabricNode node = fabric.open(0);
            long tooBig = (physical / 4096 + 1) * 4096;
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> node.allocate(tooBig));
            assertTrue(e.getMessage().contains(Long.toString(tooBig)) && e.getMessage().contains("segment.size"), e.getMessage());
            assertEquals(4096, node.allocate(4096).length());
        }
    }

    @Test
    void shouldRefuseConnectTimeoutsThatWouldOverflow() {
        for (Duration bad : List.of(Duration.ofSeconds(Long.MAX_VALUE), Timeouts.MAX_FINITE.plusMillis(1), Duration.ZERO)) {
            BadArgumentException e = assertThrows(BadArgumentException.class,
                    () -> new VerbsFabricOptions("rxe0", 1, List.of(), bad, io.remus.core.verbs.BootstrapKind.TCP));
            assertTrue(e.getMessage().contains("connectTimeout") && e.getMessage().contains(bad.toString()), e.getMessage());
        }
        assertEquals(Timeouts.FOREVER, new VerbsFabricOptions("rxe0", 1, List.of(), Timeouts.FOREVER,
                io.remus.core.verbs.BootstrapKind.TCP).connectTimeout());
    }

    @Test
    void shouldNameTheKeyWhenAPropertiesFileHoldsAnUnusableValue() {
        Properties p = new Properties();
        p.setProperty("nodes", "127.0.0.1");
        p.setProperty("timeout.ms", "99999999999999");
        assertRefused("timeout.ms", "99999999999999", () -> ConfigSources.fromProperties(p));
    }
}
