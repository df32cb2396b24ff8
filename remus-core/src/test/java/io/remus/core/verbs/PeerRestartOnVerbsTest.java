package io.remus.core.verbs;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.shm.ShmFabric;
import io.remus.core.testing.ProcessFabric;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A peer process that is killed (SIGKILL) and started again comes back as a new incarnation with new memory: node 0
 * (this JVM) reads a word node 1's first process published; the process is killed; while it is down every failed
 * read is a {@link PeerUnreachableException} (or a {@link RemoteTimeoutException}, when its deadline comes before the
 * transport gives up); node 1's second process writes another pattern; node 0's compute
 * thread then throws {@link PeerRestartedException} exactly once, naming both incarnations, and after it looks the
 * node's segment up again reads the new pattern, never the former one. On the verbs fabric of
 * {@code REMUS_TEST_DEVICE} over rdma_cm.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class PeerRestartOnVerbsTest {
    private static final long FIRST = 0x1111_2222_3333_4444L;
    private static final long SECOND = 0x5555_6666_7777_8888L;
    /** The bound on each wait: a child's start, and the reads until node 0 reaches the restarted node. */
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Reads node 0 tries while node 1 is down. */
    private static final int READS_WHILE_DOWN = 2;

    /** @return the fabric: verbs on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldThrowPeerRestartedOnceThenReadOnlyTheRestartedProcesssMemory() throws Exception {
        ProcessFabric processes = fabric();
        int basePort = 20000 + ThreadLocalRandom.current().nextInt(20000);
        Path flags = Files.createTempDirectory("remus-restart-");
        ClusterConfig config = PeerRestartMain.config(processes, 0, basePort);
        try (Fabric fabric = PeerRestartMain.open(processes, config);
             RemusNode node = RemusNode.start(fabric, config);
             ComputeThread t = node.newComputeThread()) {
            long firstIncarnation;
            long word;
            try (ChildJvm first = start(processes, basePort, FIRST, flags.resolve("first"))) {
                firstIncarnation = awaitFlag(flags.resolve("first"), first);
                word = RemotePtr.offset(t.segmentBase(PeerRestartMain.NODE, 1), PeerRestartMain.OFFSET);
                assertEquals(FIRST, t.read(word));
            }
            for (int i = 0; i < READS_WHILE_DOWN; i++) {
                try {
                    long v = t.read(word);
                    assertTrue(processes.isShm() && v == FIRST, "a read of the killed process's memory returned "
                            + Long.toHexString(v) + " (only shared memory keeps a dead process's memory, unchanged)");
                } catch (PeerRestartedException e) {
                    fail("no other incarnation runs yet", e);
                } catch (PeerUnreachableException | RemoteTimeoutException expected) {
                    // the process is gone: the transport gave up, or the operation's deadline came first
                }
            }
            try (ChildJvm second = start(processes, basePort, SECOND, flags.resolve("second"))) {
                long secondIncarnation = awaitFlag(flags.resolve("second"), second);
                assertNotEquals(firstIncarnation, secondIncarnation);
                int restarted = 0;
                int unreachable = 0;
                long deadline = System.nanoTime() + WAIT.toNanos();
                long seen;
                while (true) {
                    assertTrue(System.nanoTime() - deadline < 0, "node 0 did not read the restarted node within " + WAIT
                            + " (" + restarted + " restarts and " + unreachable + " unreachable seen)");
                    try {
                        if (word == 0) {
                            word = RemotePtr.offset(t.segmentBase(PeerRestartMain.NODE, 1), PeerRestartMain.OFFSET);
                        }
                        seen = t.read(word);
                        break;
                    } catch (PeerRestartedException e) {
                        restarted++;
                        assertEquals(firstIncarnation, e.formerIncarnation());
                        assertEquals(secondIncarnation, e.incarnation());
                        assertEquals(PeerRestartMain.NODE, e.nodeId());
                        word = 0;
                    } catch (PeerUnreachableException e) {
                        unreachable++;
                        assertEquals(PeerRestartMain.NODE, e.nodeId());
                        LockSupport.parkNanos(PAUSE_NANOS);
                    } catch (RemoteTimeoutException e) {
                        unreachable++;
                        assertTrue(e.getMessage().contains("node " + PeerRestartMain.NODE), e.getMessage());
                        LockSupport.parkNanos(PAUSE_NANOS);
                    }
                }
                assertNotEquals(FIRST, seen, "read the former incarnation's memory after the node restarted");
                assertEquals(SECOND, seen);
                assertEquals(1, restarted, "PeerRestartedException once (and " + unreachable + " unreachable)");
                for (int i = 0; i < 3; i++) {
                    assertEquals(SECOND, t.read(word), "later reads reach the new incarnation without an error");
                }
            }
        } finally {
            if (processes.isShm()) {
                ShmFabric.removeFiles(processes.shmDirectory());
            }
            deleteQuietly(flags);
        }
    }

    private static ChildJvm start(ProcessFabric processes, int basePort, long pattern, Path flag) {
        return ChildJvm.start(PeerRestartMain.class, processes.argument(), Integer.toString(basePort),
                Long.toHexString(pattern), flag.toString());
    }

    /** Waits, at most {@link #WAIT}, until {@code child} wrote its flag; returns the incarnation in it. */
    private static long awaitFlag(Path flag, ChildJvm child) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Files.exists(flag)) {
            boolean alive = ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false);
            if (!alive || System.nanoTime() - deadline > 0) {
                ChildJvm.Result r = child.await(Duration.ofSeconds(1));
                fail(child + (alive ? " did not open its node within " + WAIT : " exited before it opened its node")
                        + ":\n" + r.output());
            }
            LockSupport.parkNanos(PAUSE_NANOS);
        }
        long incarnation = Long.parseUnsignedLong(Files.readString(flag).strip(), 16);
        assertNotEquals(0, incarnation);
        return incarnation;
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
