package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.RdmaCm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * A reliable connection set up through the RDMA connection manager ({@link CmListener#accept},
 * {@link CmConnector#connect}): its connected queue pair, the region the peer offered and the
 * identifier it named, if any ({@link CmPrivateData}).
 * Closing it disconnects and destroys the queue pair, the id and its event channel.
 */
public final class CmConnection implements AutoCloseable {
    private final CmEventChannel channel;
    private final MemorySegment id;
    private final QueuePairHandle handle;
    private final ConnectedQueuePair queuePair;
    private final CmPrivateData peer;
    private boolean closed;
    private boolean peerGone;

    CmConnection(CmEventChannel channel, MemorySegment id, QueuePairHandle handle, CmPrivateData peer) {
        this.channel = channel;
        this.id = id;
        this.handle = handle;
        this.queuePair = new ConnectedQueuePair(handle);
        this.peer = peer;
    }

    /** {@return the connected queue pair (closed with this connection)} */
    public ConnectedQueuePair queuePair() {
        return queuePair;
    }

    /**
     * Reads the connection's pending connection-manager events without waiting and tells whether
     * the peer has left: {@code RDMA_CM_EVENT_DISCONNECTED} (the peer disconnected, or its process
     * died and the kernel tore its ids down), {@code DEVICE_REMOVAL} or {@code TIMEWAIT_EXIT}. Once
     * true, it stays true; a closed connection counts as left.
     *
     * @return whether the peer has left
     * @throws VerbsException if reading the event channel fails
     */
    public synchronized boolean peerDisconnected() {
        return readEventsUntilPeerLeft(System.nanoTime());
    }

    /**
     * Waits until the peer has left (see {@link #peerDisconnected()}). Closing only after the
     * peer disconnected is how a side that finished first lets the other finish: the peer's last
     * requests are acknowledged by this side's queue pair, and a request the peer retransmits
     * (its acknowledgement lost or late) must still find that queue pair: a peer whose partner
     * closed too early gets its requests completed with {@link CompletionStatus#RETRY_EXCEEDED}
     * after its retries.
     *
     * @param timeout how long to wait at most
     * @throws WaitTimeoutException if the peer is still connected at the timeout
     * @throws VerbsException       if reading the event channel fails
     */
    public synchronized void awaitPeerDisconnected(Duration timeout) {
        if (!readEventsUntilPeerLeft(Deadlines.after(timeout, "timeout"))) {
            throw new WaitTimeoutException("the peer did not disconnect within " + timeout);
        }
    }

    private boolean readEventsUntilPeerLeft(long deadline) {
        while (!closed && !peerGone) {
            CmEventChannel.Event e;
            try {
                e = channel.next(deadline);
            } catch (WaitTimeoutException none) {
                break;
            }
            int t = e.type();
            peerGone = t == RdmaCm.RDMA_CM_EVENT_DISCONNECTED || t == RdmaCm.RDMA_CM_EVENT_DEVICE_REMOVAL
                    || t == RdmaCm.RDMA_CM_EVENT_TIMEWAIT_EXIT;
        }
        return closed || peerGone;
    }

    /** {@return the region the peer offered in its private data} */
    public RemoteRegion peerRegion() {
        return peer.region();
    }

    /**
     * {@return the identifier the peer named in its private data ({@link CmPrivateData#senderId()}), or
     *          {@link CmPrivateData#NO_SENDER} where it named none}
     */
    public int peerId() {
        return peer.senderId();
    }

    /**
     * {@return the incarnation the peer named in its private data ({@link CmPrivateData#incarnation()}), or
     *          {@code 0} where it named none}
     */
    public long peerIncarnation() {
        return peer.incarnation();
    }

    /**
     * {@return the plane the peer named in its private data ({@link CmPrivateData#plane()}): the requester's, on a
     *          connection a {@link CmListener} accepted}
     */
    public int peerPlane() {
        return peer.plane();
    }

    /**
     * Disconnects ({@code rdma_disconnect}; a peer that already left is not an error), destroys
     * the queue pair, the id and the event channel. Idempotent.
     *
     * @throws VerbsException if a destroy verb fails
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try (Arena arena = Arena.ofConfined()) {
            RdmaCm.rdma_disconnect(Errno.allocate(arena), id);
        }
        try {
            handle.close();
        } finally {
            try {
                CmIds.destroy(id);
            } finally {
                channel.close();
            }
        }
    }
}
