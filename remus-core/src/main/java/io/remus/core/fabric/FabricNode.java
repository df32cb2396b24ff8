package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;
import io.remus.core.config.Timeouts;
import io.remus.core.error.CompletionStatus;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * One node of a fabric: its NIC, protection domain and registered memory.
 */
public interface FabricNode extends AutoCloseable {
    /** {@return this node's id} */
    int nodeId();

    /**
     * {@return this node's incarnation: a nonzero number that differs each time a node of this id is opened (a
     * process that restarts opens a new incarnation, with new memory); 0 where the fabric cannot tell}. Peers
     * learn it with each connection ({@link QueuePair#peerIncarnation()}), so a compute thread finds out that
     * the node it reached restarted ({@link io.remus.core.error.PeerRestartedException}).
     */
    default long incarnation() {
        return 0;
    }

    /**
     * Allocates zeroed native memory, page aligned, and registers it for local and remote
     * read, write and atomic access. The memory is freed when it is closed or the node closes.
     *
     * @param bytes the length, positive
     * @return the registration
     */
    RegisteredMemory allocate(long bytes);

    /**
     * Registers caller-owned native memory for local and remote read, write and atomic access.
     *
     * @param segment a native segment
     * @return the registration (closing it deregisters, it does not free the memory)
     * @throws io.remus.core.error.BadArgumentException when the segment is not native, is empty, or
     *                                            reaches past the 48-bit address space a
     *                                            {@link io.remus.core.memory.RemotePtr} carries (checked
     *                                            before the NIC is asked)
     */
    RegisteredMemory register(MemorySegment segment);

    /**
     * Makes a registration reachable by peers through {@link Fabric#publishedRegions(int)}: as
     * {@link #publishAll} of the one registration.
     *
     * @param memory a registration of this node
     * @throws io.remus.core.error.BadArgumentException when it is not a registration of this node
     */
    default void publish(RegisteredMemory memory) {
        publishAll(List.of(memory));
    }

    /**
     * Makes registrations reachable by peers through {@link Fabric#publishedRegions(int)} in one step: a
     * peer, in this process or another, sees none of them or all of them, after the node's earlier
     * publications and in list order, never some of them. Every registration is checked before any is
     * published, so a refused call publishes nothing. Blocking only in the fabric's own set-up work (the
     * shared-memory fabric rewrites a file, verbs its region table); no RDMA operation.
     *
     * @param memories registrations of this node; an empty list publishes nothing
     * @throws NullPointerException               when the list is null
     * @throws io.remus.core.error.BadArgumentException naming it when one is null or not a registration of this node (the
     *                                            shared-memory fabric also refuses a closed one), or
     *                                            (verbs) the region table has no room for them all
     */
    void publishAll(List<? extends RegisteredMemory> memories);

    /**
     * Creates a completion queue.
     *
     * @param capacity completions it can hold
     * @return the queue
     * @throws io.remus.core.error.BadArgumentException when the capacity is not positive or exceeds what the
     *                                            device allows ({@code max_cqe}), before anything is created
     */
    CompletionQueue createCompletionQueue(int capacity);

    /**
     * Connects a reliable queue pair to {@code peerNodeId} (this node's own id gives the loopback
     * QP) whose send completions go to {@code cq}. Its SENDs and WRITE_WITH_IMMEDIATEs consume
     * receives of the peer's {@link ReceiveQueue} if the peer created one before this call.
     *
     * @param peerNodeId     the peer
     * @param cq             this node's completion queue for the QP's send side
     * @param sendQueueDepth work requests the QP can hold posted and not yet completed
     * @param waitTimeout    the bound on any wait inside {@link QueuePair#post} and {@link QueuePair#reset}
     *                       (verbs: a fenced request waiting for earlier READs and atomics, and the one
     *                       attempt to reconnect a queue pair in error to a peer of another process);
     *                       the compute thread's operation timeout
     * @return the connected QP
     * @throws io.remus.core.error.BadArgumentException when the peer is unknown or the timeout is not positive
     */
    default QueuePair connect(int peerNodeId, CompletionQueue cq, int sendQueueDepth, Duration waitTimeout) {
        return connect(peerNodeId, Plane.DEFAULT, cq, sendQueueDepth, waitTimeout);
    }

