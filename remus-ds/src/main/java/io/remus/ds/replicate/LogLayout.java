package io.remus.ds.replicate;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.SizeClasses;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layout of one replica's log: one allocator block on the replica's own node, a 64-byte header and a
 * circular array of fixed-size slots. Entry {@code i} lives in slot {@code i % slots}.
 *
 * <pre>
 *  log + 0    shape: recovering &lt;&lt; 63 | ungranted &lt;&lt; 62  (written once, by the replica; the flag bits as
 *             | slots &lt;&lt; 32 | slot bytes                     below)
 *  log + 8    applied: entries this replica applied         (CPU stores of the replica; the leader READs it)
 *  log + 16   commit: entries the leader knows committed    (RDMA WRITE of {@link LogLeader#flushCommit})
 *  log + 24   heartbeat: a counter the member's own agent   (CPU stores of {@link ReplicaAgent#poll}; the
 *             increments on each poll                        other members' agents READ it)
 *  log + 32   candidate: the term this member asks to lead  (CPU store of {@link LogLeader#takeOver} on the
 *             with, 0 when it never asked                    member's own node; the agents READ it)
 *  log + 40   promised: the highest term this member        (CPU store of {@link ReplicaAgent#poll} after the
 *             granted write access to (Mu's permission)      permission switch; a new leader READs it)
 *  log + 48   snapshot: the pointer of this member's        (written once, by the replica; 0: the log has no
 *             snapshot region                                snapshot region)
 *  log + 56   snapshot capacity: bytes its image may take   (written once, by the replica)
 *  log + 64   slot 0, slot 1 ... slot (slots - 1)
 *
 *  a slot:
 *  +0   stamp: index + 1           +24  check: length &lt;&lt; 32 | low 32 bits of the stamp
 *  +8   term of the leader         +32  checksum of words +0..+24 and the payload
 *  +16  commit: entries committed  +40  payload, padded to 8 bytes with zeros
 *       when the leader wrote it   +40 + padded length: canary = the checksum again
 * </pre>
 *
 * A leader writes a whole slot with one RDMA WRITE, whose bytes land in address order, so the canary is the
 * last word to land; its own copy it stores with the CPU, stamp last. A replica takes a slot only when the
 * stamp is the one it expects, the check names the stamp and a length in range, the checksum it computes
 * equals the checksum word and the canary: a slot whose WRITE is still landing (torn) or that holds an
 * earlier lap's entry is not taken.
 *
 * <p><b>The recovering bit</b> ({@link #RECOVERING}) is set in the shape word of a log that
 * {@link LogReplica#rejoin} made for a member restarted with new memory: its log is empty although the member may
 * have held committed entries before it died, so {@link LogLeader#takeOver} never takes it as a source of the log
 * (a majority of granting members without the bit is needed). A leader clears it, with one 8-byte WRITE of the
 * shape word (its own member's with a CPU store), once every WRITE that copied its own log from the member's
 * applied count to its end into the member's log has completed ({@link LogLeader#reattach}, or the rewrite of a
 * {@code takeOver}): the member's log then holds what a follower attached all along holds. The
 * <b>ungranted bit</b> ({@link #UNGRANTED}), set with it, says that the member has not switched its write access to
 * any leader since the rejoin, although its promised word already holds the term it learned: the member clears it
 * with a CPU store at its first grant, and a leader reattaches the member only once it is clear (its WRITEs would be
 * refused before).
 *
 * <p>A member's snapshot region (from {@link LogReplica#create(io.remus.core.RemusNode, io.remus.core.ComputeThread,
 * ReplicaGroup, String, int, int, int, StateMachine)} with a positive capacity) is a second allocator block on
 * the member's node, named by the log header's snapshot word:
 *
 * <pre>
 *  snap + 0    capacity: bytes the image may take            (written once, by the replica)
 *  snap + 8    covers: entries the image's state includes    \
 *  snap + 16   length: the image's bytes                      | the descriptor: one 24-byte WRITE, last
 *  snap + 24   checksum of covers, length and padded image   /
 *  snap + 64   the image, padded to 8 bytes with zeros
 * </pre>
 *
 * Whoever writes an image (the member's own {@link LogReplica#takeSnapshot}, or a leader installing its image
 * with RDMA WRITEs) first clears the covers word, then writes the image, then the descriptor. A member restores
 * an image only when its covers word is above its applied count and the checksum it computes over its own copy
 * of the image equals the checksum word: an image whose WRITEs are still landing, torn, or mixed with another
 * writer's is never restored.
 */
public final class LogLayout {
    /** Bytes of the log's header before slot 0. */
    public static final int HEADER_BYTES = 64;
    /** Offset of the shape word in the header. */
    public static final int SHAPE = 0;
    /**
     * The shape word's recovering bit: the log was made empty by {@link LogReplica#rejoin} and no leader has caught
     * it up yet; the member's log is no source for a takeover.
     */
    public static final long RECOVERING = 1L << 63;
    /**
     * The shape word's ungranted bit: the log was made by {@link LogReplica#rejoin} and its member has granted no
     * leader write access since; cleared by the member's first grant.
     */
    public static final long UNGRANTED = 1L << 62;
    /** The shape word's flag bits, {@link #RECOVERING} and {@link #UNGRANTED}; the rest is the log's shape. */
    public static final long FLAGS = RECOVERING | UNGRANTED;
    /** Offset of the replica's applied count in the header. */
    public static final int APPLIED = 8;
    /** Offset of the commit count a leader's {@link LogLeader#flushCommit} writes. */
    public static final int COMMIT = 16;
    /** Offset of the member's heartbeat counter in the header. */
    public static final int HEARTBEAT = 24;
    /** Offset of the term the member asks to lead with (0: none) in the header. */
    public static final int CANDIDATE = 32;
    /** Offset of the highest term the member granted write access to (0: none) in the header. */
    public static final int PROMISED = 40;
    /** Offset of the pointer of the member's snapshot region (0: none) in the header. */
    public static final int SNAPSHOT = 48;
    /** Offset of the capacity of the member's snapshot region in the header. */
    public static final int SNAPSHOT_CAPACITY = 56;
    /** Offset of a snapshot region's capacity word. */
    public static final int SNAP_CAPACITY = 0;
    /** Offset of a snapshot region's covers word: the entries its image's state includes (0: no image). */
    public static final int SNAP_COVERS = 8;
    /** Offset of a snapshot region's image length. */
    public static final int SNAP_LENGTH = 16;
    /** Offset of a snapshot region's checksum word. */
    public static final int SNAP_CHECKSUM = 24;
    /** Bytes of the descriptor (covers, length, checksum), written last with one WRITE. */
    public static final int SNAP_DESCRIPTOR_BYTES = 24;
    /** Offset of a snapshot region's image. */
    public static final int SNAP_IMAGE = 64;
    /** Offset of a slot's stamp (index + 1). */
    public static final int STAMP = 0;
    /** Offset of a slot's leader term. */
    public static final int TERM = 8;
    /** Offset of a slot's piggybacked commit count. */
    public static final int SLOT_COMMIT = 16;
    /** Offset of a slot's check word. */
    public static final int CHECK = 24;
    /** Offset of a slot's checksum word. */
    public static final int CHECKSUM = 32;
    /** Offset of a slot's payload. */
    public static final int PAYLOAD = 40;
    /** Bytes of a slot besides its payload: five header words and the canary. */
    public static final int OVERHEAD_BYTES = PAYLOAD + 8;
    /** The most slots a log has. */
    public static final int MAX_SLOTS = 1 << 16;

    private LogLayout() {
    }

    /** {@return {@code length} rounded up to 8 bytes} */
    static long padded(long length) {
        return (length + 7L) & ~7L;
    }

    /** {@return the bytes of a slot for entries up to {@code maxEntryBytes}} */
    static int slotBytes(int maxEntryBytes) {
        return (int) (OVERHEAD_BYTES + padded(maxEntryBytes));
    }

    /** {@return the bytes of a whole log} */
    static long logBytes(int slots, int maxEntryBytes) {
        return HEADER_BYTES + (long) slots * slotBytes(maxEntryBytes);
    }

    /**
     * Checks a log's shape.
     *
     * @throws BadArgumentException naming the value, for a slot count or entry size out of range or a log larger
     *                              than one allocation
     */
    static void checkShape(int slots, int maxEntryBytes) {
        if (slots < 2 || slots > MAX_SLOTS) {
            throw new BadArgumentException("slots must be 2.." + MAX_SLOTS + ", got " + slots);
        }
        if (maxEntryBytes < 1) {
            throw new BadArgumentException("maxEntryBytes must be at least 1, got " + maxEntryBytes);
        }
        if (maxEntryBytes > SizeClasses.MAX || logBytes(slots, maxEntryBytes) > SizeClasses.MAX) {
            throw new BadArgumentException("a log of " + slots + " slots of entries up to " + maxEntryBytes + " bytes takes "
                    + logBytes(slots, Math.min(maxEntryBytes, (int) SizeClasses.MAX)) + " bytes, more than one allocation's "
                    + SizeClasses.MAX);
        }
    }

    /** {@return the check word of an entry} */
    static long check(long stamp, long length) {
        return length << 32 | (stamp & 0xFFFF_FFFFL);
    }

    /**
     * The checksum of a slot image: its words +0..+24 and its padded payload, mixed word by word; never 0.
     *
     * @param slot   the slot's bytes, starting at its stamp
     * @param length the payload's length
     */
    static long checksum(MemorySegment slot, long length) {
        long h = 0x6A09E667F3BCC909L;
        for (long off = 0; off < CHECKSUM; off += 8) {
            h = mix(h, slot.get(ValueLayout.JAVA_LONG_UNALIGNED, off));
        }
        long end = PAYLOAD + padded(length);
        for (long off = PAYLOAD; off < end; off += 8) {
            h = mix(h, slot.get(ValueLayout.JAVA_LONG_UNALIGNED, off));
        }
        return h == 0 ? 1 : h;
    }

    /**
     * The payload length of a slot image that holds entry {@code index} whole, or -1: stamp, check, checksum
     * (recomputed) and canary agree. For copies of a log (plain loads); a member's own log is checked with
     * volatile loads by {@link LogReplica}.
     *
     * @param slot          the slot's bytes, starting at its stamp
     * @param index         the entry the slot should hold
     * @param maxEntryBytes the log's largest entry
     */
    static long wholeLength(MemorySegment slot, long index, int maxEntryBytes) {
        long stamp = index + 1;
        if (slot.get(ValueLayout.JAVA_LONG_UNALIGNED, STAMP) != stamp) {
            return -1;
        }
        long check = slot.get(ValueLayout.JAVA_LONG_UNALIGNED, CHECK);
        long length = check >>> 32;
        if ((check & 0xFFFF_FFFFL) != (stamp & 0xFFFF_FFFFL) || length < 1 || length > maxEntryBytes) {
            return -1;
        }
        long checksum = slot.get(ValueLayout.JAVA_LONG_UNALIGNED, CHECKSUM);
        if (slot.get(ValueLayout.JAVA_LONG_UNALIGNED, PAYLOAD + padded(length)) != checksum
                || checksum(slot, length) != checksum) {
            return -1;
        }
        return length;
    }

    /**
     * The smallest term above {@code seen} that belongs to member {@code memberIndex} of a group of
     * {@code size}: terms are {@code round * size + memberIndex + 1}, so no two members ever use the same
     * term.
     *
     * @param seen        the highest term seen so far
     * @param memberIndex the member's index in its group
     * @param size        the group's size
     * @return the term
     */
    static long nextTerm(long seen, int memberIndex, int size) {
        long round = Math.max(0, seen) / size + 1;
        return round * size + memberIndex + 1;
    }

    /** {@return the bytes of a snapshot region for images up to {@code capacity} bytes} */
    static long snapshotRegionBytes(long capacity) {
        return SNAP_IMAGE + padded(capacity);
    }

    /**
     * Checks a snapshot region's capacity.
     *
     * @throws BadArgumentException naming the value, for a negative capacity or a region larger than one allocation
     */
    static void checkSnapshotCapacity(long capacity) {
        if (capacity < 0 || snapshotRegionBytes(capacity) > SizeClasses.MAX) {
            throw new BadArgumentException("snapshotBytes must be 0.." + (SizeClasses.MAX - SNAP_IMAGE)
                    + " (one allocation with its 64-byte descriptor), got " + capacity);
        }
    }

    /**
     * The checksum of a snapshot image: its covers count, its length and its padded bytes, mixed word by word;
     * never 0.
     *
     * @param covers the entries the image's state includes
     * @param length the image's length
     * @param image  at least {@code padded(length)} bytes, the padding zeros
     */
    static long snapshotChecksum(long covers, long length, MemorySegment image) {
        long h = mix(mix(0xBB67AE8584CAA73BL, covers), length);
        long end = padded(length);
        for (long off = 0; off < end; off += 8) {
            h = mix(h, image.get(ValueLayout.JAVA_LONG_UNALIGNED, off));
        }
        return h == 0 ? 1 : h;
    }

    private static long mix(long h, long word) {
        h ^= word;
        h *= 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }
}
