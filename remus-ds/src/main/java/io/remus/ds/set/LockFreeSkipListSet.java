package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.SplittableRandom;

import static io.remus.ds.set.GuardedCall.FALSE;
import static io.remus.ds.set.GuardedCall.RESTART;
import static io.remus.ds.set.GuardedCall.RESTART_TOOK_EFFECT;
import static io.remus.ds.set.GuardedCall.TRUE;

/**
 * A lock-free ordered set of {@code long} keys over one-sided RDMA with logarithmic expected search: the
 * lock-free skip list of M. Herlihy and N. Shavit ("The Art of Multiprocessor Programming", section 14.4),
 * after K. Fraser ("Practical lock-freedom", PhD thesis, Cambridge 2004), whose rule for when a removed node
 * may be reclaimed it follows. Each level is a Harris-Michael list (as {@link LockFreeListSet}): a node's
 * {@code next} word at a level carries the mark in bit 0.
 *
 * <p><b>Why a skip list.</b> A lock-free skip list reuses the list's mark-bit protocol, its torn-pointer
 * check and its reclaimer unchanged, and takes no lock. A B-link tree would search in fewer round trips, but
 * its inner nodes are worth caching at the compute side, and a cached inner node needs a consistency scheme
 * of its own (versions, or validation READs), besides the tree's locks.
 *
 * <pre>
 *  root block (written once before its pointer is known):
 *  -24 the allocator's block header   -16 the handles word   -8 the identity word ({@link StructureIdentity})
 *  root (ListLayout's 32 bytes; the set's pointer points here):
 *  +0 head   +8 tail   +16 the tail's block   +24 maxLevel
 *
 *  node data (32 + 8 * maxLevel bytes; a node pointer points here):
 *  +0       self     the node pointer itself: a node read through a torn pointer shows another value
 *  +8       key      written once, before the node is linked (the sentinels: Long.MIN_VALUE, Long.MAX_VALUE)
 *  +16      height   the levels the node was drawn for, 1..maxLevel (the sentinels: maxLevel)
 *  +24      block    the allocation the node lies in
 *  +32+8i   next[i]  the successor at level i | 1 once the node is marked at level i; 0 above the height
 * </pre>
 * <p><b>Layout.</b> Every node has {@code maxLevel} {@code next} words, whatever its height, so that one RDMA
 * READ reads a whole node: key, height and every level's successor and mark. A node's height is drawn when
 * it is inserted, geometric with p = 1/2 (height h with probability 2<sup>-h</sup>, capped at
 * {@code maxLevel}), from the handle's own {@link SplittableRandom} (on a thread of the simulator's virtual-time
 * scheduler, seeded from the thread's name and virtual clock, so that a run's heights follow from its seed).
 * {@code maxLevel} is chosen at {@link #create} ({@link #DEFAULT_MAX_LEVEL}: searches stay logarithmic up to about 2<sup>16</sup> keys) and
 * kept in the root. Every node lies on the home node chosen at {@link #create}, so that the WRITE of a new
 * node and the compare-and-swap that links it go in one doorbell batch (one round trip).
 *
 * <p><b>The algorithm.</b> A key is in the set iff a node with that key is reachable at level 0 and its
 * {@code next[0]} is unmarked; the upper levels are shortcuts. {@code find(k)} walks from the head's top
 * level down: at each level it goes right while the next node's key is {@code < k}; a node whose
 * {@code next} at that level is marked it unlinks at that level (compare-and-swap of the predecessor's
 * {@code next} there, from the node to the node's unmarked successor), and starts again from the head when
 * that fails. It yields at every level the last node with a key {@code < k} and the first unmarked node
 * with a key {@code >= k}. A node read at one level is not read again on the level below. {@link #insert}:
 * {@code find}; when the key is absent, the new node is written whole with {@code next[i]} the successors
 * found, and linked at level 0 by compare-and-swap of its level-0 predecessor's {@code next[0]}, the WRITE
 * and the compare-and-swap in one batch; then, level by level upwards, it first sets the new node's own
 * {@code next[i]} to the successor found by compare-and-swap (which fails only when a remover marked it:
 * then linking stops), then links it by compare-and-swap of the predecessor's {@code next[i]}, after a
 * {@code find} again when that fails. {@link #remove}: {@code find}; when present, marks the node's
 * {@code next} words from its top level down to level 1, then level 0 (compare-and-swap loops); the thread
 * whose level-0 mark succeeds removed the key, calls {@code find(k)}, which unlinks the node at every level,
 * and retires it. {@link #contains} walks the same way without helping: it passes over marked nodes, never
 * writing, and answers from the first node at level 0 whose key is {@code >= k}.
 *
 * <p><b>Torn pointers.</b> A pointer changes only by compare-and-swap, but an RDMA READ that races one can
 * return it half old and half new on some devices (Soft-RoCE): a node whose {@code self} word is not the
 * pointer it was read by is such a read, and so is a pointer that names no bytes of a segment (halves of two
 * pointers that differ in their upper 32 bits), which is not followed; the walk starts over from the head
 * (outside the bounds below). A torn pointer is gone once the compare-and-swap it raced completes, so 3 such reads in a row through the
 * same pointer, within one walk and its restarts, are a corrupted set ({@link CorruptedMemoryException}): a
 * pointer to a freed block, say. (The count is not reset by the good reads between: a walk restarted from
 * the head reads good nodes before it meets the bad pointer again.)
 *
 * <p><b>Progress and cost</b> per call; {@code v} is the number of nodes a walk READs: the head, and on each
 * level the nodes it passes and the one it stops at, each node once (the tail is never read). With {@code n}
 * keys, no marked node and {@code n} well below 2<sup>maxLevel</sup>, {@code v} is expected about
 * {@code 2 log2 n} (about 2 nodes per level below {@code log2 n}, none above), at most {@code n + 1}.
 * {@code h} is the new or removed node's height (expected 2).
 * <table>
 *   <caption>per call, besides the allocator's and the reclaimer's own work</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #contains}</td><td>wait-free while the guard holds its lease (keys rise along every
 *       level, and each node is read once)</td><td>{@code v} READs of a whole node and the root header's READ of
 *       8 bytes (in one batch with the head's), nothing else</td>
 *       <td>{@code v}</td></tr>
 *   <tr><td>{@link #insert}</td><td>lock-free</td>
 *       <td>expected (uncontended): {@code v} READs and the root header's, then 1 WRITE of the node and 1
 *       compare-and-swap in one batch, then 2 compare-and-swaps per level above 0, and when {@code h > 1} one
 *       8-byte READ of the node's {@code next[0]}; an allocation unless a spare node is kept. Each failed link
 *       adds a {@code find} ({@code v'} READs, one compare-and-swap per marked node it unlinks), as does an upper
 *       level whose successor first found was a removed node of the same key</td>
 *       <td>expected {@code v + 1 + 2(h - 1) + (h > 1 ? 1 : 0)}; worst case unbounded (each failed attempt
 *       caused by another thread's success)</td></tr>
 *   <tr><td>{@link #remove}</td><td>lock-free</td>
 *       <td>expected: {@code v} READs and the root header's, {@code h} compare-and-swaps (the marks), then the
 *       second {@code find}: about {@code v} READs and {@code h} compare-and-swaps (the unlinks); retries as for
 *       insert</td>
 *       <td>expected about {@code 2v + 2h}; worst case unbounded as for insert</td></tr>
 * </table>
 * A call to the home node is a network operation from every node but the home node, where the READs of a
 * walk are CPU loads (batches and compare-and-swaps go through the loopback queue pair).
 *
 * <p><b>Destroyed sets.</b> Every call READs the root's handles word (8 bytes) in one batch with its first
 * READ, the head sentinel's, the header's posted after the head's, and checks it
 * ({@link StructureIdentity#check}) before it uses anything that batch read: 1 READ more per call, no round trip
 * (on the home node a CPU load after the head's). No block of the set is freed while any handle on
 * it is open ({@link StructureIdentity}: the last handle of a destroyed set frees it), so a call that starts after
 * any handle's destroy returned throws {@link ClosedSetException} and a call concurrent with a destroy completes on
 * the set's memory, intact, before or after it.
 *
 * <p><b>Linearizable</b> with respect to a set ({@code io.remus.check.spec.SetSpec}): a successful insert at
 * its level-0 linking compare-and-swap; a successful remove at its level-0 marking compare-and-swap; a remove
 * that finds the node but loses the level-0 mark to another remover just after that remover's mark; an
 * insert that finds the key at the READ of the node found (unmarked at level 0, hence in the set); a
 * remove that does not find it, and contains, as the lazy list's contains (Heller et al., OPODIS 2005): at
 * the READ of the deciding node when it returns true, and when it returns false either at that READ or just
 * before the key's node, seen marked or never reached, was removed.
 *
 * <p><b>Reclamation.</b> Every call runs inside a guard of the thread's reclaimer, so that no node it reads
 * is freed and reused, and no compare-and-swap of it meets a reused address (ABA), while the guard holds its
 * lease; the guard is checked after every READ and before each compare-and-swap, and a call whose lease ran
 * out starts over in a fresh guard (one inside an outer guard of the caller whose lease ran out throws
 * {@link LeaseExpiredException}). A node may be retired only once it is unlinked at every level, and the
 * thread that unlinks it at level 0 need not be the one that unlinks it above, so (Fraser's rule) the
 * remover that wins the level-0 mark retires it, after a {@code find(k)} of its own: that walk meets the
 * node at every level where it is still linked, marked there (marks go from the top level down, so a node
 * marked at level 0 is marked at every level), and unlinks it, since a {@code find(k)} stops only at an
 * unmarked node, provided no unmarked node of key {@code k} stands in front of it at any level. An inserter
 * of {@code k} could put one there: its first {@code find} READs the upper levels before level 0, so it may
 * see a node of key {@code k} unmarked up there that is removed (and unlinked at level 0, which lets the
 * insert link) before its READ of level 0; linking its new node in front of that node at an upper level
 * would hide it from its remover's {@code find}, and the node would stay reachable after it is freed. So an
 * inserter never links an upper level in front of a node of its own key: it calls {@code find(k)} again
 * first, and such a {@code find}, made after the new node's level-0 link, cannot stop at another node of
 * key {@code k} (every other one is marked at every level by then). The race left is an inserter still
 * linking the node's upper levels: it sets the node's {@code next[i]} by compare-and-swap before linking
 * level {@code i}, which fails once the level is marked, so it links a level only while the node is unmarked
 * there; but a link whose compare-and-swap lands after
 * the remover's {@code find} passed that level would leave the node reachable after its retirement. So after
 * linking its last level the inserter READs the node's {@code next[0]}: when it is unmarked, the remover's
 * level-0 mark, hence its {@code find}, comes after every link, which that {@code find} undoes; when it is
 * marked, the inserter calls {@code find(k)} itself, which unlinks the node at every level where it is marked.
 * It calls {@code find(k)} at once, without that READ, when a level's compare-and-swap of the node's own
 * {@code next[i]} finds it marked, or when the {@code find} after a failed link no longer finds the node. The
 * inserter is still inside the guard in which it linked the node,
 * which began before the node was retired, so the epoch reclaimer cannot free the node before that
 * {@code find} has unlinked it. A remove whose level-0 mark took effect but whose {@code find} found its
 * guard's lease run out does that {@code find} and the retirement in a fresh guard; inside an outer guard
 * whose lease ran out it returns true and leaves the node unretired (other walks unlink it; it is not
 * freed). An insert whose lease runs out while linking upper levels stops linking (the node stays in the set
 * with fewer levels), which is safe while leases outlast calls, as every guard assumes.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root (with its handles and identity words in front) and both
 * sentinels on one memory node and writes them before the root is known; others {@link #attach} with
 * {@link #ptr()} (one READ, which refuses another kind's root and a destroyed set). {@link #destroy} marks the
 * set destroyed, and the last handle to close frees it ({@link #close()}). All
 * handles of a set use reclaimers of one kind. The thread's registered buffer is scratch ({@link #BUFFER_BYTES}
 * bytes from offset 0) during a call. One instance per compute thread, used by its owner.
 */