    /**
     * As {@link #connect(int, CompletionQueue, int, Duration)}, for a queue pair of plane {@code plane}: the
     * peer switches its access apart from its other planes' ({@link #setPeerAccess(int, int, PeerAccess)}).
     * The plane travels with the connection (verbs: in the rdma_cm connect request's private data, the TCP
     * bootstrap's connect request, or directly to a serving queue pair of this process), and the queue pair's
     * resets keep it.
     *
     * @param peerNodeId     the peer
     * @param plane          the plane, {@code 0} to {@code Plane.COUNT - 1} ({@link Plane})
     * @param cq             this node's completion queue for the QP's send side
     * @param sendQueueDepth work requests the QP can hold posted and not yet completed
     * @param waitTimeout    as for {@link #connect(int, CompletionQueue, int, Duration)}
     * @return the connected QP
     * @throws io.remus.core.error.BadArgumentException naming the plane when it is out of range (checked first),
     *                                            or when the peer is unknown or the timeout is not positive
     */
    QueuePair connect(int peerNodeId, int plane, CompletionQueue cq, int sendQueueDepth, Duration waitTimeout);

    /**
     * Switches what {@code peerNodeId}'s requests may do to this node's registered memory, for the
     * queue pairs of every plane ({@link Plane}) that peer has connected to this node and those it connects
     * later, as {@link #setPeerAccess(int, int, PeerAccess)} of each plane in one step: Mu's permission
     * switch (Aguilera et al., "Microsecond Consensus for Microsecond Applications", OSDI 2020), by which a
     * replica revokes a deposed leader's write access to its log before it grants the new leader's. Every
     * peer starts {@link PeerAccess#READ_WRITE}.
     *
     * <p>After this returns, a WRITE, WRITE_WITH_IMMEDIATE, compare-and-swap or fetch-and-add of a peer
     * switched to {@link PeerAccess#READ_ONLY} that this node executes is refused and changes nothing:
     * the writer's request completes with {@link CompletionStatus#REMOTE_ACCESS_ERROR} (the simulator,
     * shared memory) or, on verbs, with the error the device answers a request its queue pair's access
     * flags refuse ({@link CompletionStatus#REMOTE_INVALID_REQUEST} on Soft-RoCE, whose responder sends an
     * invalid-request NAK for it), and its queue pair goes to the error state (later requests complete
     * {@link CompletionStatus#FLUSHED}) until {@link QueuePair#reset}. A request executed before the
     * switch has landed. READs and SENDs are never refused by this switch. A {@code ComputeThread}
     * whose request is refused throws {@link io.remus.core.error.RemoteAccessException} naming this node,
     * and its next operation to this node resets the queue pair (verbs: a new connection) and goes on,
     * refused again while the access stays {@code READ_ONLY}.
     *
     * <p>Cost: no RDMA operation. Verbs: one {@code ibv_query_qp} and one {@code ibv_modify_qp}
     * ({@code IBV_QP_ACCESS_FLAGS}, allowed in RTS) per serving queue pair of that peer (one in the error
     * state serves nothing and is left as it is); it returns when the device has taken the change and
     * when a connection this node is accepting over rdma_cm (whose connect request names its requester's
     * node id) is kept with the access then in force. The simulator: it waits for the node's WRITEs
     * and atomics that are executing to finish. Shared memory: it marks the peer's slot in the access table
     * of the node's file and waits for that peer's WRITEs and atomics that are executing to finish (at most
     * 10 s, for a process that died inside one).
     *
     * @param peerNodeId the peer, another node than this one (a node always reaches its own memory)
     * @param access     what the peer may do
     * @throws NullPointerException               when {@code access} is null
     * @throws io.remus.core.error.BadArgumentException naming the peer when it is outside the node ids
     *                                            a {@link io.remus.core.memory.RemotePtr} carries or is this
     *                                            node, or naming the node when it is closed (checked before
     *                                            any native call)
     * @throws io.remus.core.error.RemoteTimeoutException (shared memory) when the peer's WRITEs executing
     *                                            did not end within 10 s; the peer stays {@code READ_ONLY};
     *                                            (verbs) when an rdma_cm connection being accepted was
     *                                            neither kept nor dropped within the fabric's connect timeout
     *                                            (every other queue pair of the peer is switched)
     * @throws io.remus.core.error.RemusException (verbs) when {@code ibv_modify_qp} fails, naming the peer
     */
    void setPeerAccess(int peerNodeId, PeerAccess access);

