package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.LeaseExpiredException;
import io.remus.ds.reclaim.Reclaimer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

import static io.remus.ds.set.GuardedCall.FALSE;
import static io.remus.ds.set.GuardedCall.RESTART;
import static io.remus.ds.set.GuardedCall.TRUE;

/**
 * A lock-free sorted linked list of {@code long} keys over one-sided RDMA: the Harris-Michael list (T. Harris,
 * "A Pragmatic Implementation of Non-Blocking Linked-Lists", DISC 2001; M. Michael, "High Performance Dynamic
 * Lock-Free Hash Tables and List-Based Sets", SPAA 2002), in Michael's form, the one compatible with memory
 * reclamation: the thread whose compare-and-swap unlinks a node retires it.
 *
 * <pre>
 *  root block (written once before its pointer is known):
 *  -24 the allocator's block header   -16 the handles word   -8 the identity word ({@link StructureIdentity})
 *  root (32 bytes; the set's pointer points here):
 *  +0 head   +8 tail   +16 the tail's block   +24 0 (LazyListSet: lock kind; LockFreeSkipListSet: maxLevel)
 *
 *  node data (32 bytes; a node pointer points here):
 *  +0  self    the node pointer itself: a node read through a torn pointer shows another value
 *  +8  key     written once, before the node is linked (the sentinels: Long.MIN_VALUE, Long.MAX_VALUE)
 *  +16 next    the successor's node pointer | 1 when the node is logically removed (the mark)
 *  +24 block   the allocation the node lies in
 * </pre>
 * <p><b>Layout.</b> A node is one 32-byte block
 * {@code {self, key, next, block}} on the set's home node; a node is logically removed when bit 0 of its
 * {@code next} word (the mark) is set. Blocks are 8-byte aligned, so that bit is free. Once a node is linked,
 * its {@code next} word changes only by RDMA compare-and-swap. Every node lies on the home node chosen at
 * {@link #create}: the write of a new node and the compare-and-swap that links it then go in one doorbell
 * batch on one queue pair, which executes them in order at the target (one round trip).
 *
 * <p><b>The algorithm.</b> {@code find(k)} walks from the head, READing each node whole (one READ: key, next
 * and mark together); a marked node it meets it unlinks from its predecessor by compare-and-swap (helping a
 * remover) and retires when that succeeds, and starts again from the head when that fails; it stops at the
 * first unmarked node whose key is {@code >= k}, with its predecessor. The tail sentinel's pointer is known,
 * so it is never read. {@link #insert} links a new node between them with one compare-and-swap of the
 * predecessor's {@code next} (from the node found to the new one), after a {@code find} again when that fails.
 * {@link #remove} marks the node found (compare-and-swap of its {@code next} from unmarked to marked; when
 * that fails, {@code find} again), then tries once to unlink it; when that fails, a {@code find} unlinks it.
 * {@link #contains} walks without helping and answers from the first node whose key is {@code >= k}: present
 * when its key is {@code k} and it is unmarked.
 *
 * <p><b>Torn pointers.</b> A pointer changes only by compare-and-swap, but an RDMA READ that races one can
 * return it half old and half new on some devices (Soft-RoCE): a node whose {@code self} word is not the
 * pointer it was read by is such a read, and so is a pointer that names no bytes of a segment (halves of two
 * pointers that differ in their upper 32 bits), which is not followed; the walk starts over from the head
 * (outside the bounds below).
 * A torn pointer is gone once the compare-and-swap it raced completes, so 3 such reads in a row through the
 * same pointer, within one walk and its restarts, are a corrupted list ({@link CorruptedMemoryException}): a
 * pointer to a freed block, say. (The count is not reset by the good reads between: a walk restarted from
 * the head reads good nodes before it meets the bad pointer again.)
 *
 * <p><b>Progress and cost</b> per call; {@code v} is the number of nodes a walk visits (the head, then the
 * nodes before the first unmarked node with a key {@code >= k}, and that node unless it is the tail: at most
 * {@code n + 1} with {@code n} keys in the list and no marked node):
 * <table>
 *   <caption>per call, besides the allocator's and the reclaimer's own work</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #contains}</td><td>wait-free while the guard holds its lease (visits each node once, keys
 *       rising)</td><td>{@code v} READs of 32 bytes and the root header's READ of 8 bytes (in one batch with the
 *       head's), nothing else</td><td>{@code v}</td></tr>
 *   <tr><td>{@link #insert}</td><td>lock-free</td>
 *       <td>expected (uncontended): {@code v} READs and the root header's, then 1 WRITE (32 bytes) and 1
 *       compare-and-swap in one batch;
 *       an allocation unless a spare node is kept. Each failed compare-and-swap (another thread changed the
 *       predecessor) adds a {@code find}: {@code v'} READs and one compare-and-swap per marked node it unlinks</td>
 *       <td>expected {@code v + 1}; worst case unbounded ({@code sum of (v_i + 1)} over the attempts, each
 *       failed attempt caused by another thread's success)</td></tr>
 *   <tr><td>{@link #remove}</td><td>lock-free</td>
 *       <td>expected: {@code v} READs and the root header's, 2 compare-and-swaps (mark, unlink); when the unlink fails, one more
 *       {@code find}; retries as for insert</td><td>expected {@code v + 2}; worst case unbounded as for insert</td></tr>
 * </table>
 * A call to the home node is a network operation from every node but the home node, where the READs of a
 * walk are CPU loads (batches and compare-and-swaps go through the loopback queue pair). The reclaimer adds its
 * own cost ({@link io.remus.ds.reclaim.EpochReclaimer}: none on a memory node for enter and exit, none for a
 * retire inside a guard).
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
 * its linking compare-and-swap; a successful remove at its marking compare-and-swap; an insert that finds
 * the key, and a remove that does not, at the READ of the node that decided it (the node found was in the
 * list, unmarked, at that READ); contains as the lazy list's (Heller et al., OPODIS 2005): at the READ of
 * the deciding node when it returns true, and when it returns false either at that READ or just before the
 * key's node, seen marked or never reached, was removed.
 *
 * <p><b>Reclamation.</b> Every call runs inside a guard of the thread's reclaimer, so that no node it reads
 * is freed and reused, and no compare-and-swap of it meets a reused address (ABA), while the guard holds its
 * lease. The guard is checked after every READ, and before each compare-and-swap; a call whose lease ran out
 * starts over in a fresh guard, and one inside an outer guard of the caller whose lease ran out throws
 * {@link LeaseExpiredException} (a remove whose mark already took effect returns true instead). Unlinked nodes
 * are retired through the reclaimer by the thread whose compare-and-swap unlinked them.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root (with its handles and identity words in front) and both
 * sentinels on one memory node and writes them before the root is known; others {@link #attach} with
 * {@link #ptr()} (one READ, which refuses another kind's root and a destroyed set). {@link #destroy} marks the
 * set destroyed, and the last handle to close frees it ({@link #close()}). All
 * handles of a set use reclaimers of one kind. The thread's registered buffer is scratch ({@link #BUFFER_BYTES}
 * bytes from offset 0) during a call. One instance per compute thread, used by its owner.
 */
