package io.remus.core.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A node as the queue pairs of one node of this process reach it: its node file and the region
 * files they have named, mapped into this process (and kept mapped until the local node closes).
 * Thread-safe.
 */
final class ShmPeer {
    private final ShmFabric fabric;
    private final int nodeId;
    private final Path dir;
    private final MemorySegment header;
    private final long incarnation;
    private final Arena arena;
    /** The registrations found so far, copied on every addition: looking one up allocates nothing. */
    private volatile ShmTarget[] targets = new ShmTarget[0];
    private ShmReceiveQueue receiveQueue;

    private ShmPeer(ShmFabric fabric, int nodeId, MemorySegment header, Arena arena) {
        this.fabric = fabric;
        this.nodeId = nodeId;
        this.dir = fabric.directory();
        this.header = header;
        this.incarnation = (long) ShmFiles.WORD.getVolatile(header, ShmFiles.NODE_INCARNATION);
        this.arena = arena;
    }

    /**
     * Maps node {@code nodeId}'s node file in {@code arena}.
     *
     * @return the peer, or null when the node has not opened in the cluster's directory
     */
    static ShmPeer open(ShmFabric fabric, int nodeId, Arena arena) {
        MemorySegment header = ShmFiles.mapExisting(ShmFiles.nodeDir(fabric.directory(), nodeId).resolve(ShmFiles.NODE),
                ShmFiles.NODE_FILE_BYTES, arena);
        if (header == null || (long) ShmFiles.WORD.getVolatile(header, ShmFiles.MAGIC) != ShmFiles.NODE_MAGIC) {
            return null;
        }
        return new ShmPeer(fabric, nodeId, header, arena);
    }

    int nodeId() {
        return nodeId;
    }

    /** {@return the incarnation of the node whose file this peer maps} */
    long incarnation() {
        return incarnation;
    }

    /** {@return whether the node is open: false once its process closed it (a process that died leaves it open)} */
    boolean answering() {
        return (long) ShmFiles.WORD.getVolatile(header, ShmFiles.NODE_STATE) == ShmFiles.OPEN;
    }

    /**
     * Enters a WRITE or atomic of node {@code writer}'s queue pair of plane {@code plane} on this node: counts it
     * in the writer's access slot of that plane and returns whether the node lets the writer write on it; when
     * true the caller changes memory and then calls {@link #endWrite}, else it has nothing to end.
     */
    boolean beginWrite(int writer, int plane) {
        long slot = ShmFiles.accessSlot(writer, plane);
        if ((long) ShmFiles.WORD.getAndAdd(header, slot, 1L) < 0) {
            ShmFiles.WORD.getAndAdd(header, slot, -1L);
            return false;
        }
        return true;
    }

    /** Ends a write that {@link #beginWrite} let in. */
    void endWrite(int writer, int plane) {
        ShmFiles.WORD.getAndAdd(header, ShmFiles.accessSlot(writer, plane), -1L);
    }

    /** {@return the node's receive queue, mapped on first use, or null while the node has none} */
    synchronized ShmReceiveQueue receiveQueue() {
        if (receiveQueue == null) {
            MemorySegment file = ShmFiles.mapExisting(ShmFiles.nodeDir(dir, nodeId).resolve(ShmReceiveQueue.FILE),
                    ShmReceiveQueue.fileBytes(1), arena);
            receiveQueue = file == null ? null : ShmReceiveQueue.mapForSender(file);
        }
        return receiveQueue;
    }

    /**
     * Finds the registration with remote key {@code rkey}: its region file, mapped on first use, or a
     * caller-owned registration when the node lives in this process.
     *
     * @return the registration, or null when the node has none with that rkey (a region file of another
     *         incarnation of the node is none)
     */
    ShmTarget target(int rkey) {
        ShmTarget t = known(rkey);
        if (t != null) {
            return t;
        }
        synchronized (this) {
            t = known(rkey);
            if (t != null) {
                return t;
            }
            MemorySegment file = ShmFiles.mapExisting(ShmFiles.regionFile(dir, nodeId, rkey), ShmFiles.PAGE + 1, arena);
            if (file != null) {
                t = (long) ShmFiles.WORD.getVolatile(file, ShmFiles.REGION_INCARNATION) == incarnation
                        ? ShmTarget.ofFile(file) : null;
            } else {
                ShmRegion own = fabric.callerOwnedRegion(nodeId, rkey);
                t = own == null ? null : ShmTarget.ofLocal(own);
            }
            if (t != null && t.rkey() == rkey) {
                ShmTarget[] more = Arrays.copyOf(targets, targets.length + 1);
                more[more.length - 1] = t;
                targets = more;
                return t;
            }
            return null;
        }
    }

    private ShmTarget known(int rkey) {
        for (ShmTarget t : targets) {
            if (t.rkey() == rkey) {
                return t;
            }
        }
        return null;
    }
}
