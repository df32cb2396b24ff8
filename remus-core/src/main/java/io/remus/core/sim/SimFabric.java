package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;

import io.remus.core.fabric.Opcode;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The embedded simulated fabric: every node lives in this JVM, memory is native and registered
 * memory is reached by the simulated NIC and the CPU alike. See the package description for what it
 * models. Thread-safe.
 */
public final class SimFabric implements Fabric {
    private final SimOptions options;
    private final ConcurrentHashMap<Integer, SimNode> nodes = new ConcurrentHashMap<>();
    private final AtomicInteger nextKey = new AtomicInteger(0x1000);
    private final AtomicReference<SimFreeze> freeze = new AtomicReference<>();
    /** The next free 4 GiB slot of the simulated address space ({@link SimOptions#straddleOffset()}). */
    private long nextSlot = 1;

    /** A fabric with {@link SimOptions#defaults()}. */
    public SimFabric() {
        this(SimOptions.defaults());
    }

    /**
     * Creates a simulated fabric.
     *
     * @param options the simulator's knobs
     */
    public SimFabric(SimOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** {@return the simulator's knobs} */
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

    /**
     * Makes a silenced node answer again.
     *
     * @param nodeId an open node that {@link #stopAnswering(int)} silenced; it answers again
     */
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

    /**
     * Test hook: parks {@code thread} just before the simulated NIC applies the work request that comes
     * after the next {@code skip} ones it applies, until {@link SimFreeze#release()} or for at most
     * {@code maxFrozen}. See {@link SimFreeze}.
     *
     * @param thread    the Java thread that owns the compute thread to stop
     * @param skip      work requests the thread applies first, 0 or more
     * @param maxFrozen the longest the thread stays parked, positive: a freeze nobody releases ends then
     * @return the armed freeze
     * @throws BadArgumentException when {@code skip} or {@code maxFrozen} is out of range, or another
     *                              freeze is armed on this fabric
     */
    public SimFreeze freeze(Thread thread, int skip, Duration maxFrozen) {
        return arm(thread, null, skip, maxFrozen);
    }

    /**
     * Test hook: parks {@code thread} just before the simulated NIC applies its next work request (of
     * any operation) after the next {@code skip} work requests of operation {@code counted} it applies,
     * until {@link SimFreeze#release()} or for at most {@code maxFrozen}. See {@link SimFreeze}.
     *
     * @param thread    the Java thread that owns the compute thread to stop
     * @param counted   the operation whose work requests are counted
     * @param skip      work requests of {@code counted} the thread applies first, 0 or more
     * @param maxFrozen the longest the thread stays parked, positive: a freeze nobody releases ends then
     * @return the armed freeze
     * @throws BadArgumentException when {@code skip} or {@code maxFrozen} is out of range, or another
     *                              freeze is armed on this fabric
     */
    public SimFreeze freeze(Thread thread, Opcode counted, int skip, Duration maxFrozen) {
        Objects.requireNonNull(counted, "counted");
        return arm(thread, counted, skip, maxFrozen);
    }

    private SimFreeze arm(Thread thread, Opcode counted, int skip, Duration maxFrozen) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(maxFrozen, "maxFrozen");
        if (skip < 0) {
            throw new BadArgumentException("skip must be 0 or more, got " + skip);
        }
        if (maxFrozen.isNegative() || maxFrozen.isZero()) {
            throw new BadArgumentException("maxFrozen must be positive, got " + maxFrozen);
        }
        SimFreeze f = new SimFreeze(this, thread, counted, skip, maxFrozen);
        if (!freeze.compareAndSet(null, f)) {
            throw new BadArgumentException("a freeze of thread " + freeze.get().thread().getName()
                    + " is already armed on this fabric");
        }
        return f;
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

    void disarm(SimFreeze f) {
        freeze.compareAndSet(f, null);
    }

    void beforeApply(Opcode op) {
        SimFreeze f = freeze.get();
        if (f != null) {
            f.beforeApply(op);
        }
    }

    /**
     * The address work requests name a new registration by: its native address, or with
     * {@link SimOptions#straddleOffset()} a simulated one of its own, after every earlier registration's, with the
     * chosen byte on a 4 GiB boundary.
     *
     * @throws BadArgumentException when the simulated 48-bit address space has no room left for it
     */
    synchronized long place(MemorySegment segment) {
        long offset = options.straddleOffset();
        if (offset == SimOptions.NATIVE_ADDRESSES) {
            return segment.address();
        }
        long length = segment.byteSize();
        long boundary = Math.min(offset, length / 2) & ~63L;
        long base = nextSlot * SimOptions.FOUR_GIB - boundary;
        long end = base + length;
        if (end > RemotePtr.ADDRESS_MASK + 1 - SimOptions.FOUR_GIB) {
            throw new BadArgumentException("the simulated address space has no room for a registration of " + length
                    + " bytes across a 4 GiB boundary");
        }
        nextSlot = Math.ceilDiv(end, SimOptions.FOUR_GIB) + 1;
        return base;
    }

    int nextKey() {
        return nextKey.getAndIncrement();
    }
}
