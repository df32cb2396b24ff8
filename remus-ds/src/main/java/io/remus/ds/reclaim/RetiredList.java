package io.remus.ds.reclaim;

import io.remus.core.RemoteAllocator;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;

import java.util.Arrays;

/**
 * A thread's retired blocks waiting to be freed, each with a tag (the epoch it waits for, or 0), in
 * growable parallel arrays; the byte and block counts are what the reclaimers report.
 */
final class RetiredList {
    private long[] blocks = new long[64];
    private long[] sizes = new long[64];
    private long[] tags = new long[64];
    private int count;
    private volatile long bytes;
    private volatile long retired;

    static void checkBlock(long block, long size) {
        if (RemotePtr.isNull(block)) {
            throw new BadArgumentException("cannot retire the null pointer");
        }
        SizeClasses.classOf(size);
    }

    void add(long block, long size, long tag) {
        if (count == blocks.length) {
            blocks = Arrays.copyOf(blocks, count * 2);
            sizes = Arrays.copyOf(sizes, count * 2);
            tags = Arrays.copyOf(tags, count * 2);
        }
        blocks[count] = block;
        sizes[count] = size;
        tags[count] = tag;
        count++;
        bytes += size;
        retired += size;
    }

    int count() {
        return count;
    }

    long bytes() {
        return bytes;
    }

    long retiredBytes() {
        return retired;
    }

    /**
     * Frees, with {@code allocator}, every block whose tag is at most {@code maxTag}, and drops them
     * from the list; a free that fails does not stop the others, and the first failure is thrown
     * after them (with the later ones suppressed).
     *
     * @return the blocks freed
     */
    int freeUpTo(long maxTag, RemoteAllocator allocator) {
        int kept = 0;
        int freed = 0;
        RemusException failure = null;
        for (int i = 0; i < count; i++) {
            if (tags[i] <= maxTag) {
                bytes -= sizes[i];
                freed++;
                try {
                    allocator.deallocate(blocks[i], sizes[i]);
                } catch (RemusException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            } else {
                blocks[kept] = blocks[i];
                sizes[kept] = sizes[i];
                tags[kept] = tags[i];
                kept++;
            }
        }
        count = kept;
        if (failure != null) {
            throw failure;
        }
        return freed;
    }
}
