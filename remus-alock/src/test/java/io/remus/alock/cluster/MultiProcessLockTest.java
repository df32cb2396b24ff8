package io.remus.alock.cluster;

import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lock suite with three nodes as three JVM processes on one device ({@link LockNodeScenario}):
 * ALock, the spin lock and the MCS lock each keep mutual exclusion and lose no update while every
 * process's local and remote threads lock keys homed on every node, and every process makes
 * progress on both paths.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class MultiProcessLockTest {
    private static final int NODES = 3;
    private static final Duration SLICE = Duration.ofSeconds(5);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(6);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldKeepMutualExclusionWhenThreeProcessesLockKeysHomedOnEveryNode() throws InterruptedException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(LockNodeMain.class, fabric.argument(), Integer.toString(i), Integer.toString(NODES),
                        Integer.toString(port), Long.toString(SLICE.toMillis())));
            }
            for (int i = 0; i < NODES; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                List<LockNodeReport> reports = LockNodeReport.parseAll(r.output());
                assertEquals(LockNodeScenario.KINDS.size(), reports.size(), r.output());
                for (LockNodeReport report : reports) {
                    System.out.println(report.line());
                    assertEquals(i, report.node(), r.output());
                    assertTrue(report.isClean(), "node " + i + ": " + report.line() + "\n" + r.output());
                }
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
