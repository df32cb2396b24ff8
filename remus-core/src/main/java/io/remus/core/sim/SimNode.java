package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.Plane;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RegistrationChecks;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** A simulated node: its registrations, its NIC lock for atomics, and its fault switches. */
final class SimNode implements FabricNode {
    private static final long PAGE = 4096;

    private final SimFabric fabric;
    private final int nodeId;
    private final long incarnation;
    private final ReentrantLock nicAtomicLock = new ReentrantLock();
    /** Reservations between two sweeps of idle atomic units, when more than this many words have one. */
    private static final int UNIT_SWEEP_EVERY = 1 << 16;
    /** How long an atomic unit stays in the table after it fell idle; an idle unit is the same as none. */
    private static final long UNIT_SWEEP_AGE_NANOS = 1_000_000_000L;

    private final ConcurrentHashMap<Long, Long> atomicUnitFree = new ConcurrentHashMap<>();
    /** The NIC's request pipeline as responder ({@link SimCostModel#nicRequestPicos()}). */
    private final SimPipeline nicPipeline = new SimPipeline();
    /** The NIC's atomic engine across all words ({@link SimCostModel#nicAtomicPicos()}). */
    private final SimPipeline nicAtomicEngine = new SimPipeline();
    private final AtomicLong reservations = new AtomicLong();
    private final CopyOnWriteArrayList<RemoteRegion> published = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private final AtomicInteger failNext = new AtomicInteger();
    private volatile SimRegion[] regions = new SimRegion[0];
    private volatile boolean answering = true;
    private volatile SimReceiveQueue receiveQueue;
    /** The completion queue {@link #receiveQueue} delivers into, set before it. */
    private volatile SimCompletionQueue receiveCq;
    private volatile boolean closed;
    /** Held (read) by every WRITE and atomic while it checks its peer's access and changes memory; held (write) to switch. */
    private final ReentrantReadWriteLock accessLock = new ReentrantReadWriteLock();
    /**
     * The peers' planes switched to {@link PeerAccess#READ_ONLY}, bit {@code peer * Plane.COUNT + plane}: changed under
     * {@link #accessLock}'s write lock, read under its read lock (a bit set, so that a WRITE's check boxes nothing).
     */
    private final java.util.BitSet readOnlyPeers = new java.util.BitSet();
    /** What a WRITE waits for while a switch holds {@link #accessLock}, for virtual-time reports (built once). */
    private final String awaitedSwitch;

