package io.remus.core.shm;

import java.lang.foreign.MemorySegment;

/**
 * A registration as a queue pair reaches it: a peer's region file mapped into this process, or a
 * caller-owned registration of a node of this process. It answers while its owner has not
 * deregistered it.
 */
final class ShmTarget {
    private final int rkey;
    private final long address;
    private final MemorySegment data;
    /** The region file's header as mapped here, or null for a caller-owned registration. */
    private final MemorySegment header;
    /** The caller-owned registration, or null for a region file. */
    private final ShmRegion local;

    private ShmTarget(int rkey, long address, MemorySegment data, MemorySegment header, ShmRegion local) {
        this.rkey = rkey;
        this.address = address;
        this.data = data;
        this.header = header;
        this.local = local;
    }

    /** A region file mapped whole ({@code file}): header page, then the bytes. */
    static ShmTarget ofFile(MemorySegment file) {
        int rkey = (int) (long) ShmFiles.WORD.getVolatile(file, ShmFiles.REGION_RKEY);
        long address = (long) ShmFiles.WORD.getVolatile(file, ShmFiles.REGION_ADDRESS);
        long length = (long) ShmFiles.WORD.getVolatile(file, ShmFiles.REGION_LENGTH);
        if ((long) ShmFiles.WORD.getVolatile(file, ShmFiles.MAGIC) != ShmFiles.REGION_MAGIC || length <= 0
                || length > file.byteSize() - ShmFiles.PAGE) {
            return null;
        }
        return new ShmTarget(rkey, address, file.asSlice(ShmFiles.PAGE, length), file, null);
    }

    /** A caller-owned registration of a node of this process. */
    static ShmTarget ofLocal(ShmRegion region) {
        return new ShmTarget(region.rkey(), region.address(), region.segment(), null, region);
    }

    int rkey() {
        return rkey;
    }

    long address() {
        return address;
    }

    MemorySegment data() {
        return data;
    }

    /** {@return whether its owner still has it registered} */
    boolean registered() {
        return header != null
                ? (long) ShmFiles.WORD.getVolatile(header, ShmFiles.REGION_STATE) == ShmFiles.REGISTERED
                : !local.isClosed();
    }

    /** {@return whether {@code [address, address + length)} lies inside it} */
    boolean contains(long address, long length) {
        return length >= 0 && address >= this.address && address - this.address <= data.byteSize() - length;
    }
}
