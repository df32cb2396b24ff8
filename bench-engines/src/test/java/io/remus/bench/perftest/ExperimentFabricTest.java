package io.remus.bench.perftest;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExperimentFabricTest {
    private static String message(Runnable r) {
        return assertThrows(BadArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldRunOnTheSimulatorWithTheConnectX5CostModelByDefault() {
        ExperimentFabric sim = ExperimentFabric.of(" SIM ", null, null);
        assertEquals(FabricKind.SIM, sim.kind());
        assertEquals("connectx5", sim.costName());
        assertEquals("sim (connectx5)", sim.title());
        List<String> notes = new ArrayList<>();
        sim.fabrics(notes).get().close();
        assertTrue(notes.getFirst().startsWith("fabric sim, cost model "), notes.toString());
        assertEquals("sim (none)", ExperimentFabric.of("sim", null, "none").title());
    }

    @Test
    void shouldNameTheFlagOfTheOtherFabricOrTheUnknownValue() {
        assertEquals("--fabric must be sim or verbs, got 'ethernet'", message(() -> ExperimentFabric.of("ethernet", null, null)));
        assertEquals("-d mlx5_0 is for --fabric verbs only; this run is on sim",
                message(() -> ExperimentFabric.of("sim", "mlx5_0", null)));
        assertEquals("--sim-cost connectx5 is for --fabric sim only; this run is on verbs",
                message(() -> ExperimentFabric.of("verbs", null, "connectx5")));
        assertTrue(message(() -> ExperimentFabric.of("sim", null, "cx9")).startsWith("--sim-cost: "));
        assertNull(ExperimentFabric.of("verbs", "mlx5_0", null).costName());
    }
}
