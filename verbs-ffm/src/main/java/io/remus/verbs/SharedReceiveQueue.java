package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_srq;
import io.remus.verbs.ffi.ibv_srq_attr;
import io.remus.verbs.ffi.ibv_srq_init_attr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A shared receive queue ({@code struct ibv_srq}): receive requests posted here serve every
 * queue pair built with it ({@link QueuePairBuilder#sharedReceiveQueue}).
 */
public final class SharedReceiveQueue extends NativeResource {
    private final ProtectionDomain pd;
    private final MemorySegment srq;
    private final MemorySegment postFunction;
    private final int maxWorkRequests;
    private final int maxScatterGather;

    SharedReceiveQueue(ProtectionDomain pd, int maxWorkRequests, int maxScatterGather) {
        super("shared receive queue", pd);
        this.pd = pd;
        this.maxWorkRequests = maxWorkRequests;
        this.maxScatterGather = maxScatterGather;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment init = arena.allocate(ibv_srq_init_attr.layout());
            MemorySegment attr = ibv_srq_init_attr.attr(init);
            ibv_srq_attr.max_wr(attr, maxWorkRequests);
            ibv_srq_attr.max_sge(attr, maxScatterGather);
            ibv_srq_attr.srq_limit(attr, 0);
            this.srq = VerbResults.checkPointer(IbVerbs.ibv_create_srq(callState, pd.handle(), init), ibv_srq.sizeof(),
                    callState, "ibv_create_srq", "creating a shared receive queue");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.postFunction = IbVerbs.ops_post_srq_recv(pd.context().handle());
    }

    /**
     * Preallocates a chain of receive requests in this queue's native memory (freed with it).
     *
     * @param capacity how many requests one post may carry, 1 to the queue's max requests
     * @return the batch
     */
    public ReceiveBatch receiveBatch(int capacity) {
        requireOpen();
        return new ReceiveBatch(this, srq, postFunction, true, capacity, maxWorkRequests, maxScatterGather, pd,
                Integer.toUnsignedLong(-1));
    }

    /** {@return the protection domain it belongs to} */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /** {@return the {@code struct ibv_srq *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        requireOpen();
        return srq;
    }

    @Override
    void destroy() {
        if (srq != null) {
            VerbResults.checkErrnoResult(IbVerbs.ibv_destroy_srq(srq), "ibv_destroy_srq", "destroying a shared receive queue");
        }
    }
}