    SimNode(SimFabric fabric, int nodeId, long incarnation) {
        this.fabric = fabric;
        this.nodeId = nodeId;
        this.incarnation = incarnation;
        this.awaitedSwitch = "a peer access switch of node " + nodeId;
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    /** {@return this open's incarnation: nonzero, unique on the fabric ({@link SimFabric#open})} */
    @Override
    public long incarnation() {
        return incarnation;
    }

    /** {@return whether this node was closed or crashed: it never answers again} */
    boolean isClosed() {
        return closed;
    }

    SimFabric fabric() {
        return fabric;
    }

    SimOptions options() {
        return fabric.options();
    }

    ReentrantLock nicAtomicLock() {
        return nicAtomicLock;
    }

    /**
     * Reserves the NIC atomic unit of the 8-byte word at {@code address} for an atomic arriving at
     * {@code arrival}: it starts when the unit is free and keeps it busy for {@code busyNanos}.
     *
     * @return when the atomic starts, {@code arrival} or later
     */
    long reserveAtomicUnit(long address, long arrival, long busyNanos) {
        if ((reservations.incrementAndGet() & (UNIT_SWEEP_EVERY - 1)) == 0 && atomicUnitFree.size() > UNIT_SWEEP_EVERY) {
            atomicUnitFree.values().removeIf(free -> free - (arrival - UNIT_SWEEP_AGE_NANOS) < 0);
        }
        long[] start = new long[1];
        atomicUnitFree.compute(address >>> 3, (word, free) -> {
            long s = free == null || free - arrival <= 0 ? arrival : free;
            start[0] = s;
            return s + busyNanos;
        });
        return start[0];
    }

    /**
     * Reserves this node's NIC, as responder, for a request ready to execute at {@code arrival}: it
     * executes when the NIC is free and keeps it busy for {@code busyPicos}.
     *
     * @return when the request executes, {@code arrival} or later
     */
    long reserveNic(long arrival, long busyPicos) {
        return nicPipeline.reserve(arrival, busyPicos);
    }

    /**
     * Reserves this node's NIC atomic engine, shared by the atomics on all words, for an atomic arriving
     * at {@code arrival}: it starts when the engine is free and keeps it busy for {@code busyPicos}.
     *
     * @return when the atomic starts, {@code arrival} or later
     */
    long reserveAtomicEngine(long arrival, long busyPicos) {
        return nicAtomicEngine.reserve(arrival, busyPicos);
    }

    boolean answering() {
        return answering && !closed;
    }

    void answering(boolean on) {
        answering = on;
    }

    void failNext(int count) {
        failNext.set(count);
    }

    boolean consumeInjectedFailure() {
        return failNext.get() > 0 && failNext.getAndDecrement() > 0;
    }

    /**
     * Enters the execution of a WRITE or atomic of {@code peer}'s queue pair of plane {@code plane} against this
     * node: returns whether the peer may write on that plane; when it returns true the caller changes memory and
     * then calls {@link #endWrite}. A switch waits for every write entered before it to end, so none lands after
     * the switch returns.
     */
    boolean beginWrite(int peer, int plane) {
        lock(accessLock.readLock(), awaitedSwitch);
        if (readOnlyPeers.get(peer * Plane.COUNT + plane)) {
            accessLock.readLock().unlock();
            return false;
        }
        return true;
    }

    /** Ends a write that {@link #beginWrite} let in. */
    void endWrite() {
        accessLock.readLock().unlock();
    }

    /**
     * Takes {@code lock}; a thread of a virtual-time run takes it by trying in a wait loop, since its holder
     * may be a simulated thread that yields while it holds it.
     */
    private static void lock(Lock lock, String awaited) {
        if (ThreadTime.isScheduled()) {
            while (!lock.tryLock()) {
                ThreadTime.onSpinWait(awaited);
            }
        } else {
            lock.lock();
        }
    }

    /**
     * Switches {@code peerNodeId}'s access: checked on every WRITE and atomic as it executes, under a
     * read lock it holds while it changes memory, so the switch (under the write lock) waits for the
     * writes executing and every later one sees it.
     */
    @Override
    public void setPeerAccess(int peerNodeId, PeerAccess access) {
        FabricNode.checkPeerAccess(nodeId, peerNodeId, access);
        switchAccess(peerNodeId * Plane.COUNT, Plane.COUNT, access);
    }

    /** As {@link #setPeerAccess(int, PeerAccess)}, for the peer's queue pairs of one plane. */
    @Override
    public void setPeerAccess(int peerNodeId, int plane, PeerAccess access) {
        FabricNode.checkPeerAccess(nodeId, peerNodeId, plane, access);
        switchAccess(peerNodeId * Plane.COUNT + plane, 1, access);
    }

    /** Sets bits {@code from..from + count - 1} of {@link #readOnlyPeers} for {@code READ_ONLY}, else clears them. */
    private void switchAccess(int from, int count, PeerAccess access) {
        ensureOpen();
        Lock write = accessLock.writeLock();
        lock(write, "writes executing on node " + nodeId);
        try {
            if (access == PeerAccess.READ_ONLY) {
                readOnlyPeers.set(from, from + count);
            } else {
                readOnlyPeers.clear(from, from + count);
            }
        } finally {
            write.unlock();
        }
    }

    List<RemoteRegion> published() {
        return List.copyOf(published);
    }

    @Override
    public RegisteredMemory allocate(long bytes) {
        RegistrationChecks.requirePositiveLength(bytes);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment segment = RegistrationChecks.allocate(arena, bytes, PAGE);
            return add(new SimRegion(this, segment, fabric.place(segment), arena, fabric.nextKey(), fabric.nextKey()));
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public RegisteredMemory register(MemorySegment segment) {
        RegistrationChecks.requireRegistrable(segment);
        return add(new SimRegion(this, segment, fabric.place(segment), null, fabric.nextKey(), fabric.nextKey()));
    }

    private synchronized SimRegion add(SimRegion region) {
        ensureOpen();
        regions = RegistrationChecks.adding(regions, region);
        owned.add(region);
        return region;
    }

    synchronized void deregister(SimRegion region) {
        regions = RegistrationChecks.removing(regions, region);
        published.removeIf(r -> r.rkey() == region.rkey());
    }

    @Override
    public void publishAll(List<? extends RegisteredMemory> memories) {
        published.addAll(RegistrationChecks.publications(nodeId, memories,
                m -> m instanceof SimRegion region && region.node() == this, false));
    }

    SimRegion findByRkey(int rkey, long address, long length) {
        return RegistrationChecks.coveringRemote(regions, rkey, address, length);
    }

    SimRegion findByLkey(int lkey, long address, long length) {
        return RegistrationChecks.coveringLocal(regions, lkey, address, length);
    }

    @Override
    public synchronized CompletionQueue createCompletionQueue(int capacity) {
        ensureOpen();
        SimCompletionQueue cq = new SimCompletionQueue(nodeId, capacity);
        owned.add(cq);
        return cq;
    }

    /** The most receives a simulated receive queue holds. */
    static final int MAX_RECEIVE_DEPTH = 1 << 20;

    @Override
    public synchronized ReceiveQueue createReceiveQueue(CompletionQueue cq, int depth) {
        ensureOpen();
        FabricNode.requireReceiveCompletionQueue(nodeId, cq instanceof SimCompletionQueue own && owned.contains(own));
        FabricNode.checkNewReceiveQueue(nodeId, depth, MAX_RECEIVE_DEPTH, receiveQueue != null);
        SimCompletionQueue simCq = (SimCompletionQueue) cq;
        SimReceiveQueue rq = new SimReceiveQueue(this, depth);
        simCq.attach(rq);
        receiveCq = simCq;
        receiveQueue = rq;
        return rq;
    }

    /** {@return the receive queue, or null when none was created} */
    SimReceiveQueue receiveQueue() {
        return receiveQueue;
    }

    @Override
    public synchronized QueuePair connect(int peerNodeId, int plane, CompletionQueue cq, int sendQueueDepth,
            Duration waitTimeout) {
        Plane.require(plane);
        ensureOpen();
        FabricNode.checkWaitTimeout(waitTimeout);
        if (!(cq instanceof SimCompletionQueue simCq)) {
            throw new BadArgumentException("a simulated QP needs a simulated completion queue");
        }
        SimNode peer = fabric.peer(peerNodeId);
        SimQueuePair qp = new SimQueuePair(this, peer, plane, simCq, sendQueueDepth);
        simCq.attach(qp);
        peer.accepted(qp);
        owned.add(qp);
        return qp;
    }

    /**
     * A peer connected {@code qp} to this node: when {@code qp} delivers messages into this node's
     * receive queue, that queue's completion queue now serves the connection until this node closes (in
     * verbs, through the serving queue pair the connection made on this node).
     */
    void accepted(SimQueuePair qp) {
        SimCompletionQueue cq = receiveCq;
        if (cq != null && qp.receiver() != null) {
            cq.serveConnection();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new BadArgumentException("node " + nodeId + " is closed");
        }
    }

    /**
     * The process dies ({@link SimFabric#crash}): as {@link #close}, which releases its memory and frees its id;
     * requests of other nodes to it fail as to a node that does not answer ({@link #answering()} is false).
     */
    void crash() {
        close();
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(owned);
            owned.clear();
        }
        FabricNode.closeAll(nodeId, toClose, c -> c instanceof SimCompletionQueue cq ? cq::closeWithNode : c);
        fabric.forget(this);
    }
}
