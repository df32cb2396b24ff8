package io.remus.core;

import io.remus.core.time.ThreadTime;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.memory.ControlBlock;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The memory a node exposes: {@code segmentCount} registered, published segments of
 * {@code segmentSize} bytes, laid out as {@link ControlBlock} describes. The segments are published
 * together ({@link FabricNode#publishAll}): a peer sees none of them or all of them. Its CPU never
 * touches the shared words after setup except to watch the shutdown count.
 */
public final class MemoryNode implements AutoCloseable {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final List<RegisteredMemory> segments;
    private final NodeRange computeNodes;

    /**
     * Allocates and initializes the node's segments, then publishes them all in one publication.
     *
     * @param node   the fabric node
     * @param config the configuration (segment size and count)
     * @throws RuntimeException what the fabric node threw when a segment could not be allocated or the
     *                          segments could not be published, after closing the segments allocated
     *                          so far: a refused memory node holds and publishes nothing
     */
    public MemoryNode(FabricNode node, ClusterConfig config) {
        List<RegisteredMemory> list = new ArrayList<>();
        try {
            for (int i = 0; i < config.segmentCount(); i++) {
                RegisteredMemory m = node.allocate(config.segmentSize());
                list.add(m);
                WORD.setVolatile(m.segment(), ControlBlock.WATERMARK, ControlBlock.heapStart(i, config.nodes().size()));
            }
            node.publishAll(list);
        } catch (RuntimeException e) {
            for (RegisteredMemory m : list) {
                try {
                    m.close();
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            throw e;
        }
        this.segments = List.copyOf(list);
        this.computeNodes = config.computeNodes();
    }

    /** {@return the segments, in publication order} */
    public List<RegisteredMemory> segments() {
        return segments;
    }

    /**
     * Waits until {@code computeNodes} compute nodes announced their shutdown with
     * the shutdown handshake of {@link RemusCluster#close()}.
     *
     * @param computeNodes how many announcements to wait for, at least 1
     * @param timeout      the bound: positive, at most {@link Timeouts#MAX_FINITE}, or
     *                     {@link Timeouts#FOREVER} to wait without end
     * @throws NullPointerException   when {@code timeout} is null
     * @throws BadArgumentException   naming the value when {@code computeNodes} is not positive or
     *                                {@code timeout} is out of {@link Timeouts#require}'s range
     * @throws RemoteTimeoutException when they did not all arrive in time; its message names the
     *                                compute nodes of the configuration that did not announce
     */
    public void awaitShutdown(int computeNodes, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (computeNodes < 1) {
            throw new BadArgumentException("awaitShutdown needs at least one compute node, got " + computeNodes);
        }
        Timeouts.require(timeout, "shutdown timeout");
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        while ((long) WORD.getVolatile(segments.get(0).segment(), ControlBlock.SHUTDOWN) < computeNodes) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("only " + WORD.getVolatile(segments.get(0).segment(), ControlBlock.SHUTDOWN)
                        + " of " + computeNodes + " compute nodes announced shutdown within " + timeout
                        + "; not announced: " + silentNodes());
            }
            ThreadTime.parkNanos(null, TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** {@return the compute nodes of the configuration whose shutdown bit is not set, as "node 1, node 4"} */
    private String silentNodes() {
        StringBuilder names = new StringBuilder();
        int listed = 0;
        for (int id = computeNodes.first(); id <= computeNodes.last(); id++) {
            long word = (long) WORD.getVolatile(segments.get(0).segment(), ControlBlock.SHUTDOWN_NODES + 8L * (id / 64));
            if ((word & (1L << (id % 64))) == 0) {
                if (listed++ < 32) {
                    names.append(names.isEmpty() ? "" : ", ").append("node ").append(id);
                }
            }
        }
        if (listed > 32) {
            names.append(" and ").append(listed - 32).append(" more");
        }
        return listed == 0 ? "none (every compute node of " + computeNodes + " did)" : names.toString();
    }

    /** Deregisters and frees the segments. Idempotent. */
    @Override
    public void close() {
        for (RegisteredMemory m : segments) {
            m.close();
        }
    }
}
