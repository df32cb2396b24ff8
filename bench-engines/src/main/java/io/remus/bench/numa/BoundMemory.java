package io.remus.bench.numa;

import io.remus.core.error.BadArgumentException;
import io.remus.verbs.NumaPlacement;
import io.remus.verbs.VerbsException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Anonymous memory bound to one NUMA node: {@code mmap}, then {@code mbind(MPOL_BIND)} with
 * {@code MPOL_MF_STRICT | MPOL_MF_MOVE}, then every page touched so that it is allocated there.
 * {@link #pagesOnNode()} asks the kernel ({@code move_pages} without moving) where the pages
 * really are, so that a report states the placement it measured rather than the one it asked for.
 * Arguments are checked before any call; the system calls are {@link NumaPlacement}'s. Unmapped on
 * {@link #close()}; not thread-safe.
 */
public final class BoundMemory implements AutoCloseable {
    private static final long MAX_BYTES = 1L << 40;

    private final MemorySegment segment;
    private final int node;
    private boolean closed;

    private BoundMemory(MemorySegment segment, int node) {
        this.segment = segment;
        this.node = node;
    }

    /**
     * @param bytes    the length, rounded up to whole pages; 1 byte .. 1 TiB
     * @param node     the node to bind to, online and with memory
     * @param topology this machine's nodes
     * @return the bound, touched memory
     * @throws BadArgumentException when the length or node is out of range
     * @throws VerbsException      when the kernel refuses, naming the call and errno
     */
    public static BoundMemory allocate(long bytes, int node, NumaTopology topology) {
        if (bytes < 1 || bytes > MAX_BYTES) {
            throw new BadArgumentException("bound memory must be 1 byte to 1 TiB, got " + bytes);
        }
        if (!topology.node(node).hasMemory()) {
            throw new BadArgumentException("NUMA node " + node + " has no memory to bind to");
        }
        if (!NumaPlacement.supported()) {
            throw new UnsupportedOperationException("binding memory to a NUMA node needs Linux on x86_64 or aarch64");
        }
        long page = NumaPlacement.pageSize();
        long length = (bytes + page - 1) / page * page;
        MemorySegment region = NumaPlacement.map(length);
        try {
            NumaPlacement.bind(region, node, topology.maxNodeId());
            for (long off = 0; off < length; off += page) {
                region.set(ValueLayout.JAVA_LONG, off, 0L);
            }
            return new BoundMemory(region, node);
        } catch (RuntimeException e) {
            NumaPlacement.unmap(region);
            throw e;
        }
    }

    /** @return the memory (valid until {@link #close()}) */
    public MemorySegment segment() {
        return segment;
    }

    /** @return the node it was bound to */
    public int node() {
        return node;
    }

    /**
     * Asks the kernel where every page is now.
     *
     * @param nodes how many node ids to count (the highest id + 1)
     * @return pages per node id; index {@code nodes} counts pages the kernel could not place
     */
    public long[] pagesOnNode(int nodes) {
        long[] counts = new long[nodes + 1];
        for (int where : NumaPlacement.pageNodes(segment)) {
            counts[where >= 0 && where < nodes ? where : nodes]++;
        }
        return counts;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        NumaPlacement.unmap(segment);
    }
}
