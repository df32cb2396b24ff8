package io.remus.core.verbs;

import io.remus.core.RemusNode;
import io.remus.core.config.ClusterConfig;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.shm.ShmFabric;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;

import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * Node {@value #NODE} of {@link PeerRestartOnVerbsTest}'s two-node cluster, in a child JVM that the test kills
 * (SIGKILL) and starts again: opens its node (a new incarnation each time), writes {@code pattern} in the word at
 * {@link #OFFSET} of its segment 1, writes its incarnation (hex) to {@code flag} once that is done, and waits to be
 * killed ({@link #LIFETIME} at most, then exits with status 2). Arguments: {@code fabric basePort pattern(hex) flag},
 * the fabric as {@link ProcessFabric#parse} takes it.
 */
public final class PeerRestartMain {
    /** The cluster's nodes: node 0 in the test's JVM, node 1 in this one. */
    static final int SIZE = 2;
    /** This process's node. */
    static final int NODE = 1;
    /** The pattern word's offset in segment 1. */
    static final long OFFSET = 4096;
    /** How long a node waits for a peer it never reached. */
    static final Duration CONNECT = Duration.ofSeconds(60);
    /**
     * Each compute thread's operation timeout: also the bound on one reconnect to a node reached before, so a
     * node that is down costs at most this per attempt (and a back-off of the same length after it).
     */
    static final Duration OPERATION = Duration.ofSeconds(30);
    /** How long a child waits to be killed. */
    static final Duration LIFETIME = Duration.ofMinutes(4);

    private PeerRestartMain() {
    }

    /**
     * @param fabric   the fabric
     * @param nodeId   the node
     * @param basePort node 0's port (verbs)
     * @return the configuration both processes use: {@link ClusterProcess#builder}'s with one lane per peer and
     *         an operation timeout of {@link #OPERATION}
     */
    static ClusterConfig config(ProcessFabric fabric, int nodeId, int basePort) {
        return ClusterProcess.builder(nodeId, fabric.hosts(SIZE), basePort).qpLanesPerPeer(1).operationTimeout(OPERATION)
                .build();
    }

    /** @return {@code fabric} opened for {@code config}'s node */
    static Fabric open(ProcessFabric fabric, ClusterConfig config) {
        return fabric.isShm() ? ShmFabric.open(fabric.shmDirectory())
                : VerbsFabric.open(VerbsFabricOptions.cluster(fabric.device(), config, CONNECT));
    }

    /** @param args fabric, base port, pattern (hex), flag file */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int basePort = Integer.parseInt(args[1]);
        long pattern = Long.parseUnsignedLong(args[2], 16);
        Path flag = Path.of(args[3]);
        ClusterConfig config = config(fabric, NODE, basePort);
        Fabric opened = open(fabric, config);
        RemusNode node = RemusNode.start(opened, config);
        RegisteredMemory segment = node.memoryNode().orElseThrow().segments().get(1);
        segment.segment().set(ValueLayout.JAVA_LONG, OFFSET, pattern);
        long incarnation = node.fabricNode().incarnation();
        Path tmp = flag.resolveSibling(flag.getFileName() + ".tmp");
        Files.writeString(tmp, Long.toHexString(incarnation));
        Files.move(tmp, flag, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("READY node " + NODE + " incarnation " + Long.toHexString(incarnation) + " pattern "
                + Long.toHexString(pattern));
        System.out.flush();
        Thread.sleep(LIFETIME.toMillis());
        System.out.println("NOT KILLED within " + LIFETIME);
        System.exit(2);
    }
}
