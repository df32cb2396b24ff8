package io.remus.bench.loopback;

import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimFabric;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoopbackExperimentTest {
    @Test
    void shouldMeasureEveryOperationOnEveryPathWhenRunOnSim() {
        List<LoopbackRow> rows;
        try (SimFabric fabric = new SimFabric()) {
            rows = new LoopbackExperiment(200, 4, 10_000_000_000L).run(fabric);
        }
        assertEquals(9, rows.size());
        for (Opcode op : List.of(Opcode.READ, Opcode.WRITE, Opcode.COMPARE_AND_SWAP)) {
            for (AccessPath path : AccessPath.values()) {
                LoopbackRow row = rows.stream().filter(r -> r.operation() == op && r.path() == path).findFirst()
                        .orElseThrow();
                assertEquals(200, row.latency().count());
                assertTrue(row.opsPerSecond() > 0);
            }
        }
    }
}
