package io.remus.core.shm;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.fabric.Plane;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RegistrationChecks;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node of the shared-memory fabric in this process: its directory {@code node-N}, its node file,
 * its registrations (region files) and publications, and the peers its queue pairs reach.
 */
final class ShmNode implements FabricNode {
    private final ShmFabric fabric;
    private final int nodeId;
    private final Path dir;
    /** Owns the mapping of the node file. */
    private final Arena nodeArena;
    private final MemorySegment header;
    /** This opening's incarnation, also in the node file and in each region file's header. */
    private final long incarnation;
    /** Owns every peer file this node's queue pairs mapped; closed with the node. */
    private final Arena peerArena = Arena.ofShared();
    private final ConcurrentHashMap<Integer, ShmPeer> peers = new ConcurrentHashMap<>();
    private final CopyOnWriteArrayList<RemoteRegion> published = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private volatile ShmRegion[] regions = new ShmRegion[0];
    private int nextKey = 0x1000;
    private ShmReceiveQueue receiveQueue;
    private volatile boolean closed;

    private ShmNode(ShmFabric fabric, int nodeId, Path dir, Arena nodeArena, MemorySegment header, long incarnation) {
        this.fabric = fabric;
        this.nodeId = nodeId;
        this.dir = dir;
        this.nodeArena = nodeArena;
        this.header = header;
        this.incarnation = incarnation;
    }

