package io.remus.ds.testing;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * Ships a byte array from one node to another over RDMA, for gathering the histories of several
 * hosts to the one that checks them. A slot of {@link #SLOT_BYTES} bytes on the receiving node
 * holds a pointer and a length, zeroed before use. The sender allocates a block on the receiving
 * node, writes the bytes into it in chunks (RDMA WRITEs), then writes the pointer and last the
 * length. Each write is synchronous (its completion is awaited before the next is posted), so a
 * receiver that sees the length sees the bytes. The receiver polls the length and copies the block out.
 */
public final class GatheredBytes {
    /** Bytes of one slot: pointer and length. */
    public static final long SLOT_BYTES = 16;
    private static final int CHUNK = 4096;

    private GatheredBytes() {
    }

    /**
     * Sends bytes into a slot.
     *
     * @param t     a compute thread of the sender
     * @param slot  the slot, on the receiving node
     * @param bytes the bytes, at least one
     */
    public static void send(ComputeThread t, long slot, byte[] bytes) {
        int receiver = RemotePtr.node(slot);
        long block = t.allocator().allocate(bytes.length, receiver);
        MemorySegment source = MemorySegment.ofArray(bytes);
        for (int off = 0; off < bytes.length; off += CHUNK) {
            int n = Math.min(CHUNK, bytes.length - off);
            t.write(block + off, source.asSlice(off, n));
        }
        t.write(slot, block);
        t.write(slot + 8, bytes.length);
    }

    /**
     * Waits for a slot's bytes and copies them out.
     *
     * @param t       a compute thread of the receiving node
     * @param slot    the slot, on this node
     * @param timeout how long to wait for the sender
     * @return the bytes
     * @throws AssertionError when nothing came within the timeout
     */
    public static byte[] receive(ComputeThread t, long slot, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        long length;
        while ((length = t.read(slot + 8)) == 0) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("nothing arrived in slot " + Long.toHexString(slot) + " within " + timeout);
            }
            Thread.sleep(10);
        }
        long block = t.read(slot);
        byte[] bytes = new byte[Math.toIntExact(length)];
        MemorySegment.copy(t.localSegment(block, length), 0, MemorySegment.ofArray(bytes), 0, length);
        return bytes;
    }
}