public final class LockFreeListSet extends LockFreeSetHandle {
    /** Bytes of a node's block. */
    public static final int NODE_BYTES = ListLayout.DATA_BYTES;
    /** Scratch bytes of the thread's buffer a call uses, from offset 0. */
    public static final int BUFFER_BYTES = 256;

    /** Where the root's handles word lands, read with the head ({@link ListNodes#readHead}). */
    private static final long BUF_HEADER = 0;
    private static final long BUF_READ = 64;
    private static final long BUF_NEW = 128;
    private static final long BUF_CAS = 192;

    private final GuardedCall.Attempt insertAttempt = this::tryInsert;
    private final GuardedCall.Attempt removeAttempt = this::tryRemove;
    private long foundPred;
    private long foundCurr;
    private long foundKey;
    private long foundNext;

    private LockFreeListSet(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, long head, long tail) {
        super(thread, reclaimer, identity, head, tail, NODE_BYTES, ListLayout.NEXT);
    }

    /**
     * Allocates an empty set on memory node {@code nodeId}: three allocations (root, head, tail), the root's
     * identity word (a CPU load and store on the creator's own node, else 1 READ and 1 WRITE) and three WRITEs.
     * Every node of the set is allocated on that node.
     *
     * @param thread    the creator's compute thread
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param nodeId    a memory node
     * @return the creator's handle
     * @throws BadArgumentException when the thread's buffer is smaller than {@link #BUFFER_BYTES}
     */
    public static LockFreeListSet create(ComputeThread thread, Reclaimer reclaimer, int nodeId) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        ListLayout.requireBuffer(thread, BUFFER_BYTES);
        StructureIdentity identity = ListLayout.allocateRoot(thread, StructureKind.LOCK_FREE_LIST_SET, nodeId);
        long h = thread.allocator().allocate(NODE_BYTES, nodeId);
        long t = thread.allocator().allocate(NODE_BYTES, nodeId);
        MemorySegment buf = thread.buffer();
        ListLayout.putData(buf, BUF_NEW, t, Long.MAX_VALUE, RemotePtr.NULL, t);
        thread.write(t, BUF_NEW, NODE_BYTES);
        ListLayout.putData(buf, BUF_NEW, h, Long.MIN_VALUE, t, h);
        thread.write(h, BUF_NEW, NODE_BYTES);
        ListLayout.writeRoot(thread, identity.ptr(), h, t, t, 0);
        return new LockFreeListSet(thread, reclaimer, identity, h, t);
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
     * @throws BadArgumentException    when the pointer is null or misaligned, or the thread's buffer is smaller
     *                                 than {@link #BUFFER_BYTES}
     */
    public static LockFreeListSet attach(ComputeThread thread, Reclaimer reclaimer, long ptr) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(reclaimer, "reclaimer");
        ListLayout.requireBuffer(thread, BUFFER_BYTES);
        long[] w = new long[ListLayout.ROOT_BYTES / 8];
        StructureIdentity identity = ListLayout.attachRoot(thread, StructureKind.LOCK_FREE_LIST_SET, ptr, w, () -> { });
        return new LockFreeListSet(thread, reclaimer, identity, ListLayout.word(w, ListLayout.HEAD),
                ListLayout.word(w, ListLayout.TAIL));
    }

