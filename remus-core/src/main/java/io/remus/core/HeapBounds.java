package io.remus.core;

import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;

/** Where blocks may lie: inside a segment's heap, behind the control words, header included. */
final class HeapBounds {
    private HeapBounds() {
    }

    /**
     * @param thread    a compute thread, for the segment directory
     * @param nodeCount the cluster's node count (segment 0's heap starts behind a bitmap of that size)
     * @param ptr       a pointer on a memory node
     * @param blockSize the size of the block it would be
     * @return null when {@code ptr} can be a block of {@code blockSize} bytes: 8-byte aligned, its header
     *         and bytes inside one segment's heap; otherwise why not, naming the pointer
     */
    static String misplacement(ComputeThread thread, int nodeCount, long ptr, long blockSize) {
        long address = RemotePtr.address(ptr);
        if ((address & 7) != 0) {
            return RemotePtr.toString(ptr) + " is not a block: blocks are 8-byte aligned";
        }
        int node = RemotePtr.node(ptr);
        int segments = thread.segmentCount(node);
        for (int s = 0; s < segments; s++) {
            long base = RemotePtr.address(thread.segmentBase(node, s));
            long length = thread.segmentLength(node, s);
            if (address >= base && address < base + length) {
                long heap = ControlBlock.heapStart(s, nodeCount);
                if (address < base + heap + BlockHeader.SIZE || blockSize < 0 || blockSize > base + length - address) {
                    return RemotePtr.toString(ptr) + " is not a block of " + blockSize + " bytes: segment " + s + " of node "
                            + node + " keeps blocks with their headers in [" + heap + ", " + length + ") of its bytes, and offset "
                            + (address - base) + " is "
                            + (address - base < heap + BlockHeader.SIZE ? "in its control words" : "too close to its end");
                }
                return null;
            }
        }
        return RemotePtr.toString(ptr) + " is not a block: it is in no segment of memory node " + node;
    }
}
