package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostfileTest {
    @Test
    void shouldSkipCommentsAndBlankLinesWhenParsing() {
        List<String> hosts = Hostfile.parse("# cluster\n\n10.0.0.1:7000\n  10.0.0.2   # second\r\nhost-c\n", "hosts");
        assertEquals(List.of("10.0.0.1:7000", "10.0.0.2", "host-c"), hosts);
    }

    @Test
    void shouldNameFileAndLineWhenALineIsMalformed() {
        BadArgumentException twoHosts = assertThrows(BadArgumentException.class,
                () -> Hostfile.parse("a\nb c\n", "hosts.txt"));
        assertTrue(twoHosts.getMessage().startsWith("hosts.txt:2:"), twoHosts.getMessage());
        BadArgumentException badPort = assertThrows(BadArgumentException.class,
                () -> Hostfile.parse("# x\na:http\n", "hosts.txt"));
        assertTrue(badPort.getMessage().startsWith("hosts.txt:2:"), badPort.getMessage());
        assertThrows(BadArgumentException.class, () -> Hostfile.parse("a:0\n", "h"));
        assertThrows(BadArgumentException.class, () -> Hostfile.parse("a:70000\n", "h"));
        assertThrows(BadArgumentException.class, () -> Hostfile.parse("fe80::1\n", "h"));
        assertThrows(BadArgumentException.class, () -> Hostfile.parse(":7000\n", "h"));
        assertThrows(BadArgumentException.class, () -> Hostfile.parse("# nothing\n\n", "h"));
    }

    @Test
    void shouldFailWithTypedErrorWhenHostfileIsMissing(@TempDir Path dir) {
        assertThrows(BadArgumentException.class, () -> Hostfile.read(dir.resolve("none")));
    }

    @Test
    void shouldGiveEveryNodeAnAddressWithDefaultPortsByNodeId() {
        ClusterConfig c = ConfigSources.fromArgs("--nodes=10.0.0.1,10.0.0.1,10.0.0.2:9000", "--node.id=1");
        assertEquals(new NodeAddress("10.0.0.1", NodeAddress.DEFAULT_BASE_PORT), c.nodeAddress(0));
        assertEquals(new NodeAddress("10.0.0.1", NodeAddress.DEFAULT_BASE_PORT + 1), c.nodeAddress(1));
        assertEquals(new NodeAddress("10.0.0.2", 9000), c.nodeAddress(2));
        assertEquals(3, c.nodeAddresses().size());
        assertThrows(BadArgumentException.class, () -> c.nodeAddress(3));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--nodes=a:1:2"));
    }

    @Test
    void shouldReadNodeListWhenHostfileIsGivenByArgumentOrEnvironment(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("hosts");
        Files.writeString(f, "# three nodes\n198.18.0.1:18600\n198.18.0.2:18601\n198.18.0.3:18602\n");
        ClusterConfig fromArgs = ConfigSources.fromArgs("--hostfile=" + f, "--node.id=2");
        assertEquals(new NodeAddress("198.18.0.3", 18602), fromArgs.nodeAddress(2));
        ClusterConfig slurm = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "3",
                "REMUS_HOSTFILE", f.toString()));
        assertEquals(1, slurm.nodeId());
        assertEquals(new NodeAddress("198.18.0.2", 18601), slurm.nodeAddress(1));
        ClusterConfig mpi = ConfigSources.fromEnvironment(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2",
                "REMUS_NODES", "10.1.0.1,10.1.0.2"));
        assertEquals(new NodeAddress("10.1.0.2", NodeAddress.DEFAULT_BASE_PORT + 1), mpi.nodeAddress(1));
    }

    @Test
    void shouldRejectWhenNodeListConflictsWithLauncherOrOtherList(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("hosts");
        Files.writeString(f, "a\nb\n");
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromEnvironment(Map.of("PMI_RANK", "0", "PMI_SIZE", "3",
                "REMUS_HOSTFILE", f.toString())));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromEnvironment(Map.of("REMUS_NODES", "a,b",
                "REMUS_HOSTFILE", f.toString())));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--nodes=a,b", "--hostfile=" + f));
        Files.writeString(f, "a\nb b\n");
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromArgs("--hostfile=" + f));
    }

    @Test
    void shouldExpandMpiSlotsWhenMixedWithRemusEntries() {
        List<String> hosts = Hostfile.parse("# MPI form\nnode-a slots=3\nnode-b\n\n10.0.0.9:7000   # Remus form\n"
                + "node-c\tslots=1 # one slot\n", "hosts");
        assertEquals(List.of("node-a", "node-a", "node-a", "node-b", "10.0.0.9:7000", "node-c"), hosts);
        ClusterConfig c = ClusterConfig.builder().nodes(hosts).build();
        assertEquals(new NodeAddress("node-a", NodeAddress.DEFAULT_BASE_PORT + 2), c.nodeAddress(2));
        assertEquals(new NodeAddress("node-c", NodeAddress.DEFAULT_BASE_PORT + 5), c.nodeAddress(5));
    }

    @Test
    void shouldNameTheLineWhenSlotsAreBad() {
        for (String bad : List.of("a slots=0", "a slots=-2", "a slots=two", "a slots=", "a slot=2", "a slots=2 extra",
                "a slots=99999999999", "a:70000 slots=2")) {
            BadArgumentException e = assertThrows(BadArgumentException.class, () -> Hostfile.parse("ok\n" + bad + "\n", "hf"),
                    bad);
            assertTrue(e.getMessage().startsWith("hf:2: "), bad + ": " + e.getMessage());
        }
    }

    @Test
    void shouldRefuseMoreNodesThanAPointerCanName() {
        BadArgumentException e = assertThrows(BadArgumentException.class,
                () -> Hostfile.parse("a slots=40000\nb slots=40000\n", "hf"));
        assertTrue(e.getMessage().startsWith("hf:2: ") && e.getMessage().contains("more than " + ClusterConfig.MAX_NODES),
                e.getMessage());
    }
}
