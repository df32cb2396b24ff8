package io.remus.bench.churn;

import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.remus.ds.testing.ChildProcesses.fields;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Crash tolerance of {@link io.remus.ds.reclaim.EpochReclaimer} on rxe: three processes on one device
 * churn one shared array ({@link ReclaimCrashNodeMain}); the compute-only third is killed with SIGKILL
 * while it churns. The two survivors keep reclaiming once its lease ran out (the global epoch
 * advances, and each worker retires, and so frees, six times its limit after the kill), their
 * unreclaimed bytes stay under the limit at every guard close, no read finds freed or reused
 * memory, and afterwards every slot still holds a node that checks out (no data lost, none
 * corrupted by the dead writer).
 */
@Timeout(value = 1200, unit = TimeUnit.SECONDS)
class ProcessCrashReclaimOnVerbsTest {
    private static final int NODES = 3;
    /** Three JVMs starting at once in an emulated guest, first in a run (cold class files), beside another guest. */
    private static final Duration READY_BOUND = Duration.ofMinutes(10);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(6);
    /** Bytes each survivor worker retires after the kill: six times its limit. */
    private static final long POST_KILL_BYTES = 6 * ReclaimCrashNodeMain.LIMIT;

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldKeepReclaimingAndLoseNoDataWhenAProcessIsKilledMidRun(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        Path ready = dir.resolve("victim-ready");
        Path killed = dir.resolve("victim-killed");
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(ReclaimCrashNodeMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), ready.toString(), killed.toString(),
                        Long.toString(POST_KILL_BYTES)));
            }
            long deadline = System.nanoTime() + READY_BOUND.toNanos();
            while (!Files.exists(ready)) {
                if (System.nanoTime() - deadline > 0) {
                    fail("the victim did not start churning within " + READY_BOUND + ":\n"
                            + children.get(NODES - 1).await(Duration.ZERO).output());
                }
                Thread.sleep(50);
            }
            ChildJvm.Result victim = children.get(NODES - 1).await(Duration.ZERO);
            assertTrue(victim.timedOut(), "the victim was still churning when it was killed:\n" + victim.output());
            Files.createFile(killed);
            for (int i = 0; i < NODES - 1; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "survivor " + i + " failed:\n" + r.output());
                checkSurvivor(i, r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private static void checkSurvivor(int node, String output) {
        int workers = 0;
        int checks = 0;
        for (String line : output.lines().toList()) {
            if (line.startsWith("WORKER ")) {
                workers++;
                System.out.println(line);
                Map<String, String> w = fields(line);
                assertEquals("0", w.get("violations"), "a read found freed or reused memory: " + line);
                assertEquals("true", w.get("killSeen"), line);
                assertEquals("0", w.get("limitTimeouts"), "no wait for the limit ran out: " + line);
                assertTrue(num(w, "maxUnreclaimed") < ReclaimCrashNodeMain.LIMIT,
                        "unreclaimed bytes at a guard close stay under the limit: " + line);
                assertTrue(num(w, "opsAfterKill") > 0, line);
                assertTrue(num(w, "retiredAfterKill") >= POST_KILL_BYTES, "after the kill the survivor retired, and "
                        + "so freed (it stays under its limit), several times its limit within "
                        + ReclaimCrashNodeMain.POST_KILL_BOUND + ": " + line);
                assertTrue(num(w, "epochAdvancesAfterKill") >= 3,
                        "the global epoch advanced after the kill, past the dead process's announcements: " + line);
            } else if (line.startsWith("CHECK ")) {
                checks++;
                System.out.println(line);
                Map<String, String> c = fields(line);
                assertEquals("0", c.get("violations"), "every slot holds a valid node: " + line);
                assertEquals(num(c, "ops"), num(c, "reads") + num(c, "restarts"), line);
                assertTrue(num(c, "reads") > 0, line);
            }
        }
        assertEquals(ReclaimCrashNodeMain.WORKERS, workers, "node " + node + ":\n" + output);
        assertEquals(1, checks, "node " + node + ":\n" + output);
    }
}
