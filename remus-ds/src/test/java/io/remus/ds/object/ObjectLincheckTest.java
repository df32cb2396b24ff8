package io.remus.ds.object;

import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lincheck in stress mode over one object of this package on the simulator ({@link LincheckWorkers}): the object
 * must pass against its sequential specification, and a broken twin of it must be caught with invalid execution
 * results. One subclass per object names the classes Lincheck drives (public, with a public no-argument
 * constructor and {@code @Operation} methods).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ObjectLincheckTest {
    /** {@return the object as built, attached once per Lincheck worker} */
    abstract Class<?> object();

    /** {@return the broken twin, which Lincheck must find not linearizable} */
    abstract Class<?> brokenTwin();

    /** {@return the sequential specification both are compared with} */
    abstract Class<?> sequential();

    /** {@return the invocations of each of the 10 iterations} */
    int invocationsPerIteration() {
        return 100;
    }

    private StressOptions options() {
        return new StressOptions()
                .iterations(10)
                .invocationsPerIteration(invocationsPerIteration())
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(sequential());
    }

    @BeforeAll
    static void startCluster() {
        LincheckWorkers.start();
    }

    @AfterAll
    static void stopCluster() {
        LincheckWorkers.stop();
    }

    @Test
    void shouldFindTheObjectLinearizable() {
        options().check(object());
    }

    @Test
    void shouldFindTheBrokenTwinNotLinearizable() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> options().minimizeFailedScenario(false).check(brokenTwin()));
        assertTrue(e.getMessage().contains("Invalid execution results"), e.getMessage());
    }
}
