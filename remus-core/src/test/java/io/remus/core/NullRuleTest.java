package io.remus.core;

import io.remus.core.config.ClusterConfig;
import io.remus.core.config.ConfigSources;
import io.remus.core.config.Hostfile;
import io.remus.core.config.NodeAddress;
import io.remus.core.config.NodeRange;
import io.remus.core.config.SlurmHostList;
import io.remus.core.config.Timeouts;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.core.verbs.bootstrap.BootstrapClient;
import io.remus.core.verbs.bootstrap.BootstrapCodec;
import io.remus.core.verbs.bootstrap.BootstrapMessage;
import io.remus.core.verbs.bootstrap.RegionTable;
import io.remus.core.verbs.bootstrap.RegionTableCodec;
import io.remus.verbs.Endpoint;
import io.remus.verbs.Gid;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule for nulls stated in each package's documentation, over remus-core's public records,
 * builders and side-effect-free factories: a {@link NullPointerException} naming the parameter.
 */
class NullRuleTest {
    private static final Set<String> PACKAGES = Set.of("io.remus.core", "io.remus.core.fabric", "io.remus.core.sim",
            "io.remus.core.memory", "io.remus.core.config", "io.remus.core.error", "io.remus.core.verbs",
            "io.remus.core.verbs.bootstrap");

    private static Map<Class<?>, Object> samples() {
        Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
        samples.put(Endpoint.class, new Endpoint(1, 1, 0, Gid.ZERO));
        samples.put(NodeRange.class, new NodeRange(0, 0));
        samples.put(Path.class, Path.of("/nonexistent/remus-null-rule"));
        samples.put(Properties.class, new Properties());
        samples.put(Map.class, Map.of());
        samples.put(InputStream.class, new ByteArrayInputStream(new byte[0]));
        samples.put(BootstrapMessage.class, new BootstrapMessage.RegionsRequest(1));
        samples.put(RegionTable.class, new RegionTable(0, List.of()));
        samples.put(RemoteRegion.class, new RemoteRegion(0, 4096, 4096, 1));
        samples.put(InetSocketAddress.class, new InetSocketAddress(InetAddress.getLoopbackAddress(), 1));
        samples.put(ClusterConfig.class, ClusterConfig.builder().nodes(List.of("127.0.0.1")).build());
        samples.put(SimOptions.class, SimOptions.defaults());
        samples.put(SimCostModel.class, SimCostModel.NONE);
        return samples;
    }

    @Test
    void shouldThrowNullPointerNamingTheComponentWhenARecordGetsNull() {
        List<Class<?>> records = NullRule.publicRecords(ClusterConfig.class, PACKAGES);
        assertTrue(records.contains(ClusterConfig.class) && records.contains(BootstrapMessage.ConnectRequest.class)
                && records.contains(VerbsFabricOptions.class), records.toString());
        List<String> violations = new ArrayList<>();
        for (Class<?> record : records) {
            violations.addAll(NullRule.checkRecord(record, samples(), Set.of()));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldThrowNullPointerNamingTheSetterWhenABuilderGetsNull() {
        assertEquals(List.of(), NullRule.checkBuilder(ClusterConfig.builder(), Set.of()));
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenAFactoryOrParserGetsNull() {
        List<String> violations = new ArrayList<>();
        for (Class<?> type : List.of(ConfigSources.class, Hostfile.class, SlurmHostList.class, NodeRange.class,
                NodeAddress.class, Timeouts.class, BootstrapCodec.class, RegionTableCodec.class, VerbsFabricOptions.class,
                BootstrapClient.class)) {
            violations.addAll(NullRule.checkStaticMethods(type, samples(), Set.of()));
        }
        assertEquals(List.of(), violations);
    }
}
