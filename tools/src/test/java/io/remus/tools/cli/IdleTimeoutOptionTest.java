package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tool's waits that had a fixed bound take the caller's: the verbs server's wait for its client's commands
 * ({@code bench --idle-timeout}) and the loopback experiment's wait for a completion ({@code experiment loopback
 * --timeout}); an unusable value is refused before the run.
 */
class IdleTimeoutOptionTest {
    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "86401", "1e9", "NaN"})
    void shouldExitWithUsageNamingTheOptionAndValueWhenOutOfRange(String value) {
        RemusRun run = RemusRun.of("bench", "read-bw", "-n", "50", "--idle-timeout", value);
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("--idle-timeout"), run.err());
    }

    @Test
    void shouldRefuseTheOptionOnAClientOrOnTheSimulator() {
        RemusRun client = RemusRun.of("bench", "read-bw", "-n", "50", "--idle-timeout", "5", "127.0.0.1");
        assertEquals(2, client.exit(), client.err());
        assertTrue(client.err().contains("--idle-timeout") && client.err().contains("not for a client"), client.err());
        RemusRun sim = RemusRun.of("bench", "read-bw", "-n", "50", "--fabric", "sim", "--idle-timeout", "5");
        assertEquals(2, sim.exit(), sim.err());
        assertTrue(sim.err().contains("--idle-timeout 5.0: verbs only"), sim.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "3601"})
    void shouldExitWithUsageWhenTheLoopbackExperimentsTimeoutIsOutOfRange(String value) {
        RemusRun run = RemusRun.of("experiment", "loopback", "--fabric", "sim", "-n", "10", "--timeout", value);
        assertEquals(2, run.exit(), run.err());
        assertTrue(run.err().contains("--timeout must be 1..3600 seconds, got " + value), run.err());
    }

    @Test
    void shouldRunTheLoopbackExperimentWithTheCallersTimeout() {
        RemusRun run = RemusRun.of("experiment", "loopback", "--fabric", "sim", "-n", "10", "--timeout", "5");
        assertEquals(0, run.exit(), run.err());
    }
}
