package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_pd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A protection domain ({@code struct ibv_pd}): the parent of memory regions, queue pairs and
 * shared receive queues, which can only be used together within one domain. Thread-safe.
 */
public final class ProtectionDomain extends NativeResource {
    private final Context context;
    private final MemorySegment pd;

    ProtectionDomain(Context context) {
        super("protection domain on " + context.name(), context);
        this.context = context;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            this.pd = VerbResults.checkPointer(IbVerbs.ibv_alloc_pd(callState, context.handle()), ibv_pd.sizeof(),
                    callState, "ibv_alloc_pd", "allocating a protection domain on " + context.name());
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Registers native memory with the given accesses. The region keeps {@code segment}
     * reachable; do not close its arena before closing the region.
     *
     * @param segment a native, open, non-empty segment
     * @param access  what the region allows; {@link Access#REMOTE_WRITE} and
     *                {@link Access#REMOTE_ATOMIC} need {@link Access#LOCAL_WRITE}
     * @return the region
     * @throws InvalidArgumentException if the segment is a heap segment, empty, read-only while
     *                                  writes are allowed, or the accesses are inconsistent
     * @throws ClosedResourceException  if the segment's arena is closed
     * @throws VerbsException           if {@code ibv_reg_mr} fails
     */
    public MemoryRegion registerMemory(MemorySegment segment, Set<Access> access) {
        Objects.requireNonNull(access, "access");
        int flags = Access.flags(access);
        checkRegistrable(segment, flags);
        requireOpen();
        return new MemoryRegion(this, segment, flags);
    }

    /**
     * Registers memory with the access flags given as a list.
     *
     * @param segment a native, open, non-empty segment
     * @param access  what the region allows
     * @return the region
     * @see #registerMemory(MemorySegment, Set)
     */
    public MemoryRegion registerMemory(MemorySegment segment, Access... access) {
        Set<Access> set = EnumSet.noneOf(Access.class);
        for (Access a : access) {
            set.add(Objects.requireNonNull(a, "access"));
        }
        return registerMemory(segment, set);
    }

    /**
     * Checks a segment and access flags before registration.
     *
     * @param segment the segment
     * @param flags   the {@code IBV_ACCESS_*} bits
     */
    static void checkRegistrable(MemorySegment segment, int flags) {
        Objects.requireNonNull(segment, "segment");
        if (!segment.isNative()) {
            throw new InvalidArgumentException("only native memory can be registered, not a heap segment");
        }
        if (!segment.scope().isAlive()) {
            throw new ClosedResourceException("the segment's arena is closed");
        }
        if (segment.byteSize() == 0) {
            throw new InvalidArgumentException("cannot register an empty segment");
        }
        boolean writes = (flags & (IbVerbs.IBV_ACCESS_REMOTE_WRITE | IbVerbs.IBV_ACCESS_REMOTE_ATOMIC)) != 0;
        if (writes && (flags & IbVerbs.IBV_ACCESS_LOCAL_WRITE) == 0) {
            throw new InvalidArgumentException("REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE");
        }
        if (segment.isReadOnly() && (flags & IbVerbs.IBV_ACCESS_LOCAL_WRITE) != 0) {
            throw new InvalidArgumentException("a read-only segment cannot be registered for writes");
        }
    }

    /** {@return a builder of a reliable-connected queue pair in this domain} */
    public QueuePairBuilder queuePair() {
        requireOpen();
        return new QueuePairBuilder(this);
    }

    /**
     * Creates a shared receive queue ({@code ibv_create_srq}).
     *
     * @param maxWorkRequests receive requests it holds, 1 to the device's {@code max_srq_wr}
     * @param maxScatterGather scatter/gather entries per request, 1 to the device's {@code max_srq_sge}
     * @return a new shared receive queue
     */
    public SharedReceiveQueue createSharedReceiveQueue(int maxWorkRequests, int maxScatterGather) {
        requireOpen();
        DeviceAttributes a = context.queryDevice();
        if (maxWorkRequests < 1 || maxWorkRequests > a.maxSharedReceiveQueueWorkRequests()) {
            throw new InvalidArgumentException("maxWorkRequests must be in [1, " + a.maxSharedReceiveQueueWorkRequests()
                    + "], got " + maxWorkRequests);
        }
        if (maxScatterGather < 1 || maxScatterGather > a.maxSharedReceiveQueueScatterGather()) {
            throw new InvalidArgumentException("maxScatterGather must be in [1, "
                    + a.maxSharedReceiveQueueScatterGather() + "], got " + maxScatterGather);
        }
        return new SharedReceiveQueue(this, maxWorkRequests, maxScatterGather);
    }

    /** {@return the context this domain belongs to} */
    public Context context() {
        return context;
    }

    /** {@return the {@code struct ibv_pd *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        requireOpen();
        return pd;
    }

    @Override
    void destroy() {
        if (pd != null) {
            VerbResults.checkErrnoResult(IbVerbs.ibv_dealloc_pd(pd), "ibv_dealloc_pd", "deallocating a protection domain");
        }
    }
}