    /**
     * Switches what {@code peerNodeId}'s requests on plane {@code plane} may do to this node's registered memory,
     * as {@link #setPeerAccess(int, PeerAccess)} does for every plane, and leaves the peer's queue pairs of other
     * planes as they are: Mu's separate replication queue pairs (Aguilera et al., OSDI 2020), by which a replica
     * revokes a deposed leader's {@link Plane#REPLICATION} WRITEs and still serves its {@link Plane#DEFAULT}
     * requests (WRITE_WITH_IMMEDIATE into RPC rings, WRITEs and atomics of other objects). A plane of a peer
     * starts {@link PeerAccess#READ_WRITE}; the two-argument switch sets every plane.
     *
     * <p>Cost: no RDMA operation. Verbs: one {@code ibv_query_qp} and one {@code ibv_modify_qp} per serving
     * queue pair of that peer and plane, and the wait for an rdma_cm connection being accepted, as for every
     * plane. The simulator: it waits for the node's WRITEs and atomics that are executing to finish. Shared
     * memory: it marks the peer's slot of that plane in the access table and waits for that peer's WRITEs and
     * atomics of that plane that are executing to finish (at most 10 s).
     *
     * @param peerNodeId the peer, another node than this one
     * @param plane      the plane, {@code 0} to {@code Plane.COUNT - 1}
     * @param access     what the peer's queue pairs of that plane may do
     * @throws NullPointerException               when {@code access} is null
     * @throws io.remus.core.error.BadArgumentException naming the plane when it is out of range, naming the peer
     *                                            as for {@link #setPeerAccess(int, PeerAccess)}, or naming the
     *                                            node when it is closed (checked before any native call)
     * @throws io.remus.core.error.RemoteTimeoutException as {@link #setPeerAccess(int, PeerAccess)}, for that plane
     * @throws io.remus.core.error.RemusException (verbs) when {@code ibv_modify_qp} fails, naming the peer
     */
    void setPeerAccess(int peerNodeId, int plane, PeerAccess access);

    /**
     * The checks every {@link #setPeerAccess(int, int, PeerAccess)} applies first (for fabric implementations).
     *
     * @param nodeId     the node switching
     * @param peerNodeId the peer
     * @param plane      the plane
     * @param access     the access
     * @throws NullPointerException               when {@code access} is null
     * @throws io.remus.core.error.BadArgumentException when the plane is out of range, or the peer id is out of
     *                                            range or is {@code nodeId}
     */
    static void checkPeerAccess(int nodeId, int peerNodeId, int plane, PeerAccess access) {
        java.util.Objects.requireNonNull(access, "access");
        Plane.require(plane);
        checkPeerAccess(nodeId, peerNodeId, access);
    }

    /**
     * The checks every {@link #setPeerAccess(int, PeerAccess)} applies first (for fabric implementations).
     *
     * @param nodeId     the node switching
     * @param peerNodeId the peer
     * @param access     the access
     * @throws NullPointerException               when {@code access} is null
     * @throws io.remus.core.error.BadArgumentException when the peer id is out of range or is {@code nodeId}
     */
    static void checkPeerAccess(int nodeId, int peerNodeId, PeerAccess access) {
        java.util.Objects.requireNonNull(access, "access");
        io.remus.core.memory.RemotePtr.requireNodeId(peerNodeId);
        if (peerNodeId == nodeId) {
            throw new BadArgumentException("node " + nodeId + " cannot switch its own access (peer " + peerNodeId
                    + "): a node always reaches its own memory");
        }
    }

