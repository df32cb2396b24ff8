package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_mr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Registered memory ({@code struct ibv_mr}): native memory the NIC may access, with the local
 * key work requests name it by and the remote key peers name it by. Keeps its segment
 * reachable. Thread-safe.
 */
public final class MemoryRegion extends NativeResource {
    private final ProtectionDomain pd;
    private final MemorySegment segment;
    private final MemorySegment mr;
    private final long address;
    private final long length;
    private final int localKey;
    private final int remoteKey;

    MemoryRegion(ProtectionDomain pd, MemorySegment segment, int flags) {
        super("memory region of " + segment.byteSize() + " bytes", pd);
        this.pd = pd;
        this.segment = segment;
        this.address = segment.address();
        this.length = segment.byteSize();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            this.mr = VerbResults.checkPointer(
                    IbVerbs.ibv_reg_mr_iova2(callState, pd.handle(), segment, length, address, flags),
                    ibv_mr.sizeof(), callState, "ibv_reg_mr", "registering " + length + " bytes at 0x" + Long.toHexString(address));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.localKey = ibv_mr.lkey(mr);
        this.remoteKey = ibv_mr.rkey(mr);
    }

    /** {@return the registered memory} */
    public MemorySegment segment() {
        return segment;
    }

    /** {@return the address of its first byte} */
    public long address() {
        return address;
    }

    /** {@return its length in bytes} */
    public long length() {
        return length;
    }

    /** {@return the local key (lkey)} */
    public int localKey() {
        return localKey;
    }

    /** {@return the remote key (rkey) peers use} */
    public int remoteKey() {
        return remoteKey;
    }

    /** {@return the region as a peer addresses it} */
    public RemoteRegion toRemoteRegion() {
        return new RemoteRegion(address, remoteKey, length);
    }

    /** {@return the protection domain it is registered in} */
    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /**
     * Checks that {@code [offset, offset + bytes)} lies within this open region and its memory is alive.
     *
     * @param offset the range's start
     * @param bytes  the range's length
     * @return the address of the range's first byte
     * @throws ClosedResourceException  if the region or its memory is closed
     * @throws InvalidArgumentException if the range is negative or outside the region
     */
    long checkRange(long offset, long bytes) {
        requireOpen();
        if (!segment.scope().isAlive()) {
            throw new ClosedResourceException("the registered segment's arena is closed");
        }
        if (offset < 0 || bytes < 0 || offset > length || bytes > length - offset) {
            throw new InvalidArgumentException("range [" + offset + ", +" + bytes + ") is outside the region of " + length + " bytes");
        }
        return address + offset;
    }

    /** {@return the {@code struct ibv_mr *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        requireOpen();
        return mr;
    }

    @Override
    void destroy() {
        if (mr != null) {
            VerbResults.checkErrnoResult(IbVerbs.ibv_dereg_mr(mr), "ibv_dereg_mr", "deregistering a memory region");
        }
    }
}
