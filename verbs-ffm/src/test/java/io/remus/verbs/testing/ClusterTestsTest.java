package io.remus.verbs.testing;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterTestsTest {
    @Test
    void shouldBeAbsentWhenNoVariableIsSet() {
        assertEquals(Optional.empty(), ClusterTests.configuredNode(Map.of()));
    }

    @Test
    void shouldReadNodeWhenAllVariablesAreSet() {
        ClusterNode node = ClusterTests.configuredNode(Map.of(
                ClusterTests.NODE_ENV, "1",
                ClusterTests.SIZE_ENV, "3",
                ClusterTests.ADDRS_ENV, "198.18.0.1, 198.18.0.2,198.18.0.3")).orElseThrow();
        assertEquals(1, node.index());
        assertEquals(3, node.size());
        assertEquals(List.of("198.18.0.1", "198.18.0.2", "198.18.0.3"), node.addresses());
        assertEquals("198.18.0.2", node.address());
        assertEquals("198.18.0.1", node.address(0));
        assertFalse(node.isLeader());
    }

    @Test
    void shouldMakeNodeZeroTheLeaderWhenIndexIsZero() {
        assertTrue(new ClusterNode(0, 2, List.of("a", "b")).isLeader());
    }

    @Test
    void shouldFailWhenOnlySomeVariablesAreSet() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ClusterTests.configuredNode(Map.of(ClusterTests.NODE_ENV, "0")));
        assertTrue(e.getMessage().contains(ClusterTests.SIZE_ENV), e::getMessage);
    }

    @Test
    void shouldFailWhenIndexIsNotAnInteger() {
        assertThrows(IllegalArgumentException.class, () -> ClusterTests.configuredNode(Map.of(
                ClusterTests.NODE_ENV, "x", ClusterTests.SIZE_ENV, "2", ClusterTests.ADDRS_ENV, "a,b")));
    }

    @Test
    void shouldFailWhenIndexIsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new ClusterNode(2, 2, List.of("a", "b")));
        assertThrows(IllegalArgumentException.class, () -> new ClusterNode(-1, 2, List.of("a", "b")));
    }

    @Test
    void shouldFailWhenAddressCountDiffersFromSize() {
        assertThrows(IllegalArgumentException.class, () -> new ClusterNode(0, 3, List.of("a", "b")));
    }

    @Test
    void shouldFailWhenSizeIsBelowTwo() {
        assertThrows(IllegalArgumentException.class, () -> new ClusterNode(0, 1, List.of("a")));
    }
}
