package io.remus.bench.numa;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NumaTopologyTest {
    @Test
    void shouldExpandRangesWhenAKernelListIsParsed() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), NumaTopology.parseList("0-3,8,10-11\n"));
        assertEquals(List.of(), NumaTopology.parseList(" \n"));
        assertEquals(List.of(5), NumaTopology.parseList("5"));
    }

    @Test
    void shouldRejectMalformedListsWhenParsed() {
        assertThrows(BadArgumentException.class, () -> NumaTopology.parseList("3-1"));
        assertThrows(BadArgumentException.class, () -> NumaTopology.parseList("1-2-3"));
        assertThrows(BadArgumentException.class, () -> NumaTopology.parseList("a"));
        assertThrows(BadArgumentException.class, () -> NumaTopology.parseList("0-99999"));
    }

    @Test
    void shouldReadNodesCpusAndMemoryWhenSysfsDescribesTwoNodes(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("online"), "0-1\n");
        Files.writeString(dir.resolve("has_memory"), "0\n");
        Files.createDirectories(dir.resolve("node0"));
        Files.createDirectories(dir.resolve("node1"));
        Files.writeString(dir.resolve("node0/cpulist"), "0-1\n");
        Files.writeString(dir.resolve("node1/cpulist"), "2\n");
        NumaTopology t = NumaTopology.read(dir);
        assertEquals(2, t.nodes().size());
        assertEquals(List.of(0, 1), t.node(0).cpus());
        assertTrue(t.node(0).hasMemory());
        assertEquals(List.of(2), t.node(1).cpus());
        assertFalse(t.node(1).hasMemory());
        assertEquals(1, t.maxNodeId());
        assertThrows(BadArgumentException.class, () -> t.node(2));
    }

    @Test
    void shouldReportOneNodeWithEveryCpuWhenTheKernelHasNoNumaDirectory(@TempDir Path dir) {
        NumaTopology t = NumaTopology.read(dir.resolve("absent"));
        assertEquals(1, t.nodes().size());
        assertEquals(Runtime.getRuntime().availableProcessors(), t.node(0).cpus().size());
        assertTrue(t.node(0).hasMemory());
    }
}
