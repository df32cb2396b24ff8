package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.RdmaCm;
import io.remus.verbs.ffi.ibv_ah_attr;
import io.remus.verbs.ffi.ibv_global_route;
import io.remus.verbs.ffi.ibv_qp;
import io.remus.verbs.ffi.ibv_qp_attr;
import io.remus.verbs.ffi.ibv_qp_cap;
import io.remus.verbs.ffi.ibv_qp_init_attr;
import io.remus.verbs.ffi.rdma_cm_id;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The native reliable-connected queue pair behind {@link PreparedQueuePair} and
 * {@link ConnectedQueuePair}: created with {@code ibv_create_qp} (or {@code rdma_create_qp} for
 * a connection manager id), with the provider's post functions read once. Every use of the
 * native {@code struct ibv_qp} (posts through {@link SendBatch} and {@link ReceiveBatch}, state
 * changes, queries) runs between {@link #enter()} and {@link #exit()}, so a close on another thread
 * waits for it and never destroys the queue pair under it.
 */
final class QueuePairHandle extends NativeResource {
    private static final int ALL_ACCESS = IbVerbs.IBV_ACCESS_LOCAL_WRITE | IbVerbs.IBV_ACCESS_REMOTE_READ
            | IbVerbs.IBV_ACCESS_REMOTE_WRITE | IbVerbs.IBV_ACCESS_REMOTE_ATOMIC;

    final ProtectionDomain pd;
    final Context context;
    final MemorySegment qp;
    final MemorySegment postSendFunction;
    final MemorySegment postReceiveFunction;
    final boolean hasSharedReceiveQueue;
    final int maxSendWorkRequests;
    final int maxReceiveWorkRequests;
    final int maxSendScatterGather;
    final int maxReceiveScatterGather;
    final int maxInlineData;
    final long maxMessageSize;
    final int port;
    final int packetSequenceNumber;
    private final MemorySegment cmId;
    private int gidIndex;
    private Endpoint localEndpoint;

    QueuePairHandle(QueuePairBuilder b, MemorySegment cmId) {
        super("queue pair", b.protectionDomain(), b.sendQueue(), b.receiveQueue(), b.sharedReceiveQueueOrNull());
        this.pd = b.protectionDomain();
        this.context = pd.context();
        this.cmId = cmId;
        this.hasSharedReceiveQueue = b.sharedReceiveQueueOrNull() != null;
        this.packetSequenceNumber = ThreadLocalRandom.current().nextInt(1 << 24);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment init = arena.allocate(ibv_qp_init_attr.layout());
            ibv_qp_init_attr.send_cq(init, b.sendQueue().handle());
            ibv_qp_init_attr.recv_cq(init, b.receiveQueue().handle());
            ibv_qp_init_attr.srq(init, hasSharedReceiveQueue ? b.sharedReceiveQueueOrNull().handle() : MemorySegment.NULL);
            ibv_qp_init_attr.qp_type(init, IbVerbs.IBV_QPT_RC);
            ibv_qp_init_attr.sq_sig_all(init, 0);
            MemorySegment cap = ibv_qp_init_attr.cap(init);
            ibv_qp_cap.max_send_wr(cap, b.maxSendWorkRequests());
            ibv_qp_cap.max_recv_wr(cap, hasSharedReceiveQueue ? 0 : b.maxReceiveWorkRequests());
            ibv_qp_cap.max_send_sge(cap, b.maxSendScatterGather());
            ibv_qp_cap.max_recv_sge(cap, hasSharedReceiveQueue ? 0 : b.maxReceiveScatterGather());
            ibv_qp_cap.max_inline_data(cap, b.maxInlineData());
            MemorySegment created;
            if (cmId == null) {
                created = VerbResults.checkPointer(IbVerbs.ibv_create_qp(callState, pd.handle(), init), ibv_qp.sizeof(),
                        callState, "ibv_create_qp", "creating a reliable-connected queue pair");
                this.port = b.port();
            } else {
                VerbResults.checkMinusOne(RdmaCm.rdma_create_qp(callState, cmId, pd.handle(), init), callState,
                        "rdma_create_qp", "creating the queue pair of a connection");
                created = rdma_cm_id.qp(cmId).reinterpret(ibv_qp.sizeof());
                this.port = Byte.toUnsignedInt(rdma_cm_id.port_num(cmId));
            }
            this.qp = created;
            this.maxSendWorkRequests = ibv_qp_cap.max_send_wr(cap);
            this.maxReceiveWorkRequests = ibv_qp_cap.max_recv_wr(cap);
            this.maxSendScatterGather = b.maxSendScatterGather();
            this.maxReceiveScatterGather = b.maxReceiveScatterGather();
            this.maxInlineData = Math.min(ibv_qp_cap.max_inline_data(cap), b.maxInlineData());
            PortAttributes portAttributes = context.queryPort(port);
            this.maxMessageSize = portAttributes.maxMessageSize();
            this.postSendFunction = IbVerbs.ops_post_send(context.handle());
            this.postReceiveFunction = IbVerbs.ops_post_recv(context.handle());
            if (cmId == null) {
                this.gidIndex = b.gidIndex() >= 0 ? b.gidIndex() : defaultGidIndex(portAttributes);
                Gid gid = context.queryGid(port, gidIndex);
                localEndpoint = new Endpoint(ibv_qp.qp_num(qp), packetSequenceNumber, portAttributes.lid(), gid);
                toInit(arena);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private int defaultGidIndex(PortAttributes portAttributes) {
        if (!portAttributes.isEthernet()) {
            return 0;
        }
        return GidChoice.choose(portAttributes.gidTableLength(), i -> context.queryGid(port, i),
                i -> context.gidType(port, i));
    }

    private void toInit(Arena arena) {
        MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
        ibv_qp_attr.qp_state(attr, IbVerbs.IBV_QPS_INIT);
        ibv_qp_attr.pkey_index(attr, (short) 0);
        ibv_qp_attr.port_num(attr, (byte) port);
        ibv_qp_attr.qp_access_flags(attr, ALL_ACCESS);
        modify(attr, IbVerbs.IBV_QP_STATE | IbVerbs.IBV_QP_PKEY_INDEX | IbVerbs.IBV_QP_PORT | IbVerbs.IBV_QP_ACCESS_FLAGS,
                "INIT");
    }

    /**
     * Moves the queue pair from INIT to RTR and RTS against {@code remote}.
     *
     * @param remote  the peer's endpoint
     * @param options the transport settings
     */
    void connect(Endpoint remote, ConnectionOptions options) {
        requireOpen();
        PortAttributes portAttributes = context.queryPort(port);
        DeviceAttributes device = context.queryDevice();
        Mtu mtu = options.pathMtu() != null ? options.pathMtu() : portAttributes.activeMtu();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            ibv_qp_attr.qp_state(attr, IbVerbs.IBV_QPS_RTR);
            ibv_qp_attr.path_mtu(attr, mtu.code());
            ibv_qp_attr.dest_qp_num(attr, remote.queuePairNumber());
            ibv_qp_attr.rq_psn(attr, remote.packetSequenceNumber());
            ibv_qp_attr.max_dest_rd_atomic(attr, (byte) Math.min(options.maxDestReadAtomic(), device.maxQueuePairReadAtomic()));
            ibv_qp_attr.min_rnr_timer(attr, (byte) options.minRnrTimer());
            MemorySegment ah = ibv_qp_attr.ah_attr(attr);
            ibv_ah_attr.dlid(ah, (short) remote.lid());
            ibv_ah_attr.sl(ah, (byte) 0);
            ibv_ah_attr.src_path_bits(ah, (byte) 0);
            ibv_ah_attr.port_num(ah, (byte) port);
            if (portAttributes.isEthernet() || !remote.gid().isZero()) {
                ibv_ah_attr.is_global(ah, (byte) 1);
                MemorySegment grh = ibv_ah_attr.grh(ah);
                remote.gid().write(grh, ibv_global_route.dgid$OFFSET);
                ibv_global_route.sgid_index(grh, (byte) gidIndex);
                ibv_global_route.hop_limit(grh, (byte) options.hopLimit());
                ibv_global_route.traffic_class(grh, (byte) 0);
                ibv_global_route.flow_label(grh, 0);
            }
            modify(attr, IbVerbs.IBV_QP_STATE | IbVerbs.IBV_QP_AV | IbVerbs.IBV_QP_PATH_MTU | IbVerbs.IBV_QP_DEST_QPN
                    | IbVerbs.IBV_QP_RQ_PSN | IbVerbs.IBV_QP_MAX_DEST_RD_ATOMIC | IbVerbs.IBV_QP_MIN_RNR_TIMER, "RTR");
            attr.fill((byte) 0);
            ibv_qp_attr.qp_state(attr, IbVerbs.IBV_QPS_RTS);
            ibv_qp_attr.timeout(attr, (byte) options.timeout());
            ibv_qp_attr.retry_cnt(attr, (byte) options.retryCount());
            ibv_qp_attr.rnr_retry(attr, (byte) options.rnrRetry());
            ibv_qp_attr.sq_psn(attr, packetSequenceNumber);
            ibv_qp_attr.max_rd_atomic(attr, (byte) Math.min(options.maxReadAtomic(), device.maxQueuePairInitiatorReadAtomic()));
            modify(attr, IbVerbs.IBV_QP_STATE | IbVerbs.IBV_QP_TIMEOUT | IbVerbs.IBV_QP_RETRY_CNT | IbVerbs.IBV_QP_RNR_RETRY
                    | IbVerbs.IBV_QP_SQ_PSN | IbVerbs.IBV_QP_MAX_QP_RD_ATOMIC, "RTS");
        }
    }

    /** Sets the queue pair's access flags ({@code ibv_modify_qp} with {@code IBV_QP_ACCESS_FLAGS} only). */
    void modifyAccess(int flags) {
        requireOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            ibv_qp_attr.qp_access_flags(attr, flags);
            enter();
            try {
                VerbResults.checkErrnoResult(IbVerbs.ibv_modify_qp(qp, attr, IbVerbs.IBV_QP_ACCESS_FLAGS), "ibv_modify_qp",
                        "setting the access flags of queue pair " + ibv_qp.qp_num(qp) + " to 0x" + Integer.toHexString(flags));
            } finally {
                exit();
            }
        }
    }

    private void modify(MemorySegment attr, int mask, String state) {
        enter();
        try {
            VerbResults.checkErrnoResult(IbVerbs.ibv_modify_qp(qp, attr, mask), "ibv_modify_qp",
                    "moving queue pair " + ibv_qp.qp_num(qp) + " to " + state);
        } finally {
            exit();
        }
    }

    /** {@return the current state ({@code ibv_query_qp})} */
    QueuePairState state() {
        enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_qp_attr.layout());
            MemorySegment init = arena.allocate(ibv_qp_init_attr.layout());
            VerbResults.checkErrnoResult(IbVerbs.ibv_query_qp(qp, attr, IbVerbs.IBV_QP_STATE, init), "ibv_query_qp",
                    "querying the state of queue pair " + ibv_qp.qp_num(qp));
            return QueuePairState.ofCode(ibv_qp_attr.qp_state(attr));
        } finally {
            exit();
        }
    }

    /** {@return the endpoint a peer connects to (not for connection manager queue pairs)} */
    Endpoint localEndpoint() {
        return localEndpoint;
    }

    /** {@return the QP number} */
    int number() {
        enter();
        try {
            return ibv_qp.qp_num(qp);
        } finally {
            exit();
        }
    }

    @Override
    void destroy() {
        if (qp == null) {
            if (cmId != null && !rdma_cm_id.qp(cmId).equals(MemorySegment.NULL)) {
                RdmaCm.rdma_destroy_qp(cmId);
            }
            return;
        }
        VerbResults.checkErrnoResult(IbVerbs.ibv_destroy_qp(qp), "ibv_destroy_qp", "destroying a queue pair");
        if (cmId != null) {
            rdma_cm_id.qp(cmId, MemorySegment.NULL);
        }
    }
}
