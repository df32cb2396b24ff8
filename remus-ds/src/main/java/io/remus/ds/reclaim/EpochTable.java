package io.remus.ds.reclaim;

/**
 * Layout of one memory node's announcement table of {@link EpochReclaimer}, and the encoding of
 * its announcement words. The table is a block of the node's memory, published by
 * compare-and-swap in the node's {@link io.remus.core.memory.ControlBlock#RECLAIMER_TABLE} word.
 *
 * <pre>
 * +0        hint: the global epoch as last published to this table (changed by RDMA CAS only, up)
 * +8        slot count S (written before the table is published, then constant)
 * +16       magic "REMUSEBR"
 * +24       global epoch: used in the first memory node's table only (changed by RDMA CAS only, +1)
 * +64       announcements, S words: one per slot, written only by the slot's owner
 * +64 + 8S  owners, S words: 0 when free, the owner's token when taken (RDMA CAS only)
 * </pre>
 *
 * <p>An announcement word:
 *
 * <pre>
 *  63                43 42                              1   0
 * +--------------------+---------------------------------+--------+
 * | epoch (low 21 bits)|  lease deadline, ms (42 bits)   | active |
 * +--------------------+---------------------------------+--------+
 * </pre>
 *
 * The deadline is in the clock's milliseconds (valid until the year 2109 for
 * {@link System#currentTimeMillis()}); all ones means the lease never runs out. 21 bits of epoch are
 * enough because an active thread whose lease holds is never more than one epoch behind the
 * global epoch (see {@link EpochReclaimer}); the owner keeps its full 64-bit epoch.
 */
final class EpochTable {
    static final long HINT = 0;
    static final long SLOT_COUNT = 8;
    static final long MAGIC = 16;
    static final long GLOBAL = 24;
    static final long ANNOUNCEMENTS = 64;
    static final long MAGIC_VALUE = 0x5245_4D55_5345_4252L;

    static final int EPOCH_BITS = 21;
    static final int DEADLINE_BITS = 42;
    static final long EPOCH_MASK = (1L << EPOCH_BITS) - 1;
    static final long NEVER = (1L << DEADLINE_BITS) - 1;
    static final long FIRST_EPOCH = 1;

    private EpochTable() {
    }

    /** {@return the bytes of a table with {@code slots} slots} */
    static long bytes(int slots) {
        return ANNOUNCEMENTS + 16L * slots;
    }

    /** {@return the bytes that a pass reads: header and announcements} */
    static long announcedBytes(int slots) {
        return ANNOUNCEMENTS + 8L * slots;
    }

    static long announcement(int slot) {
        return ANNOUNCEMENTS + 8L * slot;
    }

    static long owner(int slots, int slot) {
        return ANNOUNCEMENTS + 8L * slots + 8L * slot;
    }

    static long encode(long epoch, boolean active, long deadline) {
        return (epoch & EPOCH_MASK) << (DEADLINE_BITS + 1) | (deadline & NEVER) << 1 | (active ? 1 : 0);
    }

    static boolean active(long word) {
        return (word & 1) != 0;
    }

    static long deadline(long word) {
        return (word >>> 1) & NEVER;
    }

    static long epochBits(long word) {
        return word >>> (DEADLINE_BITS + 1);
    }

    /** {@return whether an announcement holds the epoch back from {@code global} at clock reading {@code now}} */
    static boolean holdsBack(long word, long global, long now, long skewMillis) {
        if (!active(word)) {
            return false;
        }
        long deadline = deadline(word);
        if (deadline != NEVER && now - skewMillis > deadline) {
            return false;
        }
        return epochBits(word) != (global & EPOCH_MASK);
    }

    /** {@return the deadline of a lease of {@code leaseMillis} (negative: never) taken at {@code now}} */
    static long deadline(long now, long leaseMillis) {
        if (leaseMillis < 0) {
            return NEVER;
        }
        return Math.min(now + leaseMillis, NEVER - 1);
    }
}
