package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --sim-time virtual --seed N} of {@code remus bench object} and {@code remus bench reclaim}: the refusals of
 * {@link SimTimeOption#clock} before anything runs, each naming the bad value, and small runs whose table and JSON
 * say how they were timed and whose figures the seed alone decides.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ObjectReclaimSimTimeTest {
    private static final String LABEL = "virtual time, model connectx5, CPU charged as model: ";

    private static void assertRefused(RemusRun r, String command, String message) {
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(message), r.err());
        assertTrue(r.err().contains("Usage: remus bench " + command), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"object", "reclaim"})
    void shouldRefuseAnUnknownClockNamingIt(String command) {
        RemusRun r = RemusRun.of("bench", command, "--sim-time", "bogus", "--fabric", "sim");
        assertRefused(r, command, "'bogus'");
        assertTrue(r.err().contains("--sim-time"), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"object", "reclaim"})
    void shouldRefuseVirtualTimeOnVerbsNamingTheFabric(String command) {
        RemusRun r = RemusRun.of("bench", command, "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric", "verbs");
        assertRefused(r, command, "--sim-time virtual runs the simulator's threads in virtual time; not with --fabric verbs");
    }

    @ParameterizedTest
    @ValueSource(strings = {"object", "reclaim"})
    void shouldRefuseVirtualTimeWithACostModelThatChargesNothingNamingIt(String command) {
        RemusRun r = RemusRun.of("bench", command, "--sim-time", "virtual", "--sim-cost", "none", "--fabric", "sim");
        assertRefused(r, command, "--sim-time virtual: virtual time needs a cost model that charges time, got model none");
        RemusRun implicit = RemusRun.of("bench", command, "--sim-time", "virtual", "--fabric", "sim");
        assertRefused(implicit, command, "got model none");
    }

    @Test
    void shouldRefuseVirtualTimeWithOneProcessPerNode() {
        RemusRun r = RemusRun.of("bench", "reclaim", "--cluster", "--sim-time", "virtual");
        assertRefused(r, "reclaim", "--sim-time virtual runs every node in this process; not with one process per node");
    }

    private static String runs(String json) {
        return json.substring(json.indexOf("\"runs\":"));
    }

    /**
     * Runs {@code human} with {@code --json} twice: each must succeed and say how it was timed, and both must give
     * the same figures.
     *
     * @return the first run's JSON
     */
    private static String assertReplayedFromTheSeed(String[] human) {
        String[] json = Stream.concat(Arrays.stream(human), Stream.of("--json")).toArray(String[]::new);
        RemusRun a = RemusRun.of(json);
        RemusRun b = RemusRun.of(json);
        assertEquals(0, a.exit(), a.err());
        assertTrue(a.out().contains("\"time\":\"" + LABEL), a.out());
        assertTrue(a.out().contains(", seed 5\""), a.out());
        assertEquals(runs(a.out()), runs(b.out()), "the same seed, the same figures");
        return a.out();
    }

    @Test
    void shouldLabelAVirtualObjectRunAndReplayItsFiguresFromTheSeed() {
        String[] human = {"bench", "object", "--sim-time", "virtual", "--sim-cost", "connectx5", "--object", "counter",
                "--impl", "waitfree,alock", "--stall", "one", "--nodes", "1", "--threads", "2", "-D", "0.01",
                "--segment-mib", "16", "--seed", "5"};
        RemusRun r = RemusRun.of(human);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every figure below is " + LABEL), r.out());
        assertTrue(r.out().contains(", seed 5"), r.out());
        assertTrue(r.out().contains("operations per second of virtual time"), r.out());
        assertTrue(r.out().contains("no warm-up: virtual-time figures do not depend on the host's JIT"), r.out());
        assertReplayedFromTheSeed(human);
    }

    @Test
    void shouldLabelAVirtualReclaimRunAndReplayItsFiguresFromTheSeed() {
        String[] human = {"bench", "reclaim", "--sim-time", "virtual", "--sim-cost", "connectx5", "--reclaimer",
                "barrier,epoch", "--stall", "yes", "--nodes", "2", "--threads", "1", "-D", "0.01", "--sample-ms", "2",
                "--segment-mib", "16", "--seed", "5"};
        RemusRun r = RemusRun.of(human);
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every figure below is " + LABEL), r.out());
        assertTrue(r.out().contains(", seed 5"), r.out());
        assertFalse(r.out().contains("warm-up: each reclaimer ran"), r.out());
        String json = assertReplayedFromTheSeed(human);
        assertTrue(json.contains("\"violations\":0"), json);
    }
}
