package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;

import io.remus.core.fabric.Opcode;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
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
    /** Ids of nodes that were open once and closed or crashed since: peers that went away, not unknown ids. */
    private final Set<Integer> departed = ConcurrentHashMap.newKeySet();
    private final AtomicInteger nextKey = new AtomicInteger(0x1000);
    /** The incarnation the next {@link #open} hands out: nonzero, never handed out twice on this fabric. */
    private final java.util.concurrent.atomic.AtomicLong nextIncarnation = new java.util.concurrent.atomic.AtomicLong(1);
    private final AtomicReference<SimFreeze> freeze = new AtomicReference<>();
    /** The next free 4 GiB slot of the simulated address space ({@link SimOptions#straddleOffset()}). */
    private long nextSlot = 1;
    /**
     * The side of every cut by node id: two nodes reach each other when their entries are equal (an id past the
     * end is on side 0, as is every node no partition named); null while no link is cut. Replaced whole, under
     * {@link #cutLock}.
     */
    private volatile int[] sides;
    /** Serializes {@link #partition} and {@link #heal}; guards {@link #nextSide}. */
    private final Object cutLock = new Object();
    /** The next side number a partition hands out; side numbers are never reused until {@link #heal}. */
    private int nextSide = 1;

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

    /**
     * Opens node {@code nodeId}: a new incarnation ({@link FabricNode#incarnation()}, nonzero and different from
     * every earlier open on this fabric, of this id or another), with no memory registered. A node id may be
     * opened again once the node of that id was closed or {@linkplain #crash crashed}: that is a process
     * restarted with new memory, and queue pairs of other nodes reach it once they are reset
     * ({@link io.remus.core.fabric.QueuePair#peerIncarnation()}).
     *
     * @param nodeId the node's id
     * @return the node
     * @throws BadArgumentException when a node of that id is open on this fabric, or the id is outside a pointer's range
     */
    @Override
    public FabricNode open(int nodeId) {
        RemotePtr.requireNodeId(nodeId);
        SimNode node = new SimNode(this, nodeId, nextIncarnation.getAndIncrement());
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
     * Fault injection: node {@code nodeId}'s process dies, as a {@code SIGKILL} would end it. Its memory is gone at
     * once: every region it registered is released, so nothing of it can be read again, and the node id is free to
     * {@linkplain #open open} again, which is the process restarted with new memory (a new incarnation: build a
     * fresh {@link io.remus.core.RemusNode} on it, which registers and publishes new regions). Queue pairs of other
     * nodes keep the dead incarnation as their peer: a request in flight to it, or posted to it later, completes as
     * one to a node that {@linkplain #stopAnswering stopped answering} does, with {@code RETRY_EXCEEDED} once the
     * {@linkplain SimOptions#transportTimeoutNanos() transport timeout} has passed since it was due, the queue pair
     * then in the error state; a request whose execution the crash interrupts completes the same way. A queue pair
     * {@linkplain io.remus.core.fabric.QueuePair#reset reset} after the node id was opened again reaches the new
     * incarnation, and its {@link io.remus.core.fabric.QueuePair#peerIncarnation()} says so (a compute thread then
     * throws {@link io.remus.core.error.PeerRestartedException} once); one reset while the id is not open stays with
     * the dead incarnation. The dead node's own queue pairs, completion queues and receive queue are closed: its
     * threads' later posts fail. A partition ({@link #partition}) stays with the node id. The dead node's
     * {@code FabricNode} may still be closed afterwards (nothing happens).
     *
     * <p>Under {@link VirtualTimeScheduler} the crash takes effect at the virtual time of the thread that calls it.
     *
     * @param nodeId an open node
     * @throws BadArgumentException when no node of that id is open on this fabric
     */
    public void crash(int nodeId) {
        node(nodeId).crash();
    }

    /**
     * Fault injection: node {@code nodeId} stops answering; requests to it complete with
     * {@code RETRY_EXCEEDED} after the transport timeout. Its own requests to other nodes still execute; to cut a
     * node off in both directions, see {@link #isolate(int)}.
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
     * Fault injection: a network partition. Cuts every link between the nodes of {@code side} and every other node,
     * in both directions, on top of the links already cut: a READ, WRITE, atomic, SEND or WRITE_WITH_IMMEDIATE that
     * a queue pair posts across a cut link completes, as a request to a node that {@linkplain #stopAnswering stopped
     * answering} does, with {@code RETRY_EXCEEDED} once the {@linkplain SimOptions#transportTimeoutNanos() transport
     * timeout} has passed since it was due (the compute thread reports a
     * {@link io.remus.core.error.PeerUnreachableException}), the queue pair then in the error state; nothing of it
     * reaches the far side. Links within a side, and each node's loopback, carry on. A request whose link is healed
     * before its transport timeout has passed executes instead of failing: on host threads at its queue pair's next
     * poll, and under {@link VirtualTimeScheduler} when the timeout would have passed (a waiting thread is not woken
     * by the heal), as a retransmission would land. Queue pairs connect across a cut
     * (their requests fail), and a node's CPU access to its own memory is not affected.
     *
     * <p>The cut is kept by node id: a node closed and opened again stays on its side, and a node opened later is on
     * the side of the nodes no partition named. Two partitions compose: {@code partition({0, 1})} then
     * {@code partition({1, 2})} leaves nodes 0, 1 and 2 each cut from the other two, and {@link #isolate} of two
     * nodes one after the other isolates both. Under {@link VirtualTimeScheduler} a partition takes effect at the
     * virtual time of the thread that makes it, and every request's outcome follows from the virtual times alone, so
     * a seed replays it. Independent of {@link #stopAnswering}: a node that stopped answering stays silent across
     * a {@link #heal()}.
     *
     * <p>Cost: a queue pair checks its link each time it looks at its oldest request, one volatile load, and two
     * array reads more while links are cut.
     *
     * @param side the nodes on one side, each open on this fabric; at least one, and not every open node
     * @throws BadArgumentException when {@code side} is empty, names a node id outside a pointer's range or one not
     *                              open on this fabric, or holds every open node (there would be no other side);
     *                              nothing is cut then
     */
    public void partition(Set<Integer> side) {
        Objects.requireNonNull(side, "side");
        TreeSet<Integer> ids = new TreeSet<>();
        for (Integer id : side) {
            ids.add(Objects.requireNonNull(id, "side"));
        }
        if (ids.isEmpty()) {
            throw new BadArgumentException("a partition needs at least one node on its side, got none");
        }
        for (int id : ids) {
            RemotePtr.requireNodeId(id);
            node(id);
        }
        synchronized (cutLock) {
            TreeSet<Integer> open = new TreeSet<>(nodes.keySet());
            if (ids.containsAll(open)) {
                throw new BadArgumentException("a partition's side " + ids + " holds every open node " + open
                        + ": at least one must stay on the other side");
            }
            int[] now = sides;
            int[] next = Arrays.copyOf(now == null ? new int[0] : now, Math.max(now == null ? 0 : now.length, ids.last() + 1));
            Map<Integer, Integer> renamed = new HashMap<>();
            for (int id : ids) {
                next[id] = renamed.computeIfAbsent(next[id], old -> nextSide++);
            }
            sides = next;
        }
    }

    /**
     * Fault injection: cuts every link between node {@code nodeId} and the other nodes, both directions;
     * {@link #partition(Set)} of that one node, with its semantics.
     *
     * @param nodeId an open node, not the only one
     * @throws BadArgumentException when {@code nodeId} is not open on this fabric or is its only open node
     */
    public void isolate(int nodeId) {
        partition(Set.of(nodeId));
    }

    /**
     * Restores every link that {@link #partition} or {@link #isolate} cut; a request already posted across a cut and
     * not yet completed then executes (see {@link #partition}). Nodes that {@linkplain #stopAnswering stopped
     * answering} stay silent. Idempotent.
     */
    public void heal() {
        synchronized (cutLock) {
            sides = null;
            nextSide = 1;
        }
    }

    /**
     * {@return whether node {@code from}'s requests reach node {@code to}: false while a {@link #partition} cuts the
     *          link between them; a node always reaches itself. Says nothing of {@link #stopAnswering}}
     *
     * @param from a node id
     * @param to   a node id
     * @throws BadArgumentException when either id is outside a pointer's range
     */
    public boolean linked(int from, int to) {
        RemotePtr.requireNodeId(from);
        RemotePtr.requireNodeId(to);
        return !cut(from, to);
    }

    /** {@return whether a partition cuts the link between nodes {@code a} and {@code b}} */
    boolean cut(int a, int b) {
        int[] s = sides;
        return s != null && a != b && (a < s.length ? s[a] : 0) != (b < s.length ? s[b] : 0);
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

    /** {@return the open node of id {@code nodeId}, or null when none is open} */
    SimNode openNode(int nodeId) {
        return nodes.get(nodeId);
    }

    SimNode node(int nodeId) {
        SimNode node = nodes.get(nodeId);
        if (node == null) {
            throw new BadArgumentException("node " + nodeId + " is not open on this fabric");
        }
        return node;
    }

    /**
     * {@return the open node of id {@code nodeId}, for a connection to it}
     *
     * @throws PeerUnreachableException when a node of that id was open once and closed or crashed since: a peer
     *                                  process that is gone, as a verbs connect to it fails
     * @throws BadArgumentException     when no node of that id was ever open on this fabric
     */
    SimNode peer(int nodeId) {
        SimNode node = nodes.get(nodeId);
        if (node == null && departed.contains(nodeId)) {
            throw new PeerUnreachableException(CompletionStatus.RETRY_EXCEEDED, nodeId, "node " + nodeId
                    + " closed or crashed and is not open on this fabric again");
        }
        return node(nodeId);
    }

    void forget(SimNode node) {
        departed.add(node.nodeId());
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
