package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.LibC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Places memory and threads on NUMA nodes (Linux): anonymous memory from {@code mmap}, bound to
 * one node with {@code mbind(MPOL_BIND)}, where its pages really are ({@code move_pages} without
 * moving), and the CPUs the calling thread may run on ({@code sched_setaffinity},
 * {@code sched_getcpu}). RDMA buffers on the NIC's node and client threads on a chosen node are
 * what a placement experiment varies.
 *
 * <p>Every argument is checked before the native call: a bad one throws
 * {@link InvalidArgumentException} naming the value. A call the kernel refuses throws
 * {@link VerbsException} naming the C function and errno. Control path only: each method makes
 * one system call (none for the checks) and allocates its temporaries in a confined arena. The
 * class holds no state; the methods may be called from any thread.
 */
public final class NumaPlacement {
    /** The highest NUMA node id accepted (Linux supports at most 1024 nodes). */
    public static final int MAX_NODE_ID = 1023;
    /** The highest CPU id accepted (Linux supports at most 8192 CPUs). */
    public static final int MAX_CPU_ID = 8191;

    private NumaPlacement() {
    }

    /**
     * {@return whether this operating system and CPU architecture have the memory-policy calls
     * (Linux on x86_64 or aarch64); without them {@link #bind} and {@link #pageNodes} throw
     * {@link UnsupportedOperationException}}
     */
    public static boolean supported() {
        return LibC.hasMemoryPolicyCalls();
    }

    /**
     * {@return the size of a memory page in bytes ({@code sysconf(_SC_PAGESIZE)}, read once)}
     *
     * @throws VerbsException if {@code sysconf} fails
     */
    public static long pageSize() {
        return Page.SIZE;
    }

    private static final class Page {
        static final long SIZE = read();