public final class LockFreeSkipListSet extends LockFreeSetHandle {
    /** The levels a set has unless its creator chooses. */
    public static final int DEFAULT_MAX_LEVEL = 16;
    /** The most levels a set may have. */
    public static final int MAX_LEVEL_LIMIT = 32;
    /** Scratch bytes of the thread's buffer a call uses, from offset 0. */
    public static final int BUFFER_BYTES = 64 + 2 * (32 + 8 * MAX_LEVEL_LIMIT) + 64;

    static final long SELF = 0;
    static final long KEY = 8;
    static final long HEIGHT = 16;
    static final long BLOCK = 24;
    static final long NEXT = 32;

    /** Where the root's handles word lands, read with the head ({@link ListNodes#readHead}). */
    private static final long BUF_HEADER = 0;
    /** Where a walk READs a node in the thread's buffer (package-private for tests that watch a walk). */
    static final long BUF_READ = 64;
    private static final long BUF_NEW = BUF_READ + 32 + 8 * MAX_LEVEL_LIMIT;
    private static final long BUF_CAS = BUF_NEW + 32 + 8 * MAX_LEVEL_LIMIT;

    private final int maxLevel;
    private final int nodeBytes;
    private final SplittableRandom random = heightRandom();
    private final long[] preds;
    private final long[] succs;
    /** The keys of {@code succs}, as READ ({@link Long#MAX_VALUE} for the tail). */
    private final long[] succKeys;
    private long[] predNext;
    private long[] currNext;
    private final GuardedCall.Attempt insertAttempt = this::tryInsert;
    private final GuardedCall.Attempt removeAttempt = this::tryRemove;
    private int lastHeight;
    /** The height drawn for the node the current insert links. */
    private int newHeight;
    /** The node the current remove marked at level 0, until it is retired. */
    private long markedNode;
    private long foundKey;
    private int foundHeight;
    private final long[] foundNext;
    /** The new node's own next words while its upper levels are linked. */
    private final long[] linked;

