package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.memory.RemotePtr;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The checks both fabrics apply to registered memory: a new registration's length, and the key and
 * bounds check a NIC applies to a work request's buffer (the local buffer by {@code lkey}, the
 * remote target by {@code rkey}).
 */
public final class RegistrationChecks {
    private static volatile long physicalMemory;

    private RegistrationChecks() {
    }

    /**
     * Refuses a publication of a registration that is not the publishing node's own, naming it.
     *
     * @param nodeId the publishing node
     * @param memory the registration refused, or null
     * @param open   whether the node publishes only open registrations (the message says so)
     * @return the exception to throw
     */
    public static BadArgumentException notOwnRegistration(int nodeId, RegisteredMemory memory, boolean open) {
        String which = memory == null ? "null"
                : "the registration [0x" + Long.toHexString(memory.address()) + ", +" + memory.length() + ")";
        return new BadArgumentException("node " + nodeId + " can only publish its own " + (open ? "open " : "")
                + "registrations, got " + which);
    }

    /**
     * Checks a node's publication of registrations and describes them as peers see them.
     *
     * @param nodeId   the publishing node
     * @param memories the registrations to publish
     * @param own      whether a registration is the node's own (and, where {@code open}, not closed)
     * @param open     whether the node publishes only open registrations (a refusal says so)
     * @return one region per registration, in order
     * @throws BadArgumentException when one of {@code memories} fails {@code own}; nothing was published
     */
    public static List<RemoteRegion> publications(int nodeId, List<? extends RegisteredMemory> memories,
                                                  Predicate<RegisteredMemory> own, boolean open) {
        List<RemoteRegion> regions = new ArrayList<>(memories.size());
        for (RegisteredMemory memory : memories) {
            if (!own.test(memory)) {
                throw notOwnRegistration(nodeId, memory, open);
            }
            regions.add(new RemoteRegion(nodeId, memory.address(), memory.length(), memory.rkey()));
        }
        return regions;
    }

    /**
     * Checks caller-owned memory to register: native, not empty, and inside the range a remote pointer addresses.
     *
     * @param segment the memory
     * @throws BadArgumentException when it is not native or is empty, or lies outside that range
     */
    public static void requireRegistrable(MemorySegment segment) {
        if (!segment.isNative() || segment.byteSize() == 0) {
            throw new BadArgumentException("only non-empty native memory can be registered, got " + segment);
        }
        RemotePtr.requireRange(segment.address(), segment.byteSize());
    }

    /**
     * Allocates memory that a fabric node will register: refused before allocating when it is
     * more than this machine's physical memory (registered memory is pinned, and the allocation
     * is zeroed, so it must fit in RAM), and a typed error where the allocation fails.
     *
     * @param arena     the arena that will own the memory
     * @param bytes     how many bytes; positive
     * @param alignment the alignment
     * @return the zeroed memory
     * @throws BadArgumentException when {@code bytes} is not positive or exceeds physical memory
     * @throws RemusException       when the allocation fails for want of native memory
     */
    public static MemorySegment allocate(Arena arena, long bytes, long alignment) {
        requireAllocatable(bytes);
        try {
            return arena.allocate(bytes, alignment);
        } catch (OutOfMemoryError e) {
            throw new RemusException("cannot allocate " + bytes + " bytes of registered memory: " + e.getMessage()
                    + " (check segment.size / segmentSize and buffer.size / bufferSizePerThread)", e);
        }
    }

    /**
     * Checks the length of memory a fabric node will allocate and register: positive, and no more
     * than this machine's physical memory (registered memory is pinned and zeroed, so it must fit in RAM).
     *
     * @param bytes the length
     * @return {@code bytes}
     * @throws BadArgumentException when {@code bytes} is not positive or exceeds physical memory
     */
    public static long requireAllocatable(long bytes) {
        requirePositiveLength(bytes);
        long physical = physicalMemory();
        if (physical > 0 && bytes > physical) {
            throw new BadArgumentException("cannot allocate " + bytes + " bytes of registered memory: this machine has "
                    + physical + " bytes (check segment.size / segmentSize and buffer.size / bufferSizePerThread)");
        }
        return bytes;
    }

    /** {@return this machine's physical memory in bytes (Linux {@code /proc/meminfo}), or 0 where unknown} */
    public static long physicalMemory() {
        long known = physicalMemory;
        if (known != 0) {
            return Math.max(0, known);
        }
        long found = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    String[] parts = line.trim().split("\\s+");
                    found = Math.multiplyExact(Long.parseLong(parts[1]), 1024L);
                    break;
                }
            }
        } catch (IOException | RuntimeException unknown) {
            found = -1;
        }
        physicalMemory = found;
        return Math.max(0, found);
    }

    /**
     * Checks the length of memory to register.
     *
     * @param bytes the length of memory to allocate and register
     * @return {@code bytes}
     * @throws BadArgumentException when it is not positive
     */
    public static long requirePositiveLength(long bytes) {
        if (bytes <= 0) {
            throw new BadArgumentException("registered memory length must be positive, got " + bytes);
        }
        return bytes;
    }

    /**
     * {@return a copy of a node's registrations with {@code region} added at the end} Nodes keep their
     * registrations in a volatile array replaced on each change, so that a work request's lookup
     * allocates nothing.
     *
     * @param <M>     the fabric's registration type
     * @param regions a node's registrations
     * @param region  the new registration
     */
    public static <M extends RegisteredMemory> M[] adding(M[] regions, M region) {
        M[] now = Arrays.copyOf(regions, regions.length + 1);
        now[now.length - 1] = region;
        return now;
    }

    /**
     * {@return a copy of a node's registrations without {@code region}; {@code regions} itself when it is not there}
     *
     * @param <M>     the fabric's registration type
     * @param regions a node's registrations
     * @param region  the registration to leave out
     */
    public static <M extends RegisteredMemory> M[] removing(M[] regions, M region) {
        for (int i = 0; i < regions.length; i++) {
            if (regions[i] == region) {
                M[] now = Arrays.copyOf(regions, regions.length - 1);
                System.arraycopy(regions, i + 1, now, i, regions.length - i - 1);
                return now;
            }
        }
        return regions;
    }

    /**
     * Finds the registration a local buffer lies in.
     *
     * @param <M>     the fabric's registration type
     * @param regions a node's registrations
     * @param lkey    a local key
     * @param address first byte
     * @param length  bytes
     * @return the registration with local key {@code lkey} covering the range, or {@code null}
     */
    public static <M extends RegisteredMemory> M coveringLocal(M[] regions, int lkey, long address, long length) {
        for (M m : regions) {
            if (m.lkey() == lkey && m.contains(address, length)) {
                return m;
            }
        }
        return null;
    }

    /**
     * Finds the registration a remote target lies in.
     *
     * @param <M>     the fabric's registration type
     * @param regions a node's registrations
     * @param rkey    a remote key
     * @param address first byte
     * @param length  bytes
     * @return the registration with remote key {@code rkey} covering the range, or {@code null}
     */
    public static <M extends RegisteredMemory> M coveringRemote(M[] regions, int rkey, long address, long length) {
        for (M m : regions) {
            if (m.rkey() == rkey && m.contains(address, length)) {
                return m;
            }
        }
        return null;
    }
}
