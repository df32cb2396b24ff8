package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.BlockHeader;

/** What every reclaimer's guard shares: nesting depth and the header reads of {@link Guard}. */
abstract class BaseGuard implements Guard {
    final ComputeThread thread;
    int depth;

    BaseGuard(ComputeThread thread) {
        this.thread = thread;
    }

    /** {@return true when this call opened the outermost guard} */
    final boolean open() {
        thread.checkOwnerThread();
        return depth++ == 0;
    }

    /** {@return true when this call closed the outermost guard} */
    final boolean release() {
        thread.checkOwnerThread();
        if (depth == 0) {
            throw new BadArgumentException("guard closed more often than entered");
        }
        return --depth == 0;
    }

    final boolean inside() {
        return depth > 0;
    }

    final void requireOutside(String what) {
        if (depth > 0) {
            throw new BadArgumentException(what + " must be called outside any guard (" + depth + " open)");
        }
    }

    @Override
    public long incarnation(long block) {
        long word = thread.read(BlockHeader.address(block));
        if (!BlockHeader.isHeaderOf(block, word) || BlockHeader.state(word) != BlockHeader.ALLOCATED) {
            return -1;
        }
        return Integer.toUnsignedLong(BlockHeader.incarnation(word));
    }

    @Override
    public boolean validate(long block, long expected) {
        return expected >= 0 && incarnation(block) == expected;
    }
}
