/**
 * The fabric SPI: what remus-core needs from an RDMA transport, shaped so that verbs satisfies it
 * directly.
 *
 * {@snippet :
 * try (Fabric fabric = new SimFabric();
 *      FabricNode node = fabric.open(0)) {
 *     RegisteredMemory memory = node.allocate(4096);
 *     CompletionQueue cq = node.createCompletionQueue(16);
 *     QueuePair loopback = node.connect(0, cq, 16, Duration.ofSeconds(1));
 *     WorkRequests wrs = new WorkRequests(4);
 *     wrs.addRead(1, memory.address(), 8, memory.lkey(), memory.address() + 64, memory.rkey(), WorkRequests.SIGNALED);
 *     loopback.post(wrs);                                   // one post of the whole list
 *     Completions done = new Completions(4);
 *     int n = cq.poll(done, Duration.ofSeconds(1));         // 1: wrId 1, CompletionStatus.SUCCESS
 * }
 * }
 *
 * <p>A {@link io.remus.core.fabric.Fabric} opens {@link io.remus.core.fabric.FabricNode}s; a node
 * registers memory ({@link io.remus.core.fabric.RegisteredMemory}: address, length, lkey, rkey,
 * like {@code ibv_reg_mr}), publishes some of it to peers
 * ({@link io.remus.core.fabric.RemoteRegion}), creates completion queues and connects reliable
 * queue pairs to peers (RC QPs; a QP to itself is the loopback QP). Work is posted as a
 * {@link io.remus.core.fabric.WorkRequests} list (one {@code ibv_post_send} of a chained
 * {@code ibv_send_wr} list, each carrying a 64-bit {@code wr_id}) and completes into a reusable
 * {@link io.remus.core.fabric.Completions} (one {@code ibv_poll_cq}). Posting and polling allocate
 * nothing.
 *
 * <h2>Messaging</h2>
 * Besides the one-sided READ, WRITE, compare-and-swap and fetch-and-add, a queue pair posts
 * {@link io.remus.core.fabric.Opcode#SEND} (a message into a receive buffer of the peer) and
 * {@link io.remus.core.fabric.Opcode#WRITE_WITH_IMMEDIATE} (an RDMA WRITE that also hands the peer a
 * 32-bit immediate through a receive). Each is one RDMA operation, one message on the wire, posted
 * with the list's one doorbell. The receiving side is the node's
 * {@link io.remus.core.fabric.ReceiveQueue} (a verbs shared receive queue, made with
 * {@link io.remus.core.fabric.FabricNode#createReceiveQueue}): buffers posted as
 * {@link io.remus.core.fabric.ReceiveRequests}, consumed oldest first by messages from any peer over
 * a queue pair connected after the receive queue was made, each yielding a receive completion
 * ({@link io.remus.core.fabric.Opcode#RECEIVE} or
 * {@link io.remus.core.fabric.Opcode#RECEIVE_WITH_IMMEDIATE}) with its byte length, immediate and
 * wr_id. Errors are verbs': no receive posted gives the sender
 * {@link io.remus.core.error.CompletionStatus#RECEIVER_NOT_READY}; a message longer than the
 * receive's buffer gives the receive {@link io.remus.core.error.CompletionStatus#LOCAL_LENGTH_ERROR}
 * and the sender {@link io.remus.core.error.CompletionStatus#REMOTE_INVALID_REQUEST}; a closed or
 * silent peer gives {@link io.remus.core.error.CompletionStatus#RETRY_EXCEEDED} as for one-sided
 * requests. {@link io.remus.core.fabric.CompletionQueue#poll(Completions, java.time.Duration)} waits
 * for completions up to a caller-chosen timeout.
 *
 * <p>Semantics every implementation keeps (those of RC verbs): work requests on one QP execute in
 * order; a signalled request yields exactly one completion; a request that fails yields an error
 * completion even when unsignalled, moves its QP to the error state and flushes every later request
 * on it ({@link io.remus.core.error.CompletionStatus#FLUSHED}); {@link
 * io.remus.core.fabric.QueuePair#reset()} returns an errored QP to service. QPs and CQs belong to
 * one thread at a time.
 *
 * <h2>Per-peer access (permission switching)</h2>
 * {@link io.remus.core.fabric.FabricNode#setPeerAccess} sets what one peer's requests may do to a node's
 * memory, {@link io.remus.core.fabric.PeerAccess#READ_WRITE} (every peer's at first) or
 * {@link io.remus.core.fabric.PeerAccess#READ_ONLY}: Mu's permission switch (Aguilera, Ben-David, Guerraoui,
 * Marathe, Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020), by which a
 * replica revokes a deposed leader's writes to its log before it grants the new leader's, and keeps reads
 * open. Once it returns, the peer's WRITEs, WRITE_WITH_IMMEDIATEs, compare-and-swaps and fetch-and-adds on
 * the node change nothing and fail as verbs' do (an error completion, the writer's QP in the error state,
 * later requests flushed until {@code reset}); READs and SENDs go on. The node's own id is refused (a node
 * always reaches its own memory). The request runs no RDMA operation. Per fabric:
 * <ul>
 * <li>Simulator: the target checks the writer's access as the request executes, under a lock it holds
 *     while the request changes memory; the switch takes that lock exclusively, so it waits for the
 *     WRITEs and atomics executing and none lands after it returns. Refused with
 *     {@code REMOTE_ACCESS_ERROR}.</li>
 * <li>Shared memory: the node file carries an access table, one word per peer node id and plane; a WRITE
 *     or atomic counts itself into its writer's word of its queue pair's plane, in whatever process it runs,
 *     then checks the read-only mark;
 *     the switch sets the mark, then waits (at most 10 s) for the count to drain. Refused with
 *     {@code REMOTE_ACCESS_ERROR}.</li>
 * <li>Verbs: {@code ibv_modify_qp} with {@code IBV_QP_ACCESS_FLAGS} (allowed in RTS) on each of the node's
 *     serving queue pairs of that peer, and the same access on those it serves later. The device refuses
 *     the request; Soft-RoCE answers with an invalid-request NAK ({@code REMOTE_INVALID_REQUEST}). Every
 *     serving queue pair knows its requester's node id: a connection accepted through rdma_cm names it in
 *     its connect request's private data, which the node checks before accepting (a malformed id, the
 *     node's own, or one outside the node list is rejected), so the switch changes exactly that peer's
 *     queue pairs, and a connection being accepted as it runs is waited for and switched too. Only the
 *     connection another process reads a node's region table through names no node (it only READs): it
 *     serves reads only while any peer is read-only.</li>
 * </ul>
 * {@code ComputeThread} turns either status into {@link io.remus.core.error.RemoteAccessException} naming
 * the node, and its next operation to that node resets the queue pair (verbs: a new connection, served
 * with the access then in force). Users call it through {@code RemusNode.setPeerAccess}.
 *
 * <h2>Planes</h2>
 * Every queue pair belongs to a {@link io.remus.core.fabric.Plane}, a number {@code 0..15} fixed when it
 * connects ({@link io.remus.core.fabric.FabricNode#connect(int, int, io.remus.core.fabric.CompletionQueue, int, java.time.Duration)};
 * {@link io.remus.core.fabric.Plane#DEFAULT} unless named). A node holds one access per peer and plane:
 * {@link io.remus.core.fabric.FabricNode#setPeerAccess(int, int, io.remus.core.fabric.PeerAccess)} switches only that peer's
 * queue pairs of that plane, and the two-argument switch every plane at once. Mu (OSDI 2020) keeps
 * replication on queue pairs of its own for this: a replica that revokes a deposed leader's
 * {@link io.remus.core.fabric.Plane#REPLICATION} WRITEs still takes its RPC (WRITE_WITH_IMMEDIATE into rings)
 * and its other one-sided requests, which ride on {@link io.remus.core.fabric.Plane#DEFAULT}. The simulator
 * keys its read-only set by peer and plane; shared memory gives each peer one access word per plane
 * ({@code Plane.COUNT} words a peer); verbs carries the plane in the rdma_cm connect request's private data
 * (and the TCP bootstrap's connect request, and directly to a serving queue pair of the same process), and
 * each serving queue pair remembers its requester's plane. {@code ComputeThread}s are created on a plane
 * ({@code RemusNode.newComputeThread(int)}) and connect every queue pair on it.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.fabric;