    private LockFreeSkipListSet(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, long head, long tail,
                                int maxLevel) {
        super(thread, reclaimer, identity, head, tail, nodeBytes(maxLevel), NEXT);
        this.maxLevel = maxLevel;
        this.nodeBytes = nodeBytes(maxLevel);
        this.preds = new long[maxLevel];
        this.succs = new long[maxLevel];
        this.succKeys = new long[maxLevel];
        this.predNext = new long[maxLevel];
        this.currNext = new long[maxLevel];
        this.foundNext = new long[maxLevel];
        this.linked = new long[maxLevel];
    }

    /**
     * Bytes of a node's block in a set of {@code maxLevel} levels.
     *
     * @param maxLevel 1..{@link #MAX_LEVEL_LIMIT}
     * @return {@code 32 + 8 * maxLevel}
     * @throws BadArgumentException naming the value when it is out of range
     */
    public static int nodeBytes(int maxLevel) {
        return 32 + 8 * checkMaxLevel(maxLevel);
    }

    private static int checkMaxLevel(long maxLevel) {
        if (maxLevel < 1 || maxLevel > MAX_LEVEL_LIMIT) {
            throw new BadArgumentException("a skip list's maxLevel must be 1.." + MAX_LEVEL_LIMIT + ", got " + maxLevel);
        }
        return (int) maxLevel;
    }

