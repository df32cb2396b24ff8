package io.remus.core.sim;

import io.remus.core.BadArgumentException;
import io.remus.core.RemotePtr;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded simulated fabric: every node lives in this JVM, memory is native and registered
 * memory is reached by the simulated NIC and the CPU alike. See the package description for what it
 * models. Thread-safe.
 */
public final class SimFabric implements Fabric {
    private final SimOptions options;
    private final ConcurrentHashMap<Integer, SimNode> nodes = new ConcurrentHashMap<>();
    private final AtomicInteger nextKey = new AtomicInteger(0x1000);

    /** A fabric with {@link SimOptions#defaults()}. */
    public SimFabric() {
        this(SimOptions.defaults());
    }

    /** @param options the simulator's knobs */
    public SimFabric(SimOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** @return the simulator's knobs */
    public SimOptions options() {
        return options;
    }

    @Override
    public String name() {
        return "sim";
    }

    @Override
    public FabricNode open(int nodeId) {
        RemotePtr.requireNodeId(nodeId);
        SimNode node = new SimNode(this, nodeId);
        if (nodes.putIfAbsent(nodeId, node) != null) {
            throw new BadArgumentException("node " + nodeId + " is already open on this fabric");
        }
        return node;
    }

    @Override
    public List<RemoteRegion> publishedRegions(int nodeId) {
        SimNode node = nodes.get(nodeId);
        return node == null ? List.of() : node.published();
    }

    /**
     * Fault injection: node {@code nodeId} stops answering; requests to it complete with
     * {@code RETRY_EXCEEDED} after the transport timeout.
     *
     * @param nodeId an open node
     */
    public void stopAnswering(int nodeId) {
        node(nodeId).answering(false);
    }

    /** @param nodeId an open node that {@link #stopAnswering(int)} silenced; it answers again */
    public void resumeAnswering(int nodeId) {
        node(nodeId).answering(true);
    }

    /**
     * Fault injection: the next {@code count} requests executed against {@code nodeId} complete
     * with {@code REMOTE_OPERATION_ERROR}.
     *
     * @param nodeId an open node
     * @param count  how many requests fail
     */
    public void failNextOperations(int nodeId, int count) {
        node(nodeId).failNext(count);
    }

    @Override
    public void close() {
        for (SimNode node : nodes.values()) {
            node.close();
        }
    }

    SimNode node(int nodeId) {
        SimNode node = nodes.get(nodeId);
        if (node == null) {
            throw new BadArgumentException("node " + nodeId + " is not open on this fabric");
        }
        return node;
    }

    void forget(SimNode node) {
        nodes.remove(node.nodeId(), node);
    }

    int nextKey() {
        return nextKey.getAndIncrement();
    }
}
