package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;

/**
 * A byte string in remote memory, of any length up to {@link #MAX_LENGTH}: an index block holding
 * the length and the pointers of the chunks the bytes are cut into, each at most {@link #CHUNK}
 * bytes (the allocator's blocks are at most 1 MiB).
 *
 * <pre>
 * index block                          chunk i
 * +-------+------------------------+   +-------------------------------------+
 * |   0   | length in bytes        |   | bytes [i * CHUNK, (i + 1) * CHUNK)  |
 * |   8   | pointer of chunk 0     |   +-------------------------------------+
 * |  ...  | ...                    |
 * +-------+------------------------+
 * </pre>
 *
 * Written once by one compute thread, read by others after its pointer was published; never
 * changed. Transfers go through the compute thread's staging buffer, in pieces of at most its
 * {@code bufferSizePerThread}.
 */
public final class RemoteBlob {
    /** The largest chunk. */
    public static final int CHUNK = 512 << 10;
    /** The longest blob: 64 chunks. */
    public static final int MAX_LENGTH = 64 * CHUNK;

    private RemoteBlob() {
    }

    /**
     * Writes a blob to a memory node: its chunks, then an index block of its length and chunk pointers.
     *
     * @param thread    the writing compute thread
     * @param allocator its allocator
     * @param node      the memory node the blob goes to
     * @param bytes     the bytes, at most {@link #MAX_LENGTH}
     * @return the pointer of the index block
     * @throws BadArgumentException when {@code bytes} is longer than {@link #MAX_LENGTH}
     */
    public static long write(ComputeThread thread, RemoteAllocator allocator, int node, byte[] bytes) {
        if (bytes.length > MAX_LENGTH) {
            throw new BadArgumentException("a remote blob holds at most " + MAX_LENGTH + " bytes, got " + bytes.length);
        }
        int chunks = (bytes.length + CHUNK - 1) / CHUNK;
        long[] index = new long[1 + chunks];
        index[0] = bytes.length;
        for (int c = 0; c < chunks; c++) {
            int from = c * CHUNK;
            int length = Math.min(CHUNK, bytes.length - from);
            long chunk = allocator.allocate(length, node);
            copyOut(thread, chunk, MemorySegment.ofArray(bytes).asSlice(from, length));
            index[1 + c] = chunk;
        }
        long block = allocator.allocate(8L * index.length, node);
        copyOut(thread, block, MemorySegment.ofArray(index));
        return block;
    }

    /**
     * Reads a blob.
     *
     * @param thread the reading compute thread
     * @param block  a pointer {@link #write} returned
     * @return the bytes
     * @throws CorruptedMemoryException when the index holds a length no writer writes
     */
    public static byte[] read(ComputeThread thread, long block) {
        long length = thread.read(block);
        if (length < 0 || length > MAX_LENGTH) {
            throw new CorruptedMemoryException(block, length, "remote blob " + RemotePtr.toString(block) + " claims " + length
                    + " bytes (at most " + MAX_LENGTH + ")");
        }
        byte[] bytes = new byte[(int) length];
        int chunks = (bytes.length + CHUNK - 1) / CHUNK;
        long[] pointers = new long[chunks];
        if (chunks > 0) {
            copyIn(thread, RemotePtr.offset(block, 8), MemorySegment.ofArray(pointers));
        }
        for (int c = 0; c < chunks; c++) {
            int from = c * CHUNK;
            copyIn(thread, pointers[c], MemorySegment.ofArray(bytes).asSlice(from, Math.min(CHUNK, bytes.length - from)));
        }
        return bytes;
    }

    /**
     * Writes {@code source} to {@code ptr} in pieces of at most the thread's staging buffer.
     *
     * @param thread the writing compute thread
     * @param ptr    the first remote byte
     * @param source the bytes
     */
    public static void copyOut(ComputeThread thread, long ptr, MemorySegment source) {
        long piece = thread.config().bufferSizePerThread();
        for (long at = 0; at < source.byteSize(); at += piece) {
            thread.write(RemotePtr.offset(ptr, at), source.asSlice(at, Math.min(piece, source.byteSize() - at)));
        }
    }

    private static void copyIn(ComputeThread thread, long ptr, MemorySegment destination) {
        long piece = thread.config().bufferSizePerThread();
        for (long at = 0; at < destination.byteSize(); at += piece) {
            thread.read(RemotePtr.offset(ptr, at), destination.asSlice(at, Math.min(piece, destination.byteSize() - at)));
        }
    }
}