    /**
     * Creates this node's receive queue (verbs: a shared receive queue that every queue pair
     * connected to this node afterwards takes its receives from, the queue pairs created with
     * receive capacity): where peers' {@link Opcode#SEND} and {@link Opcode#WRITE_WITH_IMMEDIATE}
     * requests land. Create it before peers connect: a queue pair connected before it exists has
     * no receives, and messages over it fail with {@link CompletionStatus#RECEIVER_NOT_READY}. A
     * node has at most one; it lives until the node closes.
     *
     * @param cq    this node's completion queue for the receive completions
     * @param depth the most receives outstanding at once (posted and not yet polled), positive
     * @return the receive queue
     * @throws io.remus.core.error.BadArgumentException when {@code cq} is not this node's, {@code depth}
     *                                            is out of range (verbs: above the device's
     *                                            {@code max_srq_wr}), the node already has a receive
     *                                            queue or is closed
     */
    ReceiveQueue createReceiveQueue(CompletionQueue cq, int depth);

    /**
     * The check every {@link #connect} applies to its wait timeout.
     *
     * @param waitTimeout the timeout given to {@code connect}
     * @return {@code waitTimeout}
     * @throws NullPointerException               when it is null
     * @throws io.remus.core.error.BadArgumentException when it is zero, negative or beyond
     *                                            {@link Timeouts#MAX_FINITE} without being {@link Timeouts#FOREVER}
     */
    static Duration checkWaitTimeout(Duration waitTimeout) {
        return Timeouts.require(waitTimeout, "waitTimeout");
    }

    /**
     * The first check every {@link #createReceiveQueue} applies (for fabric implementations): the
     * completion queue is the node's own.
     *
     * @param nodeId         the node creating the receive queue
     * @param ownCompletionQueue whether the completion queue given is one of that node
     * @throws io.remus.core.error.BadArgumentException when it is not
     */
    static void requireReceiveCompletionQueue(int nodeId, boolean ownCompletionQueue) {
        if (!ownCompletionQueue) {
            throw new BadArgumentException("a receive queue of node " + nodeId + " needs a completion queue of that node");
        }
    }

    /**
     * The checks every {@link #createReceiveQueue} applies after
     * {@link #requireReceiveCompletionQueue} (for fabric implementations): the depth is in range and the
     * node has no receive queue yet.
     *
     * @param nodeId   the node creating the receive queue
     * @param depth    the depth asked for
     * @param maxDepth the most the fabric allows
     * @param hasOne   whether the node already has a receive queue
     * @throws io.remus.core.error.BadArgumentException when {@code depth} is outside 1..{@code maxDepth} or
     *                                            the node already has one
     */
    static void checkNewReceiveQueue(int nodeId, int depth, int maxDepth, boolean hasOne) {
        if (depth <= 0 || depth > maxDepth) {
            throw new BadArgumentException("receive queue depth must be 1.." + maxDepth + ", got " + depth);
        }
        if (hasOne) {
            throw new BadArgumentException("node " + nodeId + " already has a receive queue");
        }
    }

    /**
     * Closes a closing node's resources in the order given (for fabric implementations), each through
     * the action {@code atNodeClose} gives for it: the resource itself, or another way to close it (a
     * completion queue that closes with its node whoever still uses it).
     *
     * @param nodeId      the closing node
     * @param resources   its resources
     * @param atNodeClose what closes a resource as its node closes
     * @throws IllegalStateException when one fails to close (naming the node); the later ones are not closed
     */
    static void closeAll(int nodeId, List<? extends AutoCloseable> resources,
                         Function<AutoCloseable, AutoCloseable> atNodeClose) {
        for (AutoCloseable resource : resources) {
            try {
                atNodeClose.apply(resource).close();
            } catch (Exception e) {
                throw new IllegalStateException("closing a resource of node " + nodeId, e);
            }
        }
    }

    /** Closes the node's QPs, CQs and registrations. Idempotent. */
    @Override
    void close();
}