    /**
     * Adds {@code key} when absent (lock-free; see the class for the cost): expected {@code v} READs (and the root
     * header's, with the head's), one batch of a WRITE and a compare-and-swap. The new node is allocated before the
     * walk when the handle keeps no spare, and kept as its spare when the key was present.
     */
    @Override
    public boolean insert(long key) {
        return nodes.call(reclaimer, insertAttempt, key, true);
    }

    /**
     * Removes {@code key} when present (lock-free; see the class for the cost): expected {@code v} READs (and the root
     * header's, with the head's) and two compare-and-swaps.
     */
    @Override
    public boolean remove(long key) {
        return nodes.call(reclaimer, removeAttempt, key, false);
    }

    /**
     * Tells whether {@code key} is present (wait-free while the guard holds its lease; see the class): {@code v}
     * READs, at most {@code n + 1} in a list of {@code n} keys without marked nodes, the root header's READ in
     * the head's batch, and nothing else.
     */
    @Override
    public boolean contains(long key) {
        return nodes.call(reclaimer, containsAttempt, key, false);
    }

    /** Links the spare node ({@link ListNodes#spare()}, allocated before the call's first guard). */
    private int tryInsert(Guard g, long key) {
        MemorySegment buf = thread.buffer();
        long node = nodes.spare();
        while (true) {
            if (!find(g, key)) {
                return RESTART;
            }
            if (foundKey == key) {
                return FALSE;
            }
            if (!g.valid()) {
                return RESTART;
            }
            ListLayout.putData(buf, BUF_NEW, node, key, foundCurr, node);
            thread.batch()
                    .write(node, BUF_NEW, NODE_BYTES)
                    .compareAndSwap(RemotePtr.offset(foundPred, ListLayout.NEXT), foundCurr, node, BUF_CAS)
                    .execute();
            if (buf.get(ValueLayout.JAVA_LONG, BUF_CAS) == foundCurr) {
                nodes.spareLinked();
                return TRUE;
            }
        }
    }