        private static long read() {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment state = Errno.allocate(a);
                long page = LibC.sysconf(state, LibC._SC_PAGESIZE);
                if (page <= 0) {
                    throw new VerbsException("sysconf", Errno.get(state), "reading the page size");
                }
                return page;
            }
        }
    }

    /**
     * Maps anonymous private read-write memory ({@code mmap}); the kernel zero-fills it and
     * places each page when it is first touched, by the memory policy then in force.
     *
     * @param bytes the length: positive and a whole number of pages ({@link #pageSize()})
     * @return the mapping, valid until {@link #unmap}
     * @throws InvalidArgumentException if {@code bytes} is not a positive multiple of the page size
     * @throws VerbsException           if {@code mmap} fails
     */
    public static MemorySegment map(long bytes) {
        long page = pageSize();
        if (bytes <= 0 || bytes % page != 0) {
            throw new InvalidArgumentException("mapped length must be a positive multiple of the page size "
                    + page + ", got " + bytes);
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(a);
            MemorySegment p = LibC.mmap(state, MemorySegment.NULL, bytes, LibC.PROT_READ | LibC.PROT_WRITE,
                    LibC.MAP_PRIVATE | LibC.MAP_ANONYMOUS, -1, 0L);
            if (p.address() == -1L) {
                throw new VerbsException("mmap", Errno.get(state), bytes + " bytes");
            }
            return p.reinterpret(bytes);
        }
    }

    /**
     * Unmaps memory from {@link #map} ({@code munmap}).
     *
     * @param region the whole mapping
     * @throws InvalidArgumentException if {@code region} is not a native, page-aligned, non-empty
     *                                  whole number of pages
     * @throws VerbsException           if {@code munmap} fails
     */
    public static void unmap(MemorySegment region) {
        checkRegion(region, "unmap");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(a);
            if (LibC.munmap(state, region, region.byteSize()) != 0) {
                throw new VerbsException("munmap", Errno.get(state), region.byteSize() + " bytes");
            }
        }
    }

    /**
     * Binds a range to one node: {@code mbind(MPOL_BIND)} with {@code MPOL_MF_STRICT |
     * MPOL_MF_MOVE}, so that its pages are allocated (or moved) there and the call fails if one
     * cannot be.
     *
     * @param region    memory from {@link #map} (or a page-aligned part of it)
     * @param node      the node, 0 .. {@code maxNodeId}
     * @param maxNodeId the machine's highest node id, 0 .. {@link #MAX_NODE_ID}; sizes the node mask
     * @throws InvalidArgumentException      if {@code region} is not a native, page-aligned, non-empty
     *                                       whole number of pages, or a node id is out of range
     * @throws UnsupportedOperationException if {@link #supported()} is false
     * @throws VerbsException                if {@code mbind} fails
     */
    public static void bind(MemorySegment region, int node, int maxNodeId) {
        checkRegion(region, "bind");
        if (maxNodeId < 0 || maxNodeId > MAX_NODE_ID) {
            throw new InvalidArgumentException("highest NUMA node id must be 0.." + MAX_NODE_ID + ", got " + maxNodeId);
        }
        if (node < 0 || node > maxNodeId) {
            throw new InvalidArgumentException("NUMA node must be 0.." + maxNodeId + ", got " + node);
        }
        long words = maxNodeId / 64 + 1;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(a);
            MemorySegment mask = a.allocate(ValueLayout.JAVA_LONG, words);
            mask.setAtIndex(ValueLayout.JAVA_LONG, node / 64, 1L << (node % 64));
            long rc = LibC.mbind(state, region, region.byteSize(), LibC.MPOL_BIND, mask, words * 64 + 1,
                    LibC.MPOL_MF_STRICT | LibC.MPOL_MF_MOVE);
            if (rc != 0) {
                throw new VerbsException("mbind", Errno.get(state), region.byteSize() + " bytes, mode " + LibC.MPOL_BIND);
            }
        }
    }

    /**
     * Asks the kernel where every page of a range is now ({@code move_pages} with no target
     * nodes: it moves nothing).
     *
     * @param region memory from {@link #map} (or a page-aligned part of it)
     * @return per page, in order: its node id, or a negative errno (e.g. {@code -ENOENT} for a page
     *         not yet allocated)
     * @throws InvalidArgumentException      if {@code region} is not a native, page-aligned, non-empty
     *                                       whole number of pages
     * @throws UnsupportedOperationException if {@link #supported()} is false
     * @throws VerbsException                if {@code move_pages} fails
     */
    public static int[] pageNodes(MemorySegment region) {
        long page = checkRegion(region, "pageNodes");
        long count = region.byteSize() / page;
        if (count > Integer.MAX_VALUE) {
            throw new InvalidArgumentException("pageNodes: " + count + " pages do not fit an int[]");
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(a);
            MemorySegment pages = a.allocate(ValueLayout.ADDRESS, count);
            MemorySegment status = a.allocate(ValueLayout.JAVA_INT, count);
            for (long i = 0; i < count; i++) {
                pages.setAtIndex(ValueLayout.ADDRESS, i, MemorySegment.ofAddress(region.address() + i * page));
            }
            if (LibC.move_pages(state, 0, count, pages, MemorySegment.NULL, status, 0) < 0) {
                throw new VerbsException("move_pages", Errno.get(state), count + " pages (query)");
            }
            return status.toArray(ValueLayout.JAVA_INT);
        }
    }

    /**
     * Lets the calling platform thread run only on the given CPUs ({@code sched_setaffinity},
     * pid 0: this thread only).
     *
     * @param cpus the CPU ids, each 0 .. {@link #MAX_CPU_ID}; at least one
     * @throws InvalidArgumentException if {@code cpus} is empty, holds null or an id out of range,
     *                                  or the calling thread is virtual (it would pin its carrier)
     * @throws VerbsException           if {@code sched_setaffinity} fails
     */
    public static void pinCurrentThread(List<Integer> cpus) {
        if (cpus == null || cpus.isEmpty()) {
            throw new InvalidArgumentException("CPUs to pin to: at least one, got " + cpus);
        }
        int max = 0;
        for (Integer cpu : cpus) {
            if (cpu == null || cpu < 0 || cpu > MAX_CPU_ID) {
                throw new InvalidArgumentException("CPU id must be 0.." + MAX_CPU_ID + ", got " + cpu);
            }
            max = Math.max(max, cpu);
        }
        if (Thread.currentThread().isVirtual()) {
            throw new InvalidArgumentException("a virtual thread cannot be pinned to a CPU");
        }
        long words = max / 64 + 1;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(a);
            MemorySegment mask = a.allocate(ValueLayout.JAVA_LONG, words);
            for (int cpu : cpus) {
                long i = cpu / 64;
                mask.setAtIndex(ValueLayout.JAVA_LONG, i, mask.getAtIndex(ValueLayout.JAVA_LONG, i) | 1L << (cpu % 64));
            }
            if (LibC.sched_setaffinity(state, 0, mask.byteSize(), mask) != 0) {
                throw new VerbsException("sched_setaffinity", Errno.get(state), mask.byteSize() + "-byte mask");
            }
        }
    }

    /**
     * {@return the CPU the calling thread runs on now ({@code sched_getcpu})}
     *
     * @throws VerbsException if {@code sched_getcpu} fails
     */
    public static int currentCpu() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = Errno.allocate(a);
            int cpu = LibC.sched_getcpu(state);
            if (cpu < 0) {
                throw new VerbsException("sched_getcpu", Errno.get(state), "reading the current CPU");
            }
            return cpu;
        }
    }

    /** @return the page size; the region is a native, page-aligned, non-empty whole number of pages */
    private static long checkRegion(MemorySegment region, String what) {
        if (region == null) {
            throw new InvalidArgumentException(what + ": region is null");
        }
        if (!region.isNative() || region.address() == 0) {
            throw new InvalidArgumentException(what + ": region " + region + " is not native memory");
        }
        long page = pageSize();
        if (region.byteSize() <= 0 || region.byteSize() % page != 0 || region.address() % page != 0) {
            throw new InvalidArgumentException(what + ": region " + region + " is not a non-empty run of whole "
                    + page + "-byte pages");
        }
        return page;
    }
}