    /**
     * Creates node {@code nodeId}'s directory and node file, state open, with a new incarnation. When the
     * directory already has the node and its former incarnation is over (its process closed it, or the process
     * that opened it no longer runs), that incarnation is taken over: its node file is marked closed, so every
     * peer that still maps it gets {@code RETRY_EXCEEDED} from then on, and its directory is removed before this
     * one is created.
     *
     * @throws BadArgumentException when the directory already has the node and its process still runs (a
     *                              duplicate node id), or its files are not a node's
     */
    static ShmNode create(ShmFabric fabric, int nodeId) {
        Path dir = ShmFiles.nodeDir(fabric.directory(), nodeId);
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            takeOver(fabric, nodeId, dir);
            try {
                Files.createDirectory(dir);
            } catch (FileAlreadyExistsException again) {
                throw new BadArgumentException("node " + nodeId + " already has files in " + fabric.directory()
                        + " (another process opened it at the same time)");
            } catch (IOException io) {
                throw new RemusException("cannot create " + dir + ": " + io, io);
            }
        } catch (IOException e) {
            throw new RemusException("cannot create " + dir + ": " + e, e);
        }
        long incarnation = ShmFiles.newIncarnation();
        Arena arena = Arena.ofShared();
        Path file = dir.resolve(ShmFiles.NODE);
        Path tmp = ShmFiles.temporary(file);
        try {
            MemorySegment header = ShmFiles.createAndMap(tmp, ShmFiles.NODE_FILE_BYTES, arena);
            ShmFiles.WORD.setVolatile(header, ShmFiles.NODE_ID, (long) nodeId);
            ShmFiles.WORD.setVolatile(header, ShmFiles.NODE_PID, ProcessHandle.current().pid());
            ShmFiles.WORD.setVolatile(header, ShmFiles.NODE_INCARNATION, incarnation);
            ShmFiles.WORD.setVolatile(header, ShmFiles.NODE_STATE, ShmFiles.OPEN);
            ShmFiles.WORD.setVolatile(header, ShmFiles.MAGIC, ShmFiles.NODE_MAGIC);
            move(tmp, file);
            return new ShmNode(fabric, nodeId, dir, arena, header, incarnation);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Ends the former incarnation of node {@code nodeId} whose directory {@code dir} exists: refuses one whose
     * process still runs; else marks its node file closed (peers that map it fail from then on), moves the
     * directory aside (so no peer finds a former file under a current name) and removes it.
     */
    private static void takeOver(ShmFabric fabric, int nodeId, Path dir) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment former = ShmFiles.mapExisting(dir.resolve(ShmFiles.NODE), ShmFiles.NODE_FILE_BYTES, arena);
            if (former == null || (long) ShmFiles.WORD.getVolatile(former, ShmFiles.MAGIC) != ShmFiles.NODE_MAGIC) {
                throw new BadArgumentException("node " + nodeId + " already has files in " + fabric.directory()
                        + " but no complete node file (another process is opening it, or the files are not a node's)");
            }
            long pid = (long) ShmFiles.WORD.getVolatile(former, ShmFiles.NODE_PID);
            boolean open = (long) ShmFiles.WORD.getVolatile(former, ShmFiles.NODE_STATE) == ShmFiles.OPEN;
            if (open && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                throw new BadArgumentException("node " + nodeId + " already has files in " + fabric.directory()
                        + " and is open in process " + pid + ", which still runs (a duplicate node id)");
            }
            ShmFiles.WORD.setVolatile(former, ShmFiles.NODE_STATE, ShmFiles.CLOSED);
        }
        Path aside = dir.resolveSibling(dir.getFileName() + ".former-" + Long.toHexString(ShmFiles.newIncarnation()));
        try {
            Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (java.nio.file.NoSuchFileException gone) {
            return;
        } catch (IOException e) {
            throw new RemusException("cannot move node " + nodeId + "'s former directory " + dir + " aside: " + e, e);
        }
        try {
            ShmFabric.removeNodeDirectory(aside);
        } catch (IOException ignored) {
            // a former directory left behind goes with the cluster's files (ShmFabric.removeFiles)
        }
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Drawn at random when this process opened the node (never 0) and written in its node file, where peers
     * read it when they connect or reset a queue pair ({@link QueuePair#peerIncarnation()}).
     */
    @Override
    public long incarnation() {
        return incarnation;
    }

    @Override
    public RegisteredMemory allocate(long bytes) {
        RegistrationChecks.requireAllocatable(bytes);
        ShmFiles.requireSpace(dir, bytes + ShmFiles.PAGE);
        synchronized (this) {
            ensureOpen();
            int lkey = nextKey++;
            int rkey = nextKey++;
            Path file = ShmFiles.regionFile(fabric.directory(), nodeId, rkey);
            Path tmp = ShmFiles.temporary(file);
            Arena arena = Arena.ofShared();
            try {
                MemorySegment whole = ShmFiles.createAndMap(tmp, ShmFiles.PAGE + bytes, arena);
                MemorySegment data = whole.asSlice(ShmFiles.PAGE, bytes);
                RemotePtr.requireRange(data.address(), bytes);
                ShmFiles.WORD.setVolatile(whole, ShmFiles.NODE_ID, (long) nodeId);
                ShmFiles.WORD.setVolatile(whole, ShmFiles.REGION_RKEY, (long) rkey);
                ShmFiles.WORD.setVolatile(whole, ShmFiles.REGION_ADDRESS, data.address());
                ShmFiles.WORD.setVolatile(whole, ShmFiles.REGION_LENGTH, bytes);
                ShmFiles.WORD.setVolatile(whole, ShmFiles.REGION_STATE, ShmFiles.REGISTERED);
                ShmFiles.WORD.setVolatile(whole, ShmFiles.REGION_INCARNATION, incarnation);
                ShmFiles.WORD.setVolatile(whole, ShmFiles.MAGIC, ShmFiles.REGION_MAGIC);
                move(tmp, file);
                return add(new ShmRegion(this, data, whole, file, arena, lkey, rkey));
            } catch (RuntimeException e) {
                arena.close();
                deleteQuietly(tmp);
                throw e;
            }
        }
    }

    @Override
    public synchronized RegisteredMemory register(MemorySegment segment) {
        RegistrationChecks.requireRegistrable(segment);
        ensureOpen();
        int lkey = nextKey++;
        int rkey = nextKey++;
        return add(new ShmRegion(this, segment, null, null, null, lkey, rkey));
    }

    private ShmRegion add(ShmRegion region) {
        regions = RegistrationChecks.adding(regions, region);
        owned.add(region);
        return region;
    }

    /** Forgets {@code region}, withdraws its publication and removes its file ({@code null}: none). */
    synchronized void deregister(ShmRegion region, Path file) {
        regions = RegistrationChecks.removing(regions, region);
        if (published.removeIf(r -> r.rkey() == region.rkey()) && !closed) {
            writePublished();
        }
        if (file != null) {
            deleteQuietly(file);
        }
    }

    @Override
    public synchronized void publishAll(List<? extends RegisteredMemory> memories) {
        ensureOpen();
        List<RemoteRegion> more = RegistrationChecks.publications(nodeId, memories,
                m -> m instanceof ShmRegion region && region.node() == this && !region.isClosed(), true);
        if (more.isEmpty()) {
            return;
        }
        List<RemoteRegion> next = new ArrayList<>(published);
        next.addAll(more);
        writePublished(next);
        published.addAll(more);
    }

    /** Replaces the {@code published} file with the current list, atomically. */
    private void writePublished() {
        writePublished(published);
    }

    /** Replaces the {@code published} file with {@code regions}, atomically: a reader finds the old list or this one. */
    private void writePublished(List<RemoteRegion> regions) {
        StringBuilder text = new StringBuilder();
        for (RemoteRegion r : regions) {
            text.append(Integer.toUnsignedString(r.rkey())).append(' ').append(r.address()).append(' ')
                    .append(r.length()).append('\n');
        }
        Path file = dir.resolve(ShmFiles.PUBLISHED);
        Path tmp = ShmFiles.temporary(file);
        try {
            Files.writeString(tmp, text, StandardCharsets.US_ASCII);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new RemusException("cannot write " + file + ": " + e, e);
        }
    }

    List<RemoteRegion> published() {
        return List.copyOf(published);
    }

    ShmRegion findByLkey(int lkey, long address, long length) {
        return RegistrationChecks.coveringLocal(regions, lkey, address, length);
    }

    /** {@return the caller-owned registration with remote key {@code rkey}, or null} */
    ShmRegion callerOwned(int rkey) {
        for (ShmRegion r : regions) {
            if (r.rkey() == rkey && !r.shared()) {
                return r;
            }
        }
        return null;
    }

    @Override
    public synchronized CompletionQueue createCompletionQueue(int capacity) {
        ensureOpen();
        ShmCompletionQueue cq = new ShmCompletionQueue(nodeId, capacity);
        owned.add(cq);
        return cq;
    }

    /**
     * Creates the node's receive queue in its file {@code node-N/receive}, which senders map.
     *
     * @throws BadArgumentException when {@code cq} is not this node's, {@code depth} is outside
     *                              1..{@value ShmReceiveQueue#MAX_DEPTH}, or the node already has one or is closed
     */
    @Override
    public synchronized ReceiveQueue createReceiveQueue(CompletionQueue cq, int depth) {
        ensureOpen();
        FabricNode.requireReceiveCompletionQueue(nodeId, cq instanceof ShmCompletionQueue mine && owned.contains(mine));
        FabricNode.checkNewReceiveQueue(nodeId, depth, ShmReceiveQueue.MAX_DEPTH, receiveQueue != null);
        ShmCompletionQueue own = (ShmCompletionQueue) cq;
        Path file = dir.resolve(ShmReceiveQueue.FILE);
        Path tmp = ShmFiles.temporary(file);
        MemorySegment mapped = ShmFiles.createAndMap(tmp, ShmReceiveQueue.fileBytes(depth), nodeArena);
        ShmReceiveQueue rq = ShmReceiveQueue.create(this, mapped, depth);
        move(tmp, file);
        own.attach(rq);
        receiveQueue = rq;
        return rq;
    }

    @Override
    public synchronized QueuePair connect(int peerNodeId, int plane, CompletionQueue cq, int sendQueueDepth,
            Duration waitTimeout) {
        Plane.require(plane);
        ensureOpen();
        FabricNode.checkWaitTimeout(waitTimeout);
        if (!(cq instanceof ShmCompletionQueue shmCq) || !owned.contains(shmCq)) {
            throw new BadArgumentException("a queue pair of node " + nodeId + " needs a completion queue of that node");
        }
        RemotePtr.requireNodeId(peerNodeId);
        ShmPeer peer = peers.get(peerNodeId);
        if (peer == null || !peer.answering()) {
            peer = reach(peerNodeId, peer);
            if (peer == null) {
                throw new BadArgumentException("node " + peerNodeId + " has not opened in " + fabric.directory());
            }
        }
        ShmQueuePair qp = new ShmQueuePair(this, peer, plane, shmCq, sendQueueDepth, waitTimeout);
        shmCq.attach(qp);
        owned.add(qp);
        return qp;
    }

    /**
     * Maps node {@code peerNodeId}'s node file as it is now, when it is another incarnation than {@code former}
     * (or there is no {@code former}), and keeps it as the peer this node's queue pairs reach from then on; the
     * mappings of the former incarnation stay until this node closes, its files marked closed.
     *
     * @param former the incarnation a queue pair reached, or null
     * @return the peer now, {@code former} while the node's directory has no other incarnation, or null when
     *         there is none at all
     */
    synchronized ShmPeer reach(int peerNodeId, ShmPeer former) {
        ShmPeer kept = peers.get(peerNodeId);
        if (kept != null && kept != former) {
            return kept;
        }
        ShmPeer now = ShmPeer.open(fabric, peerNodeId, peerArena);
        if (now == null || former != null && now.incarnation() == former.incarnation()) {
            return former;
        }
        peers.put(peerNodeId, now);
        return now;
    }

    /** How long {@link #setPeerAccess} waits for the peer's writes executing on this node to end. */
    static final Duration ACCESS_SWITCH_WAIT = Duration.ofSeconds(10);

    /**
     * Switches {@code peerNodeId}'s access in its slots of this node's access table, one per plane, which every
     * WRITE and atomic of that peer, in any process, counts itself into (the slot of its queue pair's plane)
     * before it changes memory and checks: switching to {@code READ_ONLY} marks every slot, then waits until the
     * writes counted before the marks have ended, so none lands after this returns.
     *
     * @throws io.remus.core.error.RemoteTimeoutException when the peer's writes counted before the mark have
     *                                                   not ended within {@link #ACCESS_SWITCH_WAIT} (a process
     *                                                   that died inside a write); the slot stays marked, so no
     *                                                   later write of the peer lands
     */
    @Override
    public void setPeerAccess(int peerNodeId, PeerAccess access) {
        FabricNode.checkPeerAccess(nodeId, peerNodeId, access);
        switchAccess(peerNodeId, 0, Plane.COUNT, access);
    }

    /**
     * As {@link #setPeerAccess(int, PeerAccess)}, in the peer's one slot of plane {@code plane}: only the peer's
     * WRITEs and atomics of that plane are waited for and refused.
     */
    @Override
    public void setPeerAccess(int peerNodeId, int plane, PeerAccess access) {
        FabricNode.checkPeerAccess(nodeId, peerNodeId, plane, access);
        switchAccess(peerNodeId, plane, 1, access);
    }

    /** Switches the peer's slots of planes {@code from..from + count - 1}: all marked first, then each drained. */
    private void switchAccess(int peerNodeId, int from, int count, PeerAccess access) {
        ensureOpen();
        if (access == PeerAccess.READ_WRITE) {
            for (int plane = from; plane < from + count; plane++) {
                ShmFiles.WORD.getAndBitwiseAnd(header, ShmFiles.accessSlot(peerNodeId, plane), ~ShmFiles.READ_ONLY);
            }
            return;
        }
        for (int plane = from; plane < from + count; plane++) {
            ShmFiles.WORD.getAndBitwiseOr(header, ShmFiles.accessSlot(peerNodeId, plane), ShmFiles.READ_ONLY);
        }
        long deadline = System.nanoTime() + ACCESS_SWITCH_WAIT.toNanos();
        for (int plane = from; plane < from + count; plane++) {
            long slot = ShmFiles.accessSlot(peerNodeId, plane);
            long executing;
            while ((executing = (long) ShmFiles.WORD.getVolatile(header, slot) & ~ShmFiles.READ_ONLY) != 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("node " + nodeId + " marked peer " + peerNodeId + " read-only on"
                            + " plane " + plane + " but " + executing + " of its writes did not end within "
                            + ACCESS_SWITCH_WAIT);
                }
                Thread.onSpinWait();
            }
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new BadArgumentException("node " + nodeId + " is closed");
        }
    }

    /**
     * Closes the queue pairs, completion queues and registrations (removing their files), marks the
     * node file closed (peers' requests then complete with {@code RETRY_EXCEEDED}) and unmaps the peers.
     * The node's directory and node file stay until the cluster's files are removed. Idempotent.
     */
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
        ShmFiles.WORD.setVolatile(header, ShmFiles.NODE_STATE, ShmFiles.CLOSED);
        FabricNode.closeAll(nodeId, toClose, c -> c instanceof ShmCompletionQueue cq ? cq::closeWithNode : c);
        deleteQuietly(dir.resolve(ShmFiles.PUBLISHED));
        deleteQuietly(dir.resolve(ShmReceiveQueue.FILE));
        peers.clear();
        peerArena.close();
        nodeArena.close();
        fabric.forget(this);
    }

    private static void move(Path tmp, Path file) {
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new RemusException("cannot create " + file + ": " + e, e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a file left behind goes with the cluster's directory
        }
    }
}