    private int tryRemove(Guard g, long key) {
        while (true) {
            if (!find(g, key)) {
                return RESTART;
            }
            if (foundKey != key) {
                return FALSE;
            }
            long curr = foundCurr;
            long pred = foundPred;
            long succ = foundNext;
            if (!g.valid()) {
                return RESTART;
            }
            long was = thread.compareAndSwap(RemotePtr.offset(curr, ListLayout.NEXT), succ, succ | ListLayout.MARK);
            if (was != succ) {
                continue;
            }
            if (g.valid() && thread.compareAndSwap(RemotePtr.offset(pred, ListLayout.NEXT), curr, succ) == curr) {
                reclaimer.retire(curr, NODE_BYTES);
            } else if (g.valid()) {
                find(g, key);
            }
            return TRUE;
        }
    }

    /**
     * One walk from the head to the first node whose key is {@code >= key}, READing each node whole; it records
     * that node and its predecessor ({@code found*}). With {@code help} (a {@link #find}: Michael's search) it
     * unlinks every marked node it meets (one compare-and-swap each, from the start when that fails) and stops
     * only at an unmarked one, so that on return (true) {@code foundPred} was unmarked and pointed to
     * {@code foundCurr}, which is unmarked with {@code foundKey >= key} (the tail when no such node), and
     * {@code foundNext} is its successor; without it (a {@link #contains}) it passes over marked nodes and changes
     * nothing.
     *
     * @return {@code TRUE} when the node stopped at holds {@code key} unmarked, else {@code FALSE};
     *         {@code RESTART} when the guard's lease ran out
     */
    @Override
    int walk(Guard g, long key, boolean help) {
        MemorySegment buf = thread.buffer();
        nodes.startWalk();
        walk:
        while (true) {
            long pred = head;
            long curr = readNext(head);
            while (true) {
                if (!g.valid()) {
                    return RESTART;
                }
                if (curr == tail) {
                    found(pred, tail, Long.MAX_VALUE, RemotePtr.NULL);
                    return FALSE;
                }
                if (!nodes.read(curr, BUF_READ, NODE_BYTES)) {
                    continue walk;
                }
                if (!g.valid()) {
                    return RESTART;
                }
                if (!nodes.selfCheck(curr, buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.SELF))) {
                    continue walk;
                }
                long k = buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.KEY);
                long next = buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.NEXT);
                if (help && ListLayout.marked(next)) {
                    long succ = ListLayout.unmarked(next);
                    if (thread.compareAndSwap(RemotePtr.offset(pred, ListLayout.NEXT), curr, succ) != curr) {
                        continue walk;
                    }
                    reclaimer.retire(curr, NODE_BYTES);
                    curr = succ;
                    continue;
                }
                if (k >= key) {
                    found(pred, curr, k, next);
                    return k == key && !ListLayout.marked(next) ? TRUE : FALSE;
                }
                pred = curr;
                curr = ListLayout.unmarked(next);
            }
        }
    }

    private void found(long pred, long curr, long key, long next) {
        foundPred = pred;
        foundCurr = curr;
        foundKey = key;
        foundNext = next;
    }

    /** READs the head sentinel and returns its successor (the head is never marked). */
    private long readNext(long node) {
        nodes.readHead(node, BUF_READ, NODE_BYTES, BUF_HEADER);
        return ListLayout.unmarked(thread.buffer().get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.NEXT));
    }
}
