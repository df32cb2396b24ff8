package io.remus.core.shm;

import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory of a process that died without closing its node outlives it: peers keep reading and
 * changing it, until the cluster's files are removed.
 */
class ShmDeadProcessTest {
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldKeepADeadProcesssMemoryReachableUntilTheFilesAreRemoved() throws Exception {
        Path dir = Fabrics.freshShmDirectory();
        ChildJvm.Result child = ChildJvm.run(Duration.ofSeconds(45), ShmDyingNodeMain.class, dir.toString(), "1");
        assertTrue(child.succeeded() && child.output().contains("published"), child.output());

        try (ShmFabric fabric = ShmFabric.open(dir)) {
            List<RemoteRegion> regions = fabric.publishedRegions(1);
            assertEquals(1, regions.size(), "the dead node's publication stays");
            RemoteRegion region = regions.get(0);
            FabricNode a = fabric.open(0);
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(8);
            QueuePair qp = a.connect(1, cq, 4, Duration.ofSeconds(10));
            WorkRequests wrs = new WorkRequests(2);
            wrs.addFetchAndAdd(1, local.address(), local.lkey(), region.address(), region.rkey(), 1, 0);
            wrs.addRead(2, local.address() + 8, 8, local.lkey(), region.address(), region.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            Completions out = new Completions(4);
            assertEquals(1, cq.poll(out));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            assertEquals(ShmDyingNodeMain.MARK, local.segment().get(ValueLayout.JAVA_LONG, 0));
            assertEquals(ShmDyingNodeMain.MARK + 1, local.segment().get(ValueLayout.JAVA_LONG, 8));
        }
        assertTrue(ShmFabric.removeFiles(dir) > 0);
        assertFalse(Files.exists(dir));
    }
}