    /**
     * {@link #create(ComputeThread, Reclaimer, int, int)} with {@link #DEFAULT_MAX_LEVEL} levels.
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @return the creator's handle
     */
    public static LockFreeSkipListSet create(ComputeThread thread, Reclaimer reclaimer, int nodeId) {
        return create(thread, reclaimer, nodeId, DEFAULT_MAX_LEVEL);
    }

    /**
     * Allocates an empty set of {@code maxLevel} levels on memory node {@code nodeId}: three allocations
     * (root, head, tail), the root's identity word (a CPU load and store on the creator's own node, else 1 READ
     * and 1 WRITE) and three WRITEs. Every node of the set is allocated on that node.
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @param maxLevel  the levels, 1..{@link #MAX_LEVEL_LIMIT}: searches stay logarithmic up to about
     *                  2<sup>maxLevel</sup> keys, and every node has {@code 32 + 8 * maxLevel} bytes
     * @return the creator's handle
     * @throws BadArgumentException naming the value when {@code maxLevel} is out of range, or when the thread's
     *                              buffer is smaller than {@link #BUFFER_BYTES}
     */
    public static LockFreeSkipListSet create(ComputeThread thread, Reclaimer reclaimer, int nodeId, int maxLevel) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        int bytes = nodeBytes(maxLevel);
        ListLayout.requireBuffer(thread, BUFFER_BYTES);
        StructureIdentity identity = ListLayout.allocateRoot(thread, StructureKind.LOCK_FREE_SKIP_LIST_SET, nodeId);
        long h = thread.allocator().allocate(bytes, nodeId);
        long t = thread.allocator().allocate(bytes, nodeId);
        MemorySegment buf = thread.buffer();
        putHeader(buf, t, Long.MAX_VALUE, maxLevel);
        for (int i = 0; i < maxLevel; i++) {
            buf.set(ValueLayout.JAVA_LONG, BUF_NEW + NEXT + 8L * i, RemotePtr.NULL);
        }
        thread.write(t, BUF_NEW, bytes);
        putHeader(buf, h, Long.MIN_VALUE, maxLevel);
        for (int i = 0; i < maxLevel; i++) {
            buf.set(ValueLayout.JAVA_LONG, BUF_NEW + NEXT + 8L * i, t);
        }
        thread.write(h, BUF_NEW, bytes);
        ListLayout.writeRoot(thread, identity.ptr(), h, t, t, maxLevel);
        return new LockFreeSkipListSet(thread, reclaimer, identity, h, t, maxLevel);
    }

    /**
     * A handle on a set another thread created: one READ of the root, with the block header, the handles word and
     * the identity word in front of it (56 bytes), and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}).
     *
     * @param thread    the caller's compute thread
     * @param reclaimer the caller's reclaimer (its thread's), of the same kind as the other handles'
     * @param ptr       what {@link #ptr()} returned
     * @return the handle
     * @throws WrongStructureException when the pointer is another kind of structure's root, or no structure's
     * @throws ClosedSetException      when the set there was destroyed
     * @throws BadArgumentException    when the pointer is null or misaligned, the root's maxLevel is out of range,
     *                                 or the thread's buffer is smaller than {@link #BUFFER_BYTES}
     */
    public static LockFreeSkipListSet attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        ListLayout.requireBuffer(thread, BUFFER_BYTES);
        long[] w = new long[ListLayout.ROOT_BYTES / 8];
        StructureIdentity identity = ListLayout.attachRoot(thread, StructureKind.LOCK_FREE_SKIP_LIST_SET, ptr, w,
                () -> checkMaxLevel(ListLayout.word(w, ListLayout.LOCK_KIND)));
        return new LockFreeSkipListSet(thread, reclaimer, identity, ListLayout.word(w, ListLayout.HEAD),
                ListLayout.word(w, ListLayout.TAIL), (int) ListLayout.word(w, ListLayout.LOCK_KIND));
    }

    private static void putHeader(MemorySegment buf, long node, long key, int height) {
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + SELF, node);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + KEY, key);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + HEIGHT, height);
        buf.set(ValueLayout.JAVA_LONG, BUF_NEW + BLOCK, node);
    }

    /** {@return the set's levels, as its creator chose} */
    public int maxLevel() {
        return maxLevel;
    }

    /** The height drawn for the last node this handle inserted (for tests that count its compare-and-swaps). */
    int lastHeight() {
        return lastHeight;
    }

    /**
     * Adds {@code key} when absent (lock-free; see the class for the cost): expected {@code v} READs (and the root
     * header's, with the head's), one batch of a WRITE and a compare-and-swap, 2 compare-and-swaps per level above 0
     * and, for a node of more than one level, an 8-byte READ. The new node is allocated before the walk when the
     * handle keeps no spare, and kept as its spare when the key was present.
     */
    @Override
    public boolean insert(long key) {
        newHeight = randomHeight();
        return nodes.call(reclaimer, insertAttempt, key, true);
    }

    /**
     * Removes {@code key} when present (lock-free; see the class for the cost): expected {@code v} READs (and the root
     * header's, with the head's) and {@code h} compare-and-swaps to find and mark the node, then about {@code v} READs
     * and {@code h} compare-and-swaps to unlink it.
     */
    @Override
    public boolean remove(long key) {
        markedNode = RemotePtr.NULL;
        return nodes.call(reclaimer, removeAttempt, key, false);
    }

    /**
     * Tells whether {@code key} is present (wait-free while the guard holds its lease; see the class): {@code v}
     * READs, expected about {@code 2 log2 n} in a set of {@code n} keys, the root header's READ in the head's
     * batch, and nothing else.
     */
    @Override
    public boolean contains(long key) {
        return nodes.call(reclaimer, containsAttempt, key, false);
    }

    /**
     * An unseeded generator on a host thread; on a virtual-time scheduled thread one seeded from the thread's
     * name and virtual clock, so that a run of the same seed draws the same heights.
     */
    private static SplittableRandom heightRandom() {
        if (!ThreadTime.isScheduled()) {
            return new SplittableRandom();
        }
        return new SplittableRandom(Thread.currentThread().getName().hashCode() * 0x9E37_79B9_7F4A_7C15L ^ ThreadTime.nanoTime());
    }

    private int randomHeight() {
        return Math.min(maxLevel, 1 + Long.numberOfTrailingZeros(random.nextLong()));
    }

    /** Links the spare node ({@link ListNodes#spare()}, allocated before the call's first guard) with {@code newHeight} levels. */
    private int tryInsert(Guard g, long key) {
        MemorySegment buf = thread.buffer();
        long node = nodes.spare();
        int height = newHeight;
        while (true) {
            if (!find(g, key)) {
                return RESTART;
            }
            if (succs[0] != tail && foundKey == key) {
                return FALSE;
            }
            if (!g.valid()) {
                return RESTART;
            }
            putHeader(buf, node, key, height);
            for (int i = 0; i < maxLevel; i++) {
                buf.set(ValueLayout.JAVA_LONG, BUF_NEW + NEXT + 8L * i, i < height ? succs[i] : RemotePtr.NULL);
            }
            thread.batch()
                    .write(node, BUF_NEW, nodeBytes)
                    .compareAndSwap(nextWord(preds[0], 0), succs[0], node, BUF_CAS)
                    .execute();
            if (buf.get(ValueLayout.JAVA_LONG, BUF_CAS) == succs[0]) {
                nodes.spareLinked();
                lastHeight = height;
                if (height > 1) {
                    linkUpperLevels(g, key, node, height);
                }
                return TRUE;
            }
        }
    }

    /**
     * Links a node linked at level 0 at levels 1..height-1, bottom up, then makes sure it is not left linked
     * anywhere after its remover's unlinking find (see the class's reclamation paragraph).
     */
    private void linkUpperLevels(Guard g, long key, long node, int height) {
        long[] own = linked;
        System.arraycopy(succs, 0, own, 0, height);
        for (int level = 1; level < height; level++) {
            while (true) {
                if (!g.valid()) {
                    return;
                }
                if (succKeys[level] == key) {
                    // A node of this key other than ours can only be a removed one, read before our level-0 link:
                    // linked in front of it, ours would hide it from its remover's find (see the class).
                    if (!find(g, key)) {
                        return;
                    }
                    if (succs[0] != node) {
                        cleanUp(g, key);
                        return;
                    }
                    continue;
                }
                long succ = succs[level];
                long was = thread.compareAndSwap(nextWord(node, level), own[level], succ);
                if (was != own[level]) {
                    cleanUp(g, key);
                    return;
                }
                own[level] = succ;
                if (!g.valid()) {
                    return;
                }
                if (thread.compareAndSwap(nextWord(preds[level], level), succ, node) == succ) {
                    break;
                }
                if (!find(g, key)) {
                    return;
                }
                if (succs[0] != node) {
                    cleanUp(g, key);
                    return;
                }
            }
        }
        if (g.valid() && ListLayout.marked(thread.read(nextWord(node, 0)))) {
            cleanUp(g, key);
        }
    }

    /** A find(k) that unlinks a marked node of key k at every level where it is linked; retried until it completes or the lease runs out. */
    private void cleanUp(Guard g, long key) {
        find(g, key);
    }

    /** One attempt of a remove: unlinks and retires the node this call marked, or else finds the key's node and marks it. */
    private int tryRemove(Guard g, long key) {
        if (markedNode != RemotePtr.NULL) {
            return unlinkAndRetire(g, key);
        }
        while (true) {
            if (!find(g, key)) {
                return RESTART;
            }
            if (succs[0] == tail || foundKey != key) {
                return FALSE;
            }
            long node = succs[0];
            int height = Math.min(foundHeight, maxLevel);
            for (int level = height - 1; level >= 1; level--) {
                long w = foundNext[level];
                while (!ListLayout.marked(w)) {
                    if (!g.valid()) {
                        return RESTART;
                    }
                    long was = thread.compareAndSwap(nextWord(node, level), w, w | ListLayout.MARK);
                    if (was == w) {
                        break;
                    }
                    w = was;
                }
            }
            long w = foundNext[0];
            while (true) {
                if (ListLayout.marked(w)) {
                    return FALSE;
                }
                if (!g.valid()) {
                    return RESTART;
                }
                long was = thread.compareAndSwap(nextWord(node, 0), w, w | ListLayout.MARK);
                if (was == w) {
                    markedNode = node;
                    return unlinkAndRetire(g, key);
                }
                w = was;
            }
        }
    }

    /**
     * After a won level-0 mark of {@code markedNode}: find(k), which unlinks it at every level, then retire it. When
     * the lease runs out first, the remove has taken effect and goes on in a fresh guard.
     */
    private int unlinkAndRetire(Guard g, long key) {
        if (!find(g, key)) {
            return RESTART_TOOK_EFFECT;
        }
        reclaimer.retire(markedNode, nodeBytes);
        markedNode = RemotePtr.NULL;
        return TRUE;
    }

    /**
     * One walk down the levels to the first node whose key is {@code >= key}, READing each node whole once. With
     * {@code help} (a {@link #find}: Herlihy and Shavit's find) it unlinks every marked node it meets at a level
     * (one compare-and-swap each, from the head again when that fails); without it (a {@link #contains}) it passes
     * over them and changes nothing. Either way, on return (true), for every level {@code i}, {@code preds[i]} had
     * a key {@code < key} and pointed at level {@code i} to {@code succs[i]}, the first node there unmarked at that
     * level with a key {@code >= key} (the tail when none); {@code foundKey}, {@code foundHeight} and
     * {@code foundNext} are {@code succs[0]}'s, as READ (unless it is the tail).
     *
     * @return {@code TRUE} when that node holds {@code key}, else {@code FALSE}; {@code RESTART} when the
     *         guard's lease ran out
     */
    @Override
    int walk(Guard g, long key, boolean help) {
        MemorySegment buf = thread.buffer();
        nodes.startWalk();
        walk:
        while (true) {
            if (!readInto(g, head, predNext)) {
                return RESTART;
            }
            long pred = head;
            long curr = RemotePtr.NULL;
            long currKey = Long.MAX_VALUE;
            long currHeight = 0;
            boolean have = false;
            for (int level = maxLevel - 1; level >= 0; level--) {
                long c = ListLayout.unmarked(predNext[level]);
                if (!have || c != curr) {
                    curr = c;
                    have = false;
                }
                while (curr != tail) {
                    if (!have) {
                        int r = readNode(g, curr);
                        if (r == RESTART) {
                            return RESTART;
                        }
                        if (r == FALSE) {
                            continue walk;
                        }
                        currKey = buf.get(ValueLayout.JAVA_LONG, BUF_READ + KEY);
                        currHeight = buf.get(ValueLayout.JAVA_LONG, BUF_READ + HEIGHT);
                        have = true;
                    }
                    long next = currNext[level];
                    if (ListLayout.marked(next)) {
                        long succ = ListLayout.unmarked(next);
                        if (help) {
                            if (!g.valid()) {
                                return RESTART;
                            }
                            if (thread.compareAndSwap(nextWord(pred, level), curr, succ) != curr) {
                                continue walk;
                            }
                            predNext[level] = succ;
                        }
                        curr = succ;
                        have = false;
                        continue;
                    }
                    if (currKey >= key) {
                        break;
                    }
                    swapPredCurr();
                    pred = curr;
                    curr = next;
                    have = false;
                }
                preds[level] = pred;
                succs[level] = curr;
                succKeys[level] = curr == tail ? Long.MAX_VALUE : currKey;
            }
            if (curr != tail) {
                foundKey = currKey;
                foundHeight = (int) currHeight;
                System.arraycopy(currNext, 0, foundNext, 0, maxLevel);
            } else {
                foundKey = Long.MAX_VALUE;
            }
            return curr != tail && currKey == key ? TRUE : FALSE;
        }
    }

    private void swapPredCurr() {
        long[] t = predNext;
        predNext = currNext;
        currNext = t;
    }

    /** READs the head whole into {@code into}'s next words; false when the lease ran out. */
    private boolean readInto(Guard g, long node, long[] into) {
        nodes.readHead(node, BUF_READ, nodeBytes, BUF_HEADER);
        if (!g.valid()) {
            return false;
        }
        MemorySegment buf = thread.buffer();
        for (int i = 0; i < maxLevel; i++) {
            into[i] = buf.get(ValueLayout.JAVA_LONG, BUF_READ + NEXT + 8L * i);
        }
        return true;
    }

    /** READs {@code node} whole into the buffer and {@code currNext}: TRUE, FALSE (a torn pointer: walk again) or RESTART (lease). */
    private int readNode(Guard g, long node) {
        if (!nodes.read(node, BUF_READ, nodeBytes)) {
            return FALSE;
        }
        if (!g.valid()) {
            return RESTART;
        }
        MemorySegment buf = thread.buffer();
        if (!nodes.selfCheck(node, buf.get(ValueLayout.JAVA_LONG, BUF_READ + SELF))) {
            return FALSE;
        }
        for (int i = 0; i < maxLevel; i++) {
            currNext[i] = buf.get(ValueLayout.JAVA_LONG, BUF_READ + NEXT + 8L * i);
        }
        return TRUE;
    }

    private static long nextWord(long node, int level) {
        return RemotePtr.offset(node, NEXT + 8L * level);
    }
}
