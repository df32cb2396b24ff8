package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * A hash map from byte-string keys to byte-string values on one-sided RDMA, after RACE hashing (P. Zuo,
 * J. Sun, L. Yang, S. Zhang, Y. Hua, "One-sided RDMA-Conscious Extendible Hashing for Disaggregated
 * Memory", USENIX ATC 2021): 8-byte slots that point to out-of-place, immutable key-value blocks, two
 * candidate combined buckets per key read in one doorbell batch, and every change published by one
 * compare-and-swap of a slot. Fixed capacity, no resizing (RACE's extendible directory is left out).
 *
 * <pre>
 *  root block:        -24 the allocator's block header | -16 the handles word | -8 the identity word
 *                     ({@link StructureIdentity}: kind, layout version, the block's life, open handles) | then
 *                     the root, where the map's pointer points
 *  root (24 bytes):   0 bucket count | 8 longest key (high 32 bits) and largest value (low 32 bits), in
 *                     bytes | 16 pointer to the table
 *  table:             bucket count x 64 bytes; a bucket is 8 slots of 8 bytes (the slot word:
 *                     8-bit fingerprint | 10-bit length in 64-byte units | 45-bit address | pending bit)
 *  a key's buckets:   | 0 | .. | f | f+1 | .. | b/2-1 | b/2 | .. | s | s+1 | .. | b-1 |    (b buckets)
 *                              \_________/                       \_________/
 *                     first combined bucket (slots 0..15)   second combined bucket (slots 16..31)
 *                     f in 0..b/2-2 (left half), s in b/2..b-2 (right half); each READ as one 128 bytes
 *  key-value block:   0 key length k (high 32 bits) and value length n (low 32 bits) | 8 the key's k bytes,
 *                     zero-padded to a multiple of 8 | then the value's n bytes; allocated on the table's
 *                     node in a multiple of 64 bytes, written once before its slot word is published,
 *                     never changed until it is freed
 * </pre>
 *
 * <p><b>Slot layout.</b> A {@link RemotePtr} is 16 bits of node id and 48 of address, so 48 bits of
 * pointer, a fingerprint and a length do not fit in a word beside a node id. Every block lives on the
 * table's home node (the node id is implied) and is 8-byte aligned (the 3 low address bits are implied):
 * the slot keeps 45 address bits, RACE's 8-bit fingerprint, a 10-bit length in 64-byte units (blocks up to
 * 65,472 bytes, read whole by a lookup in one READ) and one pending bit.
 *
 * <p><b>Keys</b> are byte strings of 1 to {@link #maxKeyBytes()} bytes, chosen at creation (8 by default,
 * at most {@value #MAX_KEY_BYTES}). A {@code long} key is exactly its 8 little-endian bytes: {@code put(1L, v)}
 * and a put of the key {@code 01 00 00 00 00 00 00 00} address one entry, and the {@code long} methods cost
 * what the byte-key methods cost for an 8-byte key. Two keys are equal when their lengths and all their
 * bytes are: a block holds the key when its header's key length and every key byte match.
 *
 * <p><b>Buckets.</b> A key hashes, from a 64-bit digest of its bytes (an 8-byte key's digest is the key
 * read as a little-endian {@code long}), to two <em>combined buckets</em> (two hash functions) and to an
 * 8-bit fingerprint. A combined bucket is two neighbouring buckets, {@code f} and {@code f+1}, READ as one:
 * as RACE's two main buckets share the overflow bucket between them, neighbouring combined buckets share a
 * bucket ({@code f+1} is the second half of the combined bucket at {@code f} and the first half of the one
 * at {@code f+1}). The first combined bucket lies in the table's left half, the second in its right half,
 * so the two never share a bucket; a table of fewer than 4 buckets has combined buckets of one bucket
 * (its two halves). The key's entry is in one of their 32 slots (16 below 4 buckets), numbered first
 * combined bucket 0..15, second 16..31. A new key takes the first empty slot of the emptiest of its 4
 * buckets, the leftmost of a tie, so ties go to the left half ("always go left", B. V&ouml;cking, "How
 * asymmetry helps load balancing", J. ACM 2003): random keys fill at least 85 % of a table's slots before
 * the first {@link MapFullException} (90 to 95 % in tables of 256 and 1,024 buckets).
 *
 * <p><b>The algorithm and where it linearizes.</b> The map keeps one invariant: at any moment at most one
 * <em>committed</em> (non-pending) slot holds a given key. A lookup ignores pending slots.
 * <ul>
 *   <li>{@link #get}: one doorbell batch READs both combined buckets, then the blocks of the committed slots
 *       whose fingerprint matches are READ, all in one batch while they fit the buffer side by side, and the
 *       first of them in slot order that holds the key is the answer. It linearizes when it READs the slot it
 *       returns; when it returns absent, at a moment of its bucket READs when no committed slot held the
 *       key (such a moment exists: the key's committed slot never moves while the key is present, since an update
 *       changes it in place and a new slot commits only when none is committed, so a key present
 *       throughout the READs would have been seen).</li>
 *   <li>{@link #put}: the new block is written in the same doorbell batch as the READs of both combined
 *       buckets.
 *       When a committed slot holds the key (its block's key READ to tell fingerprint twins apart) the
 *       slot is compare-and-swapped from the old word to the new one: the put linearizes there and the
 *       old block is retired. Otherwise the put claims an empty slot (the first of its emptiest bucket, see
 *       above) with a compare-and-swap to its word with the pending bit set, and in the same batch READs
 *       both combined buckets again, the claimed slot's first: RACE's re-read for duplicates. The re-read counts only when that first READ
 *       shows the claim (so it ran after the compare-and-swap, and the second READ, behind it on the one
 *       queue pair, too); otherwise the put READs the slot and, still claimed, both combined buckets again.
 *       Another slot holding the key decides: a committed one, or a pending one earlier in slot order, makes this put withdraw its
 *       pending word (compare-and-swap back to empty) and start over; a pending one later in slot order
 *       is withdrawn by this put (compare-and-swap of that exact pending word to empty, after which its
 *       owner's commit fails and it starts over). When that compare-and-swap finds a committed word in
 *       the slot instead, this put withdraws and starts over too: the other put committed first, and the
 *       word found may already be a later one (a put that replaced the value in place, or, after a
 *       remove, another key's), so only the exact committed word would not do. An empty slot or another
 *       pending word found there lets this put go on: the other claim is gone (withdrawn, or committed
 *       and removed since, where the key was absent), and a claim made since came after this put's claim
 *       and re-reads after it. Then the put commits with a compare-and-swap that
 *       clears its pending bit and linearizes there. Of two slots pending for one key, the one claimed
 *       second re-reads after both claims and so sees the other: either it withdraws, or it withdraws the
 *       other before that one committed (exactly one of the two compare-and-swaps on that word wins), so
 *       two committed slots of one key never coexist.</li>
 *   <li>{@link #remove}: finds the committed slot as {@link #put} does and compare-and-swaps it to
 *       empty, where it linearizes; the block is retired. Absent: as for {@link #get}.</li>
 * </ul>
 * <p><b>Torn slot words.</b> An RDMA READ racing a compare-and-swap of the same slot can return the word
 * half old and half new on some providers (Soft-RoCE's responder copies a READ's payload with memcpy): a
 * word never stored, whose fingerprint may match and whose address may point anywhere. A slot word with
 * the key's fingerprint that points outside the home node's segments, or to a block of another key, makes
 * the view suspect; a miss, a bad value length, or a put's decision to commit is trusted only after a
 * READ of both combined buckets returns the same view; a view that changed is looked at again, and a put withdraws
 * its claim and starts over. Two equal READs do not prove a word whole (a slot that puts claim and
 * withdraw goes back and forth between empty and one pending word, and two READs can tear alike), so a
 * word that still points outside the segments, or to a block whose value length does not fit, is read
 * once more by a fetch-and-add of 0 (an atomic read, 1 NIC atomic): only a word
 * read so is a {@link CorruptedMemoryException}; otherwise the view is read again.
 * A fingerprint twin of another key in the key's buckets costs that one re-read too.
 *
 * <p>Pending words never change what a lookup returns, so withdrawing one is invisible. A compare-and-swap
 * that expects a committed word is posted only while the guard holds its lease: the block it points to
 * cannot have been freed and reused, so the word cannot have come back for another key (ABA). A
 * withdrawn pending word that comes back (its owner claims again with the same block) can at worst make
 * its owner start over once more.
 *
 * <p><b>Progress and cost</b> (in round trips besides the allocator's and the reclaimer's own work; the
 * expected case has no other key with the same fingerprint among the key's 32 slots, and no contention).
 * <table>
 *   <caption>per call</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations (expected)</th><th>round trips: expected, worst</th></tr>
 *   <tr><td>{@link #get}</td><td>wait-free while the guard holds its lease</td>
 *       <td>2 READs of 128 bytes (the combined buckets; 64 below 4 buckets) and 1 READ of 8 bytes (the root
 *       block's header) in one batch, 1 READ of the block (with fingerprint twins, one batch of READs of their
 *       blocks)</td>
 *       <td>2 (1 when absent); 1 + committed fingerprint matches (at most 33) when their blocks do not fit
 *       the buffer side by side</td></tr>
 *   <tr><td>{@link #put} of a new key</td><td>lock-free, but only obstruction-free between concurrent first
 *       inserts of one key (see below)</td>
 *       <td>an allocation; a batch of 1 WRITE of {@code 8 + k + n} bytes, 2 READs and the root header's
 *       8-byte READ; a batch of 1 compare-and-swap and 2 READs; 1 compare-and-swap</td><td>3; unbounded under contention</td></tr>
 *   <tr><td>{@link #put} of a present key</td><td>lock-free</td>
 *       <td>an allocation; the first batch; 1 READ of {@code 8 + k} bytes (the old block's header and key);
 *       1 compare-and-swap</td>
 *       <td>3; unbounded under contention</td></tr>
 *   <tr><td>{@link #remove}</td><td>lock-free</td><td>a batch of 2 READs and the root header's 8-byte READ; 1 READ of {@code 8 + k} bytes; 1
 *       compare-and-swap</td>
 *       <td>3 (1 when absent); unbounded under contention</td></tr>
 * </table>
 * Here {@code k} is the key's length rounded up to 8 (8 for a {@code long} key) and {@code n} the value's.
 * A call learns of a destroy from the root's handles word, READ behind the buckets in its first doorbell batch
 * and checked before any data of that batch is used ({@link StructureIdentity#check}): one READ of 8 bytes per
 * call, no round trip. A call that starts after any handle's destroy returned throws {@link ClosedMapException};
 * a call concurrent with a destroy may complete before it.
 * Reads of fingerprint twins' headers and keys are batched (one more round trip for up to 16 of them). A put or
 * remove goes round again (one batch READ of the buckets, then as before) only after a compare-and-swap failed because
 * another operation changed the slot, so some operation made progress, except between two first inserts
 * of one key: a put yields once to a pending slot earlier in slot order, and the next time it meets the
 * same pending word it withdraws it instead, so two such puts can withdraw each other repeatedly while
 * they keep running side by side; either completes once it runs alone. When its guard's lease runs out,
 * an operation withdraws its pending word and starts over in a fresh guard (an outer guard of the caller
 * that ran out throws {@link LeaseExpiredException}, as in {@link io.remus.ds.object.RemoteRegister}), so
 * the reclaimer's lease must be longer than an operation's few round trips for the operation to finish.
 *
 * <p><b>Values</b> are 0 to {@link #maxValueBytes()} bytes, chosen at creation (at most {@code 65,464 - k}
 * and what the thread's buffer holds beside the map's scratch: {@code bufferSizePerThread - 528} for keys
 * of up to 8 bytes). Bad input is refused before any RDMA operation: a {@code null} key or value is a
 * {@link NullPointerException} naming the parameter; an empty key, a key longer than
 * {@link #maxKeyBytes()} or a value longer than {@link #maxValueBytes()} is a {@link BadArgumentException}
 * naming the length and the limit. {@link TypedRemoteHashMap} puts {@link Codec}s in front of the byte
 * strings. A table of {@code b} buckets holds at most {@code 8b} keys; a put that finds every slot of its key's
 * two combined buckets taken throws {@link MapFullException} (the table never resizes; see <b>Buckets</b> for
 * the load random keys reach first).
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root (with its handles and identity words in front) and the
 * zeroed table on a memory node and returns the creator's handle; others {@link #attach} with {@link #ptr()},
 * which refuses another kind's root ({@link WrongStructureException}) and a destroyed map
 * ({@link ClosedMapException}). Each handle needs its
 * thread's own reclaimer, and all handles of a map use reclaimers of one kind. The thread's registered
 * buffer is scratch during a call, from offset 0: {@code 512 + } the block bytes for keys of up to 8 bytes,
 * more for longer keys (room for 16 header-and-key READs of {@code 8 + k} bytes, see
 * {@link #create(ComputeThread, Reclaimer, int, int, int, int)}); a lookup that meets fingerprint twins READs
 * their blocks side by side behind the first, up to the buffer's end. One instance per compute thread, used by
 * its owner; {@link #close()} ends the handle's use, {@link #destroy()} marks the map destroyed (exactly once, whatever
 * the handles that try) and the last handle to close frees it, and a call on a closed or destroyed handle throws
 * {@link ClosedMapException}.
 */
public final class RemoteHashMap implements AutoCloseable {
    /** Slots per bucket. */
    public static final int SLOTS_PER_BUCKET = 8;
    /**
     * Fresh guards found invalid at once, in a row, before a restarting call gives up with
     * {@link LeaseExpiredException}: an outer guard whose lease ran out is invalid every time, while a
     * thread descheduled right after entering (longer than the lease) is not again and again.
     */
    private static final int STALE_ENTRIES = 3;
    /** Bytes of a bucket. */
    public static final int BUCKET_BYTES = SLOTS_PER_BUCKET * 8;
    /**
     * Bytes of the root, from the map's pointer on; its block holds the identity word in front of it
     * ({@link StructureIdentity#blockBytes}).
     */
    public static final int ROOT_BYTES = 24;
    /** Bytes of a key-value block's header word (key length and value length). */
    public static final int HEADER_BYTES = 8;
    /** Bytes in front of the value in the block of an 8-byte key (a {@code long} key): header and key. */
    public static final int BLOCK_HEADER_BYTES = 16;
    /** Bytes of a {@code long} key: its 8 little-endian bytes. */
    public static final int LONG_KEY_BYTES = 8;
    /** Most bytes a map's keys can be configured to take. */
    public static final int MAX_KEY_BYTES = 1024;
    /** Most buckets a table can have (the table is one allocation). */
    public static final int MAX_BUCKETS = (int) (SizeClasses.MAX / BUCKET_BYTES);

    /** Most candidate slots of a key: two combined buckets of two buckets each. */
    private static final int MAX_CANDIDATES = 4 * SLOTS_PER_BUCKET;
    /** Header-and-key READs that {@link #keyMatches} places in the buffer at once. */
    private static final int KEY_READS = 2 * SLOTS_PER_BUCKET;
    private static final long ROOT_BUCKETS = 0;
    /** The root's second word: the largest value in bytes (low 32 bits) and the longest key (high 32 bits). */
    private static final long ROOT_LIMITS = 8;
    private static final long ROOT_TABLE = 16;
    /** Where in the thread's buffer the READ of the first combined bucket lands; the second's follows it. */
    private static final long FIRST = 0;
    /**
     * Where the header-and-key READs of {@link #keyMatches} land: over the end of the second combined
     * bucket's bytes, which {@link #loadView} has copied out before any such READ is posted.
     */
    private static final long KEYS = 192;
    /**
     * Where the claim's compare-and-swap result lands: behind both combined buckets, among the bytes of key
     * READs, which come only after the result is read.
     */
    private static final long RESULT = 4L * BUCKET_BYTES;
    /**
     * Where the READ of the root's handles word lands in a call's first batch: behind both combined
     * buckets (the claim's result comes only in later batches).
     */
    private static final long HEADER = RESULT;
    private static final long MIN_BLOCK = 512;
    private static final int MIN_BATCH = 4;
    /** The destination of a lookup that copies the value nowhere. */
    private static final MemorySegment NOWHERE = MemorySegment.ofArray(new byte[0]);
    /** An attempt's answer ({@link ViewAttempt}): the guard's lease ran out; the call goes on in a fresh guard. */
    private static final long AGAIN = Long.MIN_VALUE;

    /** One attempt of a get or a remove of the current key, in one guard, the view of its buckets read. */
    @FunctionalInterface
    private interface ViewAttempt {
        /** {@return the call's answer, or {@link #AGAIN} when the guard's lease ran out} */
        long attempt(Guard g);
    }

    private final ComputeThread thread;
    private final Reclaimer reclaimer;
    private final StructureIdentity identity;
    private final long root;
    private final long table;
    private final int home;
    private final int buckets;
    private final int maxValue;
    private final int maxKey;
    /** Buckets of a combined bucket: {@link Slot#width}. */
    private final int width;
    /** Slots of a combined bucket; the first combined bucket's are the key's slots 0..half-1. */
    private final int half;
    /** The key's slots: both combined buckets'. */
    private final int candidates;
    /** Bytes of a combined bucket, READ at once; the second one's READ lands here in the buffer. */
    private final int combinedBytes;
    /** Offset in the thread's buffer of the block a lookup READs or a put WRITEs. */
    private final long blockAt;
    /** Bytes of buffer per candidate slot for the READ of a block's header and key. */
    private final int keyStride;
    /** The current call's key, zero-padded to whole words ({@link #keyLength} bytes). */
    private final MemorySegment key;
    private int keyLength;
    /** Whether the current call came through the {@code long} API (for messages). */
    private boolean keyIsLong;
    private static final int COMMIT = -1;
    private static final int WITHDRAW = -2;
    private static final int LEASE_RAN_OUT = -3;

    private final long[] view = new long[MAX_CANDIDATES];
    /**
     * The view before a lookup's re-read that confirms it. A READ racing a compare-and-swap of the same
     * word can return it torn on some providers (Soft-RoCE's responder copies bytes while the atomic
     * stores the word), so a lookup that finds a slot with the key's fingerprint whose block holds another
     * key, or a length out of range, trusts that only once two reads of the buckets agree: a torn word is
     * not read twice alike.
     */
    private final long[] confirmed = new long[MAX_CANDIDATES];
    /** Set by {@link #readBlocks}: where in the buffer each slot's block was READ, or -1 when it was not. */
    private final long[] readAt = new long[MAX_CANDIDATES];
    /** Set by {@link #keyMatches}: a slot of the view with the key's fingerprint may have been read torn. */
    private boolean suspectView;
    /** Set by {@link #keyMatches}: the last such slot word that points outside the home node's segments, or 0. */
    private long suspectWord;
    /** Set by {@link #keyMatches}: the slot of {@link #suspectWord}. */
    private int suspectSlot;
    private long lastYield;
    /** The current get's or remove's guards in a row found invalid as it started over ({@link #readView}). */
    private int staleGuards;
    /** The current key's fingerprint, for a get's or a remove's attempts. */
    private int fingerprint;
    /** Where the current get copies its value (see {@link #lookup}); null between calls. */
    private MemorySegment lookupDestination;
    private final ViewAttempt lookupAttempt = this::tryLookup;
    private final ViewAttempt deleteAttempt = this::tryDelete;
    private long firstBucket;
    private long secondBucket;
    private long allocatorRoundTrips;
    private long withdrawnClaims;
    private byte[] found;

    private RemoteHashMap(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, long table, int buckets,
                          int maxKey, int maxValue) {
        this.thread = thread;
        this.reclaimer = reclaimer;
        this.identity = identity;
        this.root = identity.ptr();
        this.table = table;
        this.home = RemotePtr.node(root);
        this.buckets = buckets;
        this.maxKey = maxKey;
        this.maxValue = maxValue;
        this.width = Slot.width(buckets);
        this.half = width * SLOTS_PER_BUCKET;
        this.candidates = 2 * half;
        this.combinedBytes = width * BUCKET_BYTES;
        this.keyStride = HEADER_BYTES + pad8(maxKey);
        this.blockAt = blockAt(maxKey);
        this.key = MemorySegment.ofArray(new byte[pad8(Math.max(maxKey, LONG_KEY_BYTES))]);
    }

    private static int pad8(int n) {
        return (n + 7) & ~7;
    }

    /** {@return where in the buffer the block goes, behind the combined buckets, the CAS result and 16 key READs} */
    private static long blockAt(int maxKey) {
        return Math.max(MIN_BLOCK, (KEYS + KEY_READS * (long) (HEADER_BYTES + pad8(maxKey)) + 63) & ~63L);
    }

    /** {@return the buffer bytes a call uses as scratch besides the value} */
    private static long scratchBytes(int maxKey) {
        return blockAt(maxKey) + HEADER_BYTES + pad8(maxKey);
    }

    /**
     * Allocates a map whose keys are 1..{@value #LONG_KEY_BYTES} bytes ({@code long} keys, and byte keys
     * that short) on memory node {@code nodeId}: {@link #create(ComputeThread, Reclaimer, int, int, int, int)}
     * with {@code maxKeyBytes} 8.
     *
     * @param thread        the creator's compute thread
     * @param reclaimer     the creator's reclaimer (its thread's)
     * @param nodeId        a memory node: the table and every key-value block live there
     * @param buckets       buckets of the table, 2..{@value #MAX_BUCKETS}; it holds at most {@code 8 * buckets} keys
     * @param maxValueBytes the largest value a put accepts, 0..65,456 and at most {@code bufferSizePerThread - 528}
     * @return the creator's handle
     * @throws BadArgumentException when a count is out of range, or the thread's doorbell batches hold
     *                              fewer than 4 work requests
     */
    public static RemoteHashMap create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int buckets, int maxValueBytes) {
        return create(thread, reclaimer, nodeId, buckets, LONG_KEY_BYTES, maxValueBytes);
    }

    /**
     * Allocates a map on memory node {@code nodeId}: its table (zeroed with WRITEs of at most the thread's
     * buffer each) and its root, with the root's identity word (a CPU load and store on the creator's own node,
     * else 1 READ and 1 WRITE) and one WRITE of the root.
     *
     * @param thread        the creator's compute thread
     * @param reclaimer     the creator's reclaimer (its thread's)
     * @param nodeId        a memory node: the table and every key-value block live there
     * @param buckets       buckets of the table, 2..{@value #MAX_BUCKETS}; it holds at most {@code 8 * buckets} keys
     * @param maxKeyBytes   the longest key a call accepts, 1..{@value #MAX_KEY_BYTES}; the thread's buffer
     *                      must hold the scratch this takes (about {@code 200 + 16 * (8 + maxKeyBytes)} bytes)
     * @param maxValueBytes the largest value a put accepts, 0..{@code 65,464 - maxKeyBytes} (key rounded up to
     *                      8 bytes) and what the thread's buffer holds beside the scratch
     * @return the creator's handle
     * @throws BadArgumentException when a count is out of range, naming it and its limits, or the thread's
     *                              doorbell batches hold fewer than 4 work requests
     */
    public static RemoteHashMap create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int buckets, int maxKeyBytes,
                                       int maxValueBytes) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        if (buckets < 2 || buckets > MAX_BUCKETS) {
            throw new BadArgumentException("a map needs 2.." + MAX_BUCKETS + " buckets, got " + buckets);
        }
        checkLimits(thread, maxKeyBytes, maxValueBytes);
        long tableBytes = (long) buckets * BUCKET_BYTES;
        long t = thread.allocator().allocate(tableBytes, nodeId);
        int chunk = (int) Math.min(tableBytes, thread.config().bufferSizePerThread() & ~63);
        thread.buffer().asSlice(0, chunk).fill((byte) 0);
        for (long done = 0; done < tableBytes; done += chunk) {
            thread.write(RemotePtr.offset(t, done), 0, (int) Math.min(chunk, tableBytes - done));
        }
        StructureIdentity identity = StructureIdentity.allocate(thread, StructureKind.REMOTE_HASH_MAP, ROOT_BYTES, nodeId,
                ClosedMapException::new);
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, ROOT_BUCKETS, buckets);
        buf.set(ValueLayout.JAVA_LONG, ROOT_LIMITS, ((long) maxKeyBytes << 32) | maxValueBytes);
        buf.set(ValueLayout.JAVA_LONG, ROOT_TABLE, t);
        thread.write(identity.ptr(), 0, ROOT_BYTES);
        return new RemoteHashMap(thread, reclaimer, identity, t, buckets, maxKeyBytes, maxValueBytes);
    }

    /**
     * A handle on a map another thread created: one READ of the root, with the block header, the handles word and
     * the identity word in front of it (48 bytes), and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}).
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's)
     * @param ptr       what {@link #ptr()} returned
     * @return the handle
     * @throws WrongStructureException  when the pointer is another kind of structure's root, or no structure's
     * @throws ClosedMapException       when the map there was destroyed
     * @throws BadArgumentException     when the pointer is null or misaligned, or the longest key and the
     *                                  largest value do not fit this thread's buffer
     * @throws CorruptedMemoryException when the root's words hold no map
     */
    public static RemoteHashMap attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        long[] words = new long[ROOT_BYTES / 8];
        StructureIdentity identity = StructureIdentity.attach(thread, StructureKind.REMOTE_HASH_MAP, ptr,
                MemorySegment.ofArray(words), ClosedMapException::new, copy -> {
                    long b = copy.getAtIndex(ValueLayout.JAVA_LONG, ROOT_BUCKETS / 8);
                    long limits = copy.getAtIndex(ValueLayout.JAVA_LONG, ROOT_LIMITS / 8);
                    long max = limits & 0xFFFF_FFFFL;
                    long maxKey = limits >>> 32;
                    long t = copy.getAtIndex(ValueLayout.JAVA_LONG, ROOT_TABLE / 8);
                    if (b < 2 || b > MAX_BUCKETS || max > Integer.MAX_VALUE || maxKey < 1 || maxKey > MAX_KEY_BYTES
                            || RemotePtr.node(t) != RemotePtr.node(ptr)) {
                        throw new CorruptedMemoryException(ptr, b, "no map root at " + RemotePtr.toString(ptr) + ": buckets "
                                + b + ", largest value " + max + ", longest key " + maxKey + ", table " + RemotePtr.toString(t));
                    }
                    checkLimits(thread, (int) maxKey, (int) max);
                });
        long b = words[(int) (ROOT_BUCKETS / 8)];
        long limits = words[(int) (ROOT_LIMITS / 8)];
        long max = limits & 0xFFFF_FFFFL;
        long maxKey = limits >>> 32;
        long t = words[(int) (ROOT_TABLE / 8)];
        return new RemoteHashMap(thread, reclaimer, identity, t, (int) b, (int) maxKey, (int) max);
    }

    private static void checkLimits(ComputeThread thread, int maxKeyBytes, int maxValueBytes) {
        if (maxKeyBytes < 1 || maxKeyBytes > MAX_KEY_BYTES) {
            throw new BadArgumentException("the longest key must be 1.." + MAX_KEY_BYTES + " bytes, got " + maxKeyBytes);
        }
        int bufferBytes = thread.config().bufferSizePerThread();
        long scratch = scratchBytes(maxKeyBytes);
        if (scratch > bufferBytes) {
            throw new BadArgumentException("keys of up to " + maxKeyBytes + " bytes need " + scratch
                    + " bytes of scratch in the thread's buffer, which has " + bufferBytes);
        }
        long byFormat = (long) Slot.MAX_UNITS * Slot.UNIT - HEADER_BYTES - pad8(maxKeyBytes);
        long byBuffer = bufferBytes - scratch;
        long limit = Math.min(byFormat, byBuffer);
        if (maxValueBytes < 0 || maxValueBytes > limit) {
            throw new BadArgumentException("the largest value must be 0.." + limit + " bytes (slot format "
                    + byFormat + ", this thread's buffer " + byBuffer + "), got " + maxValueBytes);
        }
        if (thread.config().wrsPerBatch() < MIN_BATCH) {
            throw new BadArgumentException("a map needs doorbell batches of at least " + MIN_BATCH
                    + " work requests, the thread's hold " + thread.config().wrsPerBatch());
        }
    }

    /** {@return the map's root, to hand to {@link #attach}} */
    public long ptr() {
        return root;
    }

    /** {@return the longest key a call accepts, in bytes} */
    public int maxKeyBytes() {
        return maxKey;
    }

    /** {@return the largest value a put accepts, in bytes} */
    public int maxValueBytes() {
        return maxValue;
    }

    /** {@return the most keys the table can hold ({@value #SLOTS_PER_BUCKET} per bucket)} */
    public int capacity() {
        return buckets * SLOTS_PER_BUCKET;
    }

    /**
     * Round trips this handle's puts spent in the allocator, so that tests and benchmarks can tell the
     * map's own cost from the allocator's.
     *
     * @return the count
     */
    public long allocatorRoundTrips() {
        return allocatorRoundTrips;
    }

    /**
     * Pending claims of this handle's puts that did not commit (withdrawn by the put itself, or by a
     * concurrent insert of the same key): how often the duplicate resolution acted, for tests and profiles.
     *
     * @return the count
     */
    public long withdrawnClaims() {
        return withdrawnClaims;
    }

    // ---------------------------------------------------------------- keys

    /**
     * Takes a {@code long} key for the current call: its 8 little-endian bytes.
     *
     * @return the key's digest
     */
    private long loadKey(long k) {
        requireOpen();
        if (maxKey < LONG_KEY_BYTES) {
            throw new BadArgumentException("a long key is " + LONG_KEY_BYTES + " bytes, longer than this map's longest key, "
                    + maxKey + " bytes");
        }
        key.set(Slot.LONG_LE, 0, k);
        keyLength = LONG_KEY_BYTES;
        keyIsLong = true;
        return k;
    }

    /**
     * Takes a byte-string key for the current call, copied into {@link #key} and zero-padded.
     *
     * @return the key's digest
     */
    private long loadKey(MemorySegment k) {
        requireOpen();
        long n = k.byteSize();
        if (n < 1 || n > maxKey) {
            throw new BadArgumentException("a key of " + n + " bytes; this map's keys are 1.." + maxKey + " bytes");
        }
        MemorySegment.copy(k, 0, key, 0, n);
        return loaded((int) n);
    }

    /** {@link #loadKey(MemorySegment)} from an array. */
    private long loadKey(byte[] k) {
        Objects.requireNonNull(k, "key");
        requireOpen();
        if (k.length < 1 || k.length > maxKey) {
            throw new BadArgumentException("a key of " + k.length + " bytes; this map's keys are 1.." + maxKey + " bytes");
        }
        MemorySegment.copy(k, 0, key, ValueLayout.JAVA_BYTE, 0, k.length);
        return loaded(k.length);
    }

    private long loaded(int n) {
        key.asSlice(n, pad8(n) - n).fill((byte) 0);
        keyLength = n;
        keyIsLong = false;
        return Slot.digest(key, n);
    }

    /** {@return the current key for a message: the {@code long}, or its bytes in hex and its length} */
    private String describeKey() {
        if (keyIsLong) {
            return "key " + key.get(Slot.LONG_LE, 0);
        }
        StringBuilder b = new StringBuilder("key 0x");
        int shown = Math.min(keyLength, 32);
        for (int i = 0; i < shown; i++) {
            b.append(String.format("%02x", key.get(ValueLayout.JAVA_BYTE, i)));
        }
        return b.append(shown < keyLength ? "..." : "").append(" (").append(keyLength).append(" bytes)").toString();
    }

    /** {@return a copy of the current key's bytes} */
    private byte[] keyCopy() {
        return key.asSlice(0, keyLength).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * Whether the buffer at {@code at} holds a block header and key bytes of the current key, within
     * {@code bytes} bytes: the key length in the header and then every byte of the key.
     */
    private boolean holdsKey(long at, long bytes) {
        if (bytes < HEADER_BYTES + pad8(keyLength)) {
            return false;
        }
        MemorySegment buf = thread.buffer();
        long header = buf.get(ValueLayout.JAVA_LONG, at);
        return (header >>> 32) == keyLength
                && MemorySegment.mismatch(key, 0, keyLength, buf, at + HEADER_BYTES, at + HEADER_BYTES + keyLength) == -1;
    }

    // ---------------------------------------------------------------- lookup

    /**
     * Reads the value of {@code key} into {@code destination} (see the class for the cost: 2 round
     * trips expected). Wait-free while the thread's guard holds its lease; never torn. Linearizes at the
     * READ of the slot it returns, or, when absent, at a moment of its bucket READs.
     *
     * @param key         any key: its 8 little-endian bytes (the map's keys must be allowed 8 bytes)
     * @param destination where the value goes, at least its length
     * @return the value's length, or -1 when the key is absent
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed, the map's keys are shorter than 8 bytes, or the
     *                               value is longer than {@code destination}
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public long get(long key, MemorySegment destination) {
        Objects.requireNonNull(destination, "destination");
        return lookup(loadKey(key), destination);
    }

    /**
     * {@link #get(long, MemorySegment)} with a byte-string key: the same algorithm, cost and progress.
     *
     * @param key         1..{@link #maxKeyBytes()} bytes
     * @param destination where the value goes, at least its length
     * @return the value's length, or -1 when the key is absent
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed, the key's length is out of range (naming it
     *                               and the limit), or the value is longer than {@code destination}
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public long get(MemorySegment key, MemorySegment destination) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(destination, "destination");
        return lookup(loadKey(key), destination);
    }

    /**
     * {@link #get(long, MemorySegment)} into a new array.
     *
     * @param key any key
     * @return the value, or {@code null} when the key is absent
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed
     */
    public byte[] get(long key) {
        return lookupArray(loadKey(key));
    }

    /**
     * {@link #get(MemorySegment, MemorySegment)} into a new array.
     *
     * @param key 1..{@link #maxKeyBytes()} bytes
     * @return the value, or {@code null} when the key is absent
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed or the key's length is out of range
     */
    public byte[] get(byte[] key) {
        return lookupArray(loadKey(key));
    }

    /**
     * Tells whether a {@code long} key is present.
     *
     * @param key any key
     * @return whether the key is present (a {@link #get} that keeps the value in the thread's buffer)
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed
     */
    public boolean containsKey(long key) {
        return lookup(loadKey(key), NOWHERE) >= 0;
    }

    /**
     * Tells whether a key of bytes is present.
     *
     * @param key 1..{@link #maxKeyBytes()} bytes
     * @return whether the key is present (a {@link #get} that keeps the value in the thread's buffer)
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed or the key's length is out of range
     */
    public boolean containsKey(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        return lookup(loadKey(key), NOWHERE) >= 0;
    }

    /**
     * Tells whether a key of bytes is present.
     *
     * @param key 1..{@link #maxKeyBytes()} bytes
     * @return whether the key is present (a {@link #get} that keeps the value in the thread's buffer)
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed or the key's length is out of range
     */
    public boolean containsKey(byte[] key) {
        return lookup(loadKey(key), NOWHERE) >= 0;
    }

    private byte[] lookupArray(long digest) {
        if (lookup(digest, null) < 0) {
            return null;
        }
        byte[] value = found;
        found = null;
        return value;
    }

    /**
     * Finds the current key and copies its value, inside the guard, into {@code destination}
     * ({@link #NOWHERE}: nowhere) or, when it is {@code null}, into a new array left in {@link #found}.
     *
     * @return the value's length, or -1 when absent
     */
    private long lookup(long digest, MemorySegment destination) {
        lookupDestination = destination;
        try {
            return inGuards(digest, lookupAttempt);
        } finally {
            lookupDestination = null;
        }
    }

    /** One attempt of {@link #lookup} in guard {@code g}, the view read: the value's length, -1, or {@link #AGAIN}. */
    private long tryLookup(Guard g) {
        int fp = fingerprint;
        MemorySegment buf = thread.buffer();
        long keyBytes = HEADER_BYTES + pad8(keyLength);
        long n;
        long valueAt = 0;
        while (true) {
            n = -1;
            boolean suspect = false;
            long badWord = 0;
            int badSlot = -1;
            long badLength = 0;
            for (int from = 0, to; from < candidates && n < 0; from = to) {
                to = readBlocks(fp, from);
                for (int i = from; i < to && n < 0; i++) {
                    long w = view[i];
                    if (!committedWith(w, fp)) {
                        continue;
                    }
                    int bytes = Slot.blockBytes(w);
                    long at = readAt[i];
                    if (at < 0) {
                        suspect = true;
                        badWord = w;
                        badSlot = i;
                        continue;
                    }
                    if (!holdsKey(at, bytes)) {
                        suspect = true;
                        continue;
                    }
                    long length = buf.get(ValueLayout.JAVA_LONG, at) & 0xFFFF_FFFFL;
                    if (length > bytes - keyBytes) {
                        suspect = true;
                        badWord = w;
                        badSlot = i;
                        badLength = length;
                        continue;
                    }
                    n = length;
                    valueAt = at + keyBytes;
                }
            }
            if (n >= 0 || !suspect || !g.valid()) {
                break;
            }
            if (stableAfterReRead() && g.valid()) {
                if (badWord != 0) {
                    if (!holdsWhole(badSlot, badWord)) {
                        readBuckets();
                        continue;
                    }
                    throw corrupted(badWord, badLength);
                }
                break;
            }
        }
        if (!g.valid()) {
            return AGAIN;
        }
        if (n >= 0) {
            copyOut(valueAt, n, lookupDestination);
        }
        return n;
    }

    /**
     * Runs {@code attempt} for the current key (its digest {@code digest}), each try in its own guard of the
     * reclaimer with the view of the key's buckets read first ({@link #readView}), until it answers other than
     * {@link #AGAIN}: how a get and a remove start over when the guard's lease ran out.
     */
    private long inGuards(long digest, ViewAttempt attempt) {
        fingerprint = Slot.fingerprintOf(digest);
        buckets(digest);
        boolean again = false;
        staleGuards = 0;
        while (true) {
            try (Guard g = reclaimer.enter()) {
                if (!readView(g, again)) {
                    continue;
                }
                long r = attempt.attempt(g);
                if (r != AGAIN) {
                    return r;
                }
            }
            again = true;
        }
    }

    /**
     * READs the blocks that the committed slots of the view from slot {@code from} on with the key's
     * fingerprint point to, each into its own place in the buffer from {@link #blockAt} ({@link #readAt}),
     * as many as fit the buffer and one doorbell batch (the first always): one READ when one block is
     * due, one batch of READs when fingerprint twins are too, so a lookup takes its 2 round trips with them.
     * A slot whose block lies outside the home node's segments gets no READ: its {@link #readAt} is -1.
     *
     * @return the slot after the last one looked at
     */
    private int readBlocks(int fp, int from) {
        long end = thread.config().bufferSizePerThread();
        int capacity = thread.config().wrsPerBatch();
        long at = blockAt;
        int count = 0;
        int last = -1;
        int i = from;
        for (; i < candidates; i++) {
            long w = view[i];
            if (!committedWith(w, fp)) {
                continue;
            }
            int bytes = Slot.blockBytes(w);
            if (!thread.isPublished(Slot.block(w, home), bytes)) {
                readAt[i] = -1;
                continue;
            }
            if (count > 0 && (at + bytes > end || count == capacity)) {
                break;
            }
            readAt[i] = at;
            at += bytes;
            count++;
            last = i;
        }
        if (count == 1) {
            thread.read(Slot.block(view[last], home), readAt[last], Slot.blockBytes(view[last]));
        } else if (count > 1) {
            DoorbellBatch batch = thread.batch();
            for (int j = from; j < i; j++) {
                if (committedWith(view[j], fp) && readAt[j] >= 0) {
                    batch.read(Slot.block(view[j], home), readAt[j], Slot.blockBytes(view[j]));
                }
            }
            batch.execute();
        }
        return i;
    }

    /** {@return whether slot word {@code w} is committed and carries fingerprint {@code fp}} */
    private static boolean committedWith(long w, int fp) {
        return w != 0 && !Slot.isPending(w) && Slot.fingerprint(w) == fp;
    }

    /**
     * A slot word read whole (by {@link #holdsWhole}) that points outside the home node's segments, or to
     * a block of the key whose length does not fit it.
     */
    private CorruptedMemoryException corrupted(long word, long length) {
        long block = Slot.block(word, home);
        if (!thread.isPublished(block, Slot.blockBytes(word))) {
            return new CorruptedMemoryException(firstBucket, word, "a slot of " + describeKey() + "'s buckets holds 0x"
                    + Long.toHexString(word) + ", a block of " + Slot.blockBytes(word) + " bytes at " + RemotePtr.toString(block)
                    + " outside every segment of node " + home);
        }
        return new CorruptedMemoryException(block, length, "the block of " + describeKey() + " at "
                + RemotePtr.toString(block) + " says its value has " + length + " bytes");
    }

    /**
     * Whether slot {@code i} holds {@code word} now, read by a fetch-and-add of 0 (1 NIC atomic, 1 round
     * trip): an atomic read, never torn. Two equal READs do not prove a word whole:
     * a slot that puts claim and withdraw again and again goes back and forth between empty and one pending
     * word, and two READs racing those compare-and-swaps can tear alike.
     */
    private boolean holdsWhole(int i, long word) {
        return thread.fetchAndAdd(slot(i), 0) == word;
    }

    /** Re-reads the buckets: whether they are as before (the view is the new one either way). */
    private boolean stableAfterReRead() {
        System.arraycopy(view, 0, confirmed, 0, candidates);
        readBuckets();
        return Arrays.equals(confirmed, 0, candidates, view, 0, candidates);
    }

    private void copyOut(long valueAt, long n, MemorySegment destination) {
        if (destination == null) {
            found = new byte[(int) n];
            MemorySegment.copy(thread.buffer(), valueAt, MemorySegment.ofArray(found), 0, n);
        } else if (destination != NOWHERE) {
            if (n > destination.byteSize()) {
                throw new BadArgumentException("the value of " + describeKey() + " has " + n + " bytes, the destination only "
                        + destination.byteSize());
            }
            MemorySegment.copy(thread.buffer(), valueAt, destination, 0, n);
        }
    }

    // ---------------------------------------------------------------- update

    /**
     * Maps {@code key} to {@code value}, out of place (see the class for the algorithm and its cost: 3
     * round trips expected, besides the allocation). Lock-free (obstruction-free between concurrent first
     * inserts of one key); linearizes at the compare-and-swap that publishes its slot word.
     *
     * @param key   any key: its 8 little-endian bytes (the map's keys must be allowed 8 bytes)
     * @param value 0..{@link #maxValueBytes()} bytes
     * @return true when the key was absent (inserted), false when its value was replaced
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed, the map's keys are shorter than 8 bytes, or the
     *                               value is larger than {@link #maxValueBytes()}
     * @throws MapFullException      when the key is absent and every slot of its two combined buckets is taken
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean put(long key, MemorySegment value) {
        Objects.requireNonNull(value, "value");
        return insert(loadKey(key), value);
    }

    /**
     * {@link #put(long, MemorySegment)} with a byte-string key: the same algorithm, cost and progress; the
     * block WRITE carries the key's bytes, rounded up to 8.
     *
     * @param key   1..{@link #maxKeyBytes()} bytes
     * @param value 0..{@link #maxValueBytes()} bytes
     * @return true when the key was absent (inserted), false when its value was replaced
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed, or the key's or the value's length is out of
     *                               range (naming it and the limit)
     * @throws MapFullException      when the key is absent and every slot of its two combined buckets is taken
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean put(MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return insert(loadKey(key), value);
    }

    /**
     * {@link #put(MemorySegment, MemorySegment)} with arrays.
     *
     * @param key   1..{@link #maxKeyBytes()} bytes
     * @param value 0..{@link #maxValueBytes()} bytes
     * @return true when the key was absent (inserted), false when its value was replaced
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed, or the key's or the value's length is out of range
     * @throws MapFullException     when the key is absent and every slot of its two combined buckets is taken
     */
    public boolean put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        MemorySegment v = MemorySegment.ofArray(Objects.requireNonNull(value, "value"));
        return insert(loadKey(key), v);
    }

    /** The put of the current key (loaded, its digest {@code digest}). */
    private boolean insert(long digest, MemorySegment value) {
        long n = value.byteSize();
        if (n > maxValue) {
            throw new BadArgumentException("a value of " + n + " bytes is larger than this map's largest, " + maxValue + " bytes");
        }
        int fp = Slot.fingerprintOf(digest);
        buckets(digest);
        long valueOffset = HEADER_BYTES + pad8(keyLength);
        int units = Slot.unitsFor(valueOffset + n);
        int blockBytes = units * Slot.UNIT;
        long block = allocate(blockBytes);
        long committed = Slot.committed(fp, units, block);
        long pending = committed | Slot.PENDING;
        MemorySegment buf = thread.buffer();
        buf.set(ValueLayout.JAVA_LONG, blockAt, ((long) keyLength << 32) | n);
        MemorySegment.copy(key, 0, buf, blockAt + HEADER_BYTES, pad8(keyLength));
        MemorySegment.copy(value, 0, buf, blockAt + valueOffset, n);
        boolean written = false;
        boolean again = false;
        int staleEntries = 0;
        lastYield = 0;
        while (true) {
            try (Guard g = reclaimer.enter()) {
                if (again && !g.valid()) {
                    if (++staleEntries >= STALE_ENTRIES) {
                        checkOuter(g, block, blockBytes);
                    }
                    continue;
                }
                if (written) {
                    readBuckets();
                } else {
                    thread.batch().write(block, blockAt, (int) (valueOffset + n))
                            .read(firstBucket, FIRST, combinedBytes).read(secondBucket, combinedBytes, combinedBytes)
                            .read(identity.headerAddress(), HEADER, 8).execute();
                    checkHeader(block, blockBytes);
                    loadView();
                    written = true;
                }
                while (g.valid()) {
                    int s = committedSlotOf(fp);
                    if (!g.valid()) {
                        break;
                    }
                    if (s >= 0) {
                        long w = view[s];
                        if (thread.compareAndSwap(slot(s), w, committed) == w) {
                            reclaimer.retire(Slot.block(w, home), Slot.blockBytes(w));
                            return false;
                        }
                        readBuckets();
                        continue;
                    }
                    int e = placement();
                    if (e < 0) {
                        reclaimer.retire(block, blockBytes);
                        throw new MapFullException(keyCopy(), "both combined buckets of " + describeKey() + " are full (buckets "
                                + bucketRange(Slot.firstBucket(digest, buckets)) + " and "
                                + bucketRange(Slot.secondBucket(digest, buckets)) + " of " + buckets + ")");
                    }
                    DoorbellBatch claim = thread.batch().compareAndSwap(slot(e), 0, pending, RESULT);
                    if (e < half) {
                        claim.read(firstBucket, FIRST, combinedBytes).read(secondBucket, combinedBytes, combinedBytes);
                    } else {
                        claim.read(secondBucket, combinedBytes, combinedBytes).read(firstBucket, FIRST, combinedBytes);
                    }
                    claim.execute();
                    long claimed = buf.get(ValueLayout.JAVA_LONG, RESULT);
                    loadView();
                    if (claimed != 0) {
                        continue;
                    }
                    if (!reReadAfterClaim(e, pending)) {
                        withdrawnClaims++;
                        continue;
                    }
                    int decision = resolve(fp, e, g);
                    if (decision == COMMIT) {
                        if (thread.compareAndSwap(slot(e), pending, committed) == pending) {
                            return true;
                        }
                        withdrawnClaims++;
                        readBuckets();
                        continue;
                    }
                    thread.compareAndSwap(slot(e), pending, 0);
                    withdrawnClaims++;
                    if (decision == LEASE_RAN_OUT) {
                        break;
                    }
                    readBuckets();
                }
            }
            again = true;
        }
    }

    /**
     * {@link #put(long, MemorySegment)} with a byte array.
     *
     * @param key   any key
     * @param value 0..{@link #maxValueBytes()} bytes
     * @return true when the key was absent (inserted), false when its value was replaced
     */
    public boolean put(long key, byte[] value) {
        return put(key, MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * A put's guard found invalid as it starts over, {@value #STALE_ENTRIES} times in a row: an outer
     * guard, whose lease never comes back; its block, maybe seen by others, is retired.
     */
    private void checkOuter(Guard g, long block, int blockBytes) {
        if (!g.valid()) {
            reclaimer.retire(block, blockBytes);
            g.check();
        }
    }

    /**
     * After this put's pending word went into slot {@code e}: what the re-read shows about other slots
     * holding the key.
     *
     * @return {@link #COMMIT}; {@link #WITHDRAW} (a committed slot holds the key, or a pending slot of the
     *         key that this put set out to withdraw holds a committed word by then, its owner's commit or a
     *         later one, or the view was suspect and a re-read differed); {@link #LEASE_RAN_OUT}; or the index
     *         of an earlier pending slot of the key this put yields to
     */
    private int resolve(int fp, int e, Guard g) {
        int matches = keyMatches(fp, e);
        if (!g.valid()) {
            return LEASE_RAN_OUT;
        }
        if (suspectView) {
            long bad = suspectWord;
            int badSlot = suspectSlot;
            if (!stableAfterReRead() || bad != 0 && !holdsWhole(badSlot, bad)) {
                return WITHDRAW;
            }
            if (bad != 0) {
                thread.compareAndSwap(slot(e), view[e], 0);
                throw corrupted(bad, 0);
            }
        }
        for (int i = 0; i < candidates; i++) {
            if ((matches & (1 << i)) != 0 && !Slot.isPending(view[i])) {
                return WITHDRAW;
            }
        }
        for (int i = 0; i < candidates; i++) {
            if ((matches & (1 << i)) == 0) {
                continue;
            }
            long w = view[i];
            if (i < e && w != lastYield) {
                lastYield = w;
                return i;
            }
            long old = thread.compareAndSwap(slot(i), w, 0);
            if (old != w && old != 0 && !Slot.isPending(old)) {
                return WITHDRAW;
            }
        }
        lastYield = 0;
        return COMMIT;
    }

    /**
     * Checks that the READs batched behind the claim of slot {@code e} show the claim (the READ of its
     * bucket is the first of them); one that does not (the slot changed since, or the READ ran before the
     * compare-and-swap) is told apart by one more READ of the slot, and a claim still in place is followed
     * by a fresh READ of both combined buckets.
     *
     * @return whether the view is fresh and holds the pending word in slot {@code e}
     */
    private boolean reReadAfterClaim(int e, long pending) {
        if (view[e] == pending) {
            return true;
        }
        if (thread.read(slot(e)) != pending) {
            return false;
        }
        readBuckets();
        return view[e] == pending;
    }

    // ---------------------------------------------------------------- remove

    /**
     * Removes {@code key} (see the class for the cost: 3 round trips expected when present, 1 when
     * absent); its block is retired. Lock-free; linearizes at the compare-and-swap that empties the slot,
     * or, when absent, at a moment of its bucket READs.
     *
     * @param key any key: its 8 little-endian bytes (the map's keys must be allowed 8 bytes)
     * @return whether the key was present
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed or the map's keys are shorter than 8 bytes
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean remove(long key) {
        return delete(loadKey(key));
    }

    /**
     * {@link #remove(long)} with a byte-string key: the same algorithm, cost and progress.
     *
     * @param key 1..{@link #maxKeyBytes()} bytes
     * @return whether the key was present
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException  when the handle is closed or the key's length is out of range
     * @throws LeaseExpiredException when called inside an outer guard whose lease ran out
     */
    public boolean remove(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        return delete(loadKey(key));
    }

    /**
     * {@link #remove(MemorySegment)} with an array.
     *
     * @param key 1..{@link #maxKeyBytes()} bytes
     * @return whether the key was present
     * @throws ClosedMapException   when the handle is closed, or the map was destroyed (through any handle) before the call
     * @throws BadArgumentException when the handle is closed or the key's length is out of range
     */
    public boolean remove(byte[] key) {
        return delete(loadKey(key));
    }

    private boolean delete(long digest) {
        return inGuards(digest, deleteAttempt) != 0;
    }

    /** One attempt of {@link #delete} in guard {@code g}, the view read: 1 (removed), 0 (absent) or {@link #AGAIN}. */
    private long tryDelete(Guard g) {
        while (true) {
            int s = committedSlotOf(fingerprint);
            if (!g.valid()) {
                return AGAIN;
            }
            if (s < 0) {
                return 0;
            }
            long w = view[s];
            if (thread.compareAndSwap(slot(s), w, 0) == w) {
                reclaimer.retire(Slot.block(w, home), Slot.blockBytes(w));
                return 1;
            }
            readBuckets();
        }
    }

    // ---------------------------------------------------------------- lifecycle

    /**
     * Ends this handle's use; later calls throw {@link ClosedMapException}. Idempotent. Drops the handle from the
     * map's root (one fetch-and-add, {@link StructureIdentity#close}): the map stays, unless it was destroyed and
     * this was its last open handle; then this frees it, as {@link #destroy()} describes.
     */
    @Override
    public void close() {
        if (identity.isClosed()) {
            return;
        }
        thread.checkOwnerThread();
        identity.close(thread, ROOT_BYTES, this::freeBlocks);
    }

    /**
     * Destroys the map and closes this handle: one compare-and-swap of the root's handles word marks the map
     * destroyed ({@link StructureIdentity#destroy}). When no other handle is open the map is freed here: every
     * key-value block and the table (READs of the table, one free per block), then the root; else the last other
     * handle to {@link #close()} frees it, so no handle ever reads a freed block. Of two destroys of one map, in
     * any handles and processes, exactly one marks it; the other closes its handle and throws
     * {@link ClosedMapException}. Later attaches throw {@link ClosedMapException}, and so does every call of another
     * handle, in any process, that starts after this destroy returned (its first batch READs the root's handles
     * word); a call concurrent with the destroy completes on the map's memory, intact, before or after it.
     *
     * @throws ClosedMapException when this handle is closed, or another handle destroyed the map first
     */
    public void destroy() {
        thread.checkOwnerThread();
        identity.destroy(thread, ROOT_BYTES, this::freeBlocks);
    }

    /** Frees every key-value block and the table: the last handle of a destroyed map. */
    private void freeBlocks() {
        int perRead = Math.max(1, (int) (thread.config().bufferSizePerThread() - blockAt) / BUCKET_BYTES);
        for (int b = 0; b < buckets; b += perRead) {
            int count = Math.min(perRead, buckets - b);
            thread.read(RemotePtr.offset(table, (long) b * BUCKET_BYTES), blockAt, count * BUCKET_BYTES);
            long[] words = new long[count * SLOTS_PER_BUCKET];
            for (int i = 0; i < words.length; i++) {
                words[i] = thread.buffer().get(ValueLayout.JAVA_LONG, blockAt + 8L * i);
            }
            for (long w : words) {
                if (w != 0) {
                    thread.allocator().deallocate(Slot.block(w, home), Slot.blockBytes(w));
                }
            }
        }
        thread.allocator().deallocate(table, (long) buckets * BUCKET_BYTES);
    }

    // ---------------------------------------------------------------- internals

    private void requireOpen() {
        thread.checkOwnerThread();
        identity.requireOpen();
    }

    private void buckets(long digest) {
        firstBucket = RemotePtr.offset(table, (long) Slot.firstBucket(digest, buckets) * BUCKET_BYTES);
        secondBucket = RemotePtr.offset(table, (long) Slot.secondBucket(digest, buckets) * BUCKET_BYTES);
    }

    /** {@return the pointer to slot {@code i} of the current key's {@link #candidates}} */
    private long slot(int i) {
        long combined = i < half ? firstBucket : secondBucket;
        return RemotePtr.offset(combined, 8L * (i % half));
    }

    /** {@return a combined bucket's buckets for a message: {@code b}, or {@code b-c}} */
    private String bucketRange(int first) {
        return width == 1 ? String.valueOf(first) : first + "-" + (first + width - 1);
    }

    /** One doorbell batch: a READ of each combined bucket of the current key. */
    private void readBuckets() {
        thread.batch().read(firstBucket, FIRST, combinedBytes).read(secondBucket, combinedBytes, combinedBytes).execute();
        loadView();
    }

    /**
     * A call's first doorbell batch: a READ of each combined bucket of the current key, then a READ of the root
     * block's header word, checked ({@link #checkHeader}) before the view is loaded.
     */
    /**
     * A get's or remove's start in guard {@code g}: the first time ({@code again} false) the batch READ of both
     * buckets with the root's handles word ({@link #readBucketsChecked()}); after a restart, a READ of both buckets
     * unless {@code g} is already invalid: then false (enter a fresh guard), and the {@value #STALE_ENTRIES}th such
     * guard in a row of the call is checked ({@link Guard#check()}: a {@link LeaseExpiredException} from an outer
     * guard whose lease ran out).
     */
    private boolean readView(Guard g, boolean again) {
        if (again && !g.valid()) {
            if (++staleGuards >= STALE_ENTRIES) {
                g.check();
            }
            return false;
        }
        if (again) {
            readBuckets();
        } else {
            readBucketsChecked();
        }
        return true;
    }

    private void readBucketsChecked() {
        thread.batch().read(firstBucket, FIRST, combinedBytes).read(secondBucket, combinedBytes, combinedBytes)
                .read(identity.headerAddress(), HEADER, 8).execute();
        checkHeader(RemotePtr.NULL, 0);
        loadView();
    }

    /**
     * Checks the root's handles word that a call's first batch READ behind its buckets
     * ({@link StructureIdentity#check}): a call that starts after any handle's destroy returned finds it marked. A put's new block ({@code block}, not {@link RemotePtr#NULL}), which no
     * other thread can know yet, goes back to the allocator then.
     *
     * @throws ClosedMapException when the map was destroyed
     */
    private void checkHeader(long block, int blockBytes) {
        long header = thread.buffer().get(ValueLayout.JAVA_LONG, HEADER);
        if (!identity.isLive(header)) {
            if (block != RemotePtr.NULL) {
                thread.allocator().deallocate(block, blockBytes);
            }
            identity.check(header);
        }
    }

    private void loadView() {
        MemorySegment buf = thread.buffer();
        for (int i = 0; i < candidates; i++) {
            view[i] = buf.get(ValueLayout.JAVA_LONG, 8L * i);
        }
    }

    /**
     * Where a new key goes: the first empty slot of the emptiest of the key's buckets in the view (pending
     * words count as taken), the first such bucket on a tie, so the first combined bucket, in the table's
     * left half, wins ties ("always go left").
     *
     * @return the slot, or -1 when every slot of the key's buckets is taken
     */
    private int placement() {
        int best = -1;
        int most = 0;
        for (int b = 0; b < candidates; b += SLOTS_PER_BUCKET) {
            int empty = 0;
            int first = -1;
            for (int i = b; i < b + SLOTS_PER_BUCKET; i++) {
                if (view[i] == 0) {
                    first = first < 0 ? i : first;
                    empty++;
                }
            }
            if (empty > most) {
                most = empty;
                best = first;
            }
        }
        return best;
    }

    /**
     * The first committed slot of the view whose block holds the key, or -1. A miss after a suspect view
     * ({@link #suspectView}) is trusted only once a re-read of the buckets agrees with the view (so no word
     * of it was read torn); a view that changed is looked at again.
     *
     * @return the slot, or -1
     * @throws CorruptedMemoryException when a slot word read whole ({@link #holdsWhole}) points outside the home node's segments
     */
    private int committedSlotOf(int fp) {
        while (true) {
            int matches = keyMatches(fp, -1);
            for (int i = 0; i < candidates; i++) {
                if ((matches & (1 << i)) != 0 && !Slot.isPending(view[i])) {
                    return i;
                }
            }
            if (!suspectView) {
                return -1;
            }
            long bad = suspectWord;
            int badSlot = suspectSlot;
            if (stableAfterReRead()) {
                if (bad == 0) {
                    return -1;
                }
                if (holdsWhole(badSlot, bad)) {
                    throw corrupted(bad, 0);
                }
                readBuckets();
            }
        }
    }

    /**
     * READs (in doorbell batches: one round trip for up to {@value #KEY_READS} blocks, one more for each
     * {@value #KEY_READS} after) the key of every block that a slot of the view with the key's fingerprint
     * points to; committed slots only when {@code except} is -1, pending ones too (all but slot
     * {@code except}) otherwise. Sets {@link #suspectView} when such a slot points outside the home node's
     * segments ({@link #suspectWord}: the word) or to a block of another key: a slot word READ while a
     * compare-and-swap changed it can come back half old and half new (Soft-RoCE), and such a word must not
     * make a present key look absent. A fingerprint twin of another key is suspect too, and costs one
     * re-read of the buckets.
     *
     * @return a bit per slot whose block holds the key
     */
    private int keyMatches(int fp, int except) {
        suspectView = false;
        suspectWord = 0;
        int keyRead = HEADER_BYTES + pad8(keyLength);
        int toRead = 0;
        for (int i = 0; i < candidates; i++) {
            long w = view[i];
            if (w != 0 && i != except && Slot.fingerprint(w) == fp && (except >= 0 || !Slot.isPending(w))) {
                if (thread.isPublished(Slot.block(w, home), Math.min(keyRead, Slot.blockBytes(w)))) {
                    toRead |= 1 << i;
                } else {
                    suspectView = true;
                    suspectWord = w;
                    suspectSlot = i;
                }
            }
        }
        int capacity = thread.config().wrsPerBatch();
        int matches = 0;
        while (toRead != 0) {
            DoorbellBatch batch = thread.batch();
            int taken = 0;
            int placed = 0;
            for (int i = 0; i < candidates && placed < KEY_READS; i++) {
                if ((toRead & (1 << i)) != 0) {
                    if (batch.size() == capacity) {
                        batch.execute();
                    }
                    batch.read(Slot.block(view[i], home), KEYS + (long) keyStride * placed++,
                            Math.min(keyRead, Slot.blockBytes(view[i])));
                    taken |= 1 << i;
                }
            }
            batch.execute();
            placed = 0;
            for (int i = 0; i < candidates; i++) {
                if ((taken & (1 << i)) != 0) {
                    if (holdsKey(KEYS + (long) keyStride * placed++, Slot.blockBytes(view[i]))) {
                        matches |= 1 << i;
                    } else {
                        suspectView = true;
                    }
                }
            }
            toRead &= ~taken;
        }
        return matches;
    }

    private long allocate(long bytes) {
        long rt = thread.roundTrips();
        long block = thread.allocator().allocate(bytes, home);
        allocatorRoundTrips += thread.roundTrips() - rt;
        return block;
    }
}
