package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SlurmHostListTest {
    @Test
    void shouldExpandRangesAndListsWhenZeroPadded() {
        assertEquals(List.of("node01", "node02", "node03", "node07", "gpu5"), SlurmHostList.expand("node[01-03,07],gpu5"));
        assertEquals(List.of("n08", "n09", "n10", "n11"), SlurmHostList.expand("n[08-11]"));
        assertEquals(List.of("n9", "n10"), SlurmHostList.expand("n[9-10]"));
        assertEquals(List.of("a", "b", "c"), SlurmHostList.expand("a,b,c"));
        assertEquals(List.of("10.0.0.1"), SlurmHostList.expand("10.0.0.1"));
    }

    @Test
    void shouldExpandLeftmostGroupSlowestWhenSeveralBracketGroups() {
        assertEquals(List.of("rack1-node1", "rack1-node2", "rack2-node1", "rack2-node2"),
                SlurmHostList.expand("rack[1-2]-node[1-2]"));
        assertEquals(List.of("r1n03x", "r1n04x", "r3n03x", "r3n04x", "s"), SlurmHostList.expand("r[1,3]n[03-04]x,s"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "a,,b", ",a", "a,", "n[1-3", "n1-3]", "n[[1]]", "n[]", "n[1-]", "n[-2]",
            "n[3-1]", "n[a-b]", "n[1,]", "n[1 -2]", "a b", "n[1-2-3]", "n[0-70000]"})
    void shouldRejectWithTypedErrorWhenHostListIsMalformed(String list) {
        assertThrows(BadArgumentException.class, () -> SlurmHostList.expand(list));
    }

    @Test
    void shouldExpandRepeatsWhenTasksPerNodeListed() {
        assertEquals(List.of(2, 2, 2, 1), SlurmHostList.expandTasksPerNode("2(x3),1"));
        assertEquals(List.of(4), SlurmHostList.expandTasksPerNode("4"));
        for (String bad : new String[]{"", "0", "2(x0)", "2(x3", "x", "2,,1", "(x2)"}) {
            assertThrows(BadArgumentException.class, () -> SlurmHostList.expandTasksPerNode(bad), bad);
        }
    }

    @Test
    void shouldTakeNodeListFromSlurmWhenNoRemusNodeListIsGiven() {
        ClusterConfig one = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "2", "SLURM_NTASKS", "3",
                "SLURM_JOB_NODELIST", "node[01-02],gpu5"));
        assertEquals(new NodeAddress("gpu5", NodeAddress.DEFAULT_BASE_PORT + 2), one.nodeAddress(2));
        assertEquals(new NodeAddress("node01", NodeAddress.DEFAULT_BASE_PORT), one.nodeAddress(0));
        ClusterConfig blocks = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "5",
                "SLURM_JOB_NODELIST", "n[1-3]", "SLURM_TASKS_PER_NODE", "2(x2),1"));
        assertEquals(List.of("n1", "n1", "n2", "n2", "n3"), blocks.nodes());
        assertEquals(new NodeAddress("n1", NodeAddress.DEFAULT_BASE_PORT + 1), blocks.nodeAddress(1));
        ClusterConfig step = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "SLURM_JOB_NODELIST", "n[1-4]", "SLURM_STEP_NODELIST", "n[3-4]"));
        assertEquals(List.of("n3", "n4"), step.nodes());
        ClusterConfig explicit = ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "SLURM_JOB_NODELIST", "n[1-4]", "REMUS_NODES", "a,b"));
        assertEquals(List.of("a", "b"), explicit.nodes());
    }

    @Test
    void shouldRejectWhenSlurmNodeListDisagreesWithTaskCount() {
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0",
                "SLURM_NTASKS", "3", "SLURM_JOB_NODELIST", "n[1-2]")));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0",
                "SLURM_NTASKS", "3", "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_TASKS_PER_NODE", "1(x3)")));
        assertThrows(BadArgumentException.class, () -> ConfigSources.fromEnvironment(Map.of("SLURM_PROCID", "0",
                "SLURM_NTASKS", "2", "SLURM_JOB_NODELIST", "n[1-2")));
    }
}
