package io.remus.ds.set;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockTimeoutException;
import io.remus.alock.LockUsageException;
import io.remus.alock.LockWord;
import io.remus.alock.WaitDeadline;
import io.remus.alock.kind.LockKind;
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

import static io.remus.ds.set.GuardedCall.FALSE;
import static io.remus.ds.set.GuardedCall.RESTART;
import static io.remus.ds.set.GuardedCall.TRUE;

/**
 * The lazy list over one-sided RDMA: a sorted linked list of {@code long} keys with a remus-alock lock per
 * node, wait-free {@link #contains}, and inserts and removes that lock two nodes (S. Heller, M. Herlihy,
 * V. Luchangco, M. Moir, W. Scherer, N. Shavit, "A Lazy Concurrent List-Based Set Algorithm", OPODIS 2005),
 * as the Remus C++ library ships it (its {@code LazyListSet}: the mark in bit 0 of {@code next}, a lock in
 * every node, sentinels for head and tail), with one RDMA READ per visited node where Remus issues one per
 * field.
 *
 * <pre>
 *  root block (written once before its pointer is known):
 *  -24 the allocator's block header   -16 the handles word   -8 the identity word ({@link StructureIdentity})
 *  root (32 bytes; the set's pointer points here):
 *  +0 head   +8 tail   +16 the tail's block   +24 lock kind (the ordinal of its nodes' LockKind)
 *
 *  node data (32 bytes; a node pointer points here):
 *  +0  self    the node pointer itself: a node read through a torn pointer shows another value
 *  +8  key     written once, before the node is linked (the sentinels: Long.MIN_VALUE, Long.MAX_VALUE)
 *  +16 next    the successor's node pointer | 1 when the node is logically removed (the mark)
 *  +24 block   the allocation the node lies in
 * </pre>
 * <p><b>Layout.</b> A node is one 128-byte block
 * holding its 32 bytes of data {@code {self, key, next, block}} and a {@link LockWord} of the kind chosen at
 * {@link #create}: the lock word is the first 64-byte boundary after the block's start, and the data lies
 * before it when it fits there (the block starts at most 32 bytes past a 64-byte boundary), else right after
 * it. A node pointer points at the data; the lock word is found from its {@code block} word. Once a node is
 * linked its {@code next} word changes only by RDMA compare-and-swap (a WRITE may land torn), by a thread that
 * holds the locks of the node and of its successor. Every node lies on the home node chosen at {@link #create}:
 * a new node's WRITE and the compare-and-swap that links it, or a remove's two compare-and-swaps, go in one
 * doorbell batch on one queue pair, which executes them in order at the target (one round trip).
 *
 * <p><b>The algorithm.</b> A walk READs the head and then each node whole (key, next and mark in one READ),
 * stopping at the first node whose key is {@code >= k} (the tail sentinel's pointer is known, so it is never
 * read); marked nodes are walked through. {@link #contains} answers from that node: present when its key is
 * {@code k} and it is unmarked. {@link #insert} and {@link #remove} lock the predecessor and then that node
 * (always in list order, so they cannot deadlock), READ both again in one batch and validate: the predecessor
 * unmarked and pointing to the node, the node unmarked; when validation fails they unlock and walk again.
 * Then an insert of an absent key links a new node (WRITE of the node with a free lock word, compare-and-swap
 * of the predecessor's {@code next}); a remove of a present key marks the node (compare-and-swap of its
 * {@code next}) and unlinks it (compare-and-swap of the predecessor's {@code next}), in one batch, unlocks,
 * and retires the node through the reclaimer.
 *
 * <p><b>Torn pointers.</b> A READ that races a compare-and-swap can return a pointer half old and half new on
 * some devices (Soft-RoCE): a node whose {@code self} word is not the pointer it was read by is such a read,
 * and so is a pointer that names no bytes of a segment (halves of two pointers that differ in their upper 32
 * bits), which is not followed; the walk starts over from the head (outside the bounds below); 3 such reads through the same pointer
 * within one walk and its restarts (good reads between do not reset the count) are a corrupted list
 * ({@link CorruptedMemoryException}).
 *
 * <p><b>Progress and cost</b> per call; {@code v} is the number of nodes a walk visits (the head, the nodes
 * with smaller keys, and the node found unless it is the tail: at most {@code n + 1} with {@code n} nodes in
 * the list, marked ones included); {@code L} the operations of one lock acquire and release of the kind
 * (spin, from another node: one compare-and-swap per attempt and one to release; ALock on the home node: CPU
 * atomics only; see remus-alock):
 * <table>
 *   <caption>per call, besides the allocator's, the reclaimer's and the locks' own work</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #contains}</td><td>wait-free while the guard holds its lease (visits each node once, keys
 *       rising)</td><td>{@code v} READs of 32 bytes and the root header's READ of 8 bytes (in one batch with the
 *       head's), nothing else</td><td>{@code v}</td></tr>
 *   <tr><td>{@link #insert}</td><td>blocking (deadlock-free; a spin lock's wait bounded by half the lease
 *       left, the whole call by the lock context's acquire timeout; see leases below)</td>
 *       <td>per attempt: {@code v} READs (the first attempt's head READ batched with the root header's), 2 lock
 *       acquires and releases, 1 batch of 2 READs (1 when the node
 *       found is the tail); when the key is absent, 1 batch of a WRITE (128 bytes) and a compare-and-swap, and
 *       an allocation unless a spare node is kept</td>
 *       <td>expected (validation passes) {@code v + 2} when it links a node, {@code v + 1} when the key is
 *       present, plus the locks' (spin from another node: 4 compare-and-swaps, one round trip each); worst case
 *       one more attempt without the last batch per validation that another thread's change made fail,
 *       unbounded</td></tr>
 *   <tr><td>{@link #remove}</td><td>blocking, as insert</td>
 *       <td>per attempt: as insert, and when the key is present 1 batch of 2 compare-and-swaps instead of the
 *       WRITE</td><td>{@code v + 2} when it removes the key, {@code v + 1} when absent, plus the locks'; worst case
 *       as insert</td></tr>
 * </table>
 * On the home node the READs of a walk are CPU loads; batches and compare-and-swaps use the loopback queue
 * pair. The reclaimer adds its own cost ({@link io.remus.ds.reclaim.EpochReclaimer}: none on a memory node for
 * enter and exit, none for a retire inside a guard).
 *
 * <p><b>Destroyed sets.</b> Every call READs the root's handles word (8 bytes) in one batch with its first
 * READ, the head sentinel's, the header's posted after the head's, and checks it
 * ({@link StructureIdentity#check}) before it uses anything that batch read: 1 READ more per call, no round trip
 * (on the home node a CPU load after the head's). No block of the set is freed while any handle on
 * it is open ({@link StructureIdentity}: the last handle of a destroyed set frees it), so a call that starts after
 * any handle's destroy returned throws {@link ClosedSetException} and a call concurrent with a destroy completes on
 * the set's memory, intact, before or after it.
 *
 * <p><b>Linearizable</b> with respect to a set ({@code io.remus.check.spec.SetSpec}), as in the paper: a
 * successful insert at its linking compare-and-swap, a successful remove at its marking compare-and-swap, a
 * failed insert or remove at its validating READ (both nodes locked, so the answer cannot change until it
 * unlocks); contains returning true at the READ of the unmarked node with the key, returning false at the READ
 * of the node that decided it or, when that node was marked or the key's node was never reached, just before
 * the key's node was marked.
 *
 * <p><b>Reclamation and leases.</b> Every call runs inside a guard of the thread's reclaimer, checked after
 * every READ and after each lock is taken; a call whose lease ran out unlocks and starts over in a fresh
 * guard (one inside an outer guard of the caller whose lease ran out throws {@link LeaseExpiredException}).
 * A lock word lies in its node, so it may be touched only while the node cannot have been freed: while the
 * lease of the guard in which the node was read holds, or while this thread holds the node's lock and found
 * the node linked and unmarked (nobody removes a node without its lock). Hence, for every configuration of
 * lease and lock timeout:
 * <ul>
 *   <li>a spin lock's wait ends, at the latest, when half of what was left of the lease at its start is used
 *       up ({@link Lock#lock(io.remus.alock.WaitDeadline)}); a wait cut there, or a lock got after the lease
 *       ran out, makes the call start over in a fresh guard, which walks from the head again and so never
 *       reaches a node that was removed meanwhile;</li>
 *   <li>a queue lock's (MCS, ALock) waiter keeps its place in the queue rather than leave it at every lease
 *       cut and queue again behind newcomers. So it keeps its guard's lease renewed
 *       while it waits ({@link Guard#renewLease()}, once less than half of what was left at the start of the
 *       wait remains; {@link #leaseRenewals()}) and waits until it gets the lock or the call's deadline
 *       passes. The node cannot be freed while the lease holds; reclamation is held back for that wait, at
 *       most the lock context's acquire timeout;</li>
 *   <li>a lock got while the lease held is released even after the lease ran out: every kind's release
 *       changes the word only by a compare-and-swap that expects this thread's own value, which a freed and
 *       reused block does not hold, and a release that fails so drops its handle;</li>
 *   <li>a lock got only after the lease ran out (this thread stalled, for longer than half the lease left,
 *       between its last attempt or renewal and the check after it) may lie in a block freed and reused
 *       meanwhile, and is released at once, as above, before the call starts over ({@link #lateLocks()}). A
 *       spin lock's release is the compare-and-swap from this thread's value to unlocked: on a live node that
 *       frees the lock, and on a reused block it puts back the word the acquiring compare-and-swap found
 *       there (unlocked), unless the block's new owner changed it since, which makes the release fail and
 *       change nothing. A queue lock's release hands the lock to the successor that linked into this
 *       thread's queue node (a write into the successor's queue node, not into the block), or else swaps the
 *       word's tail from this thread's queue node to empty; on a reused block, whose word no longer names
 *       this thread's node, that compare-and-swap fails, the release marks its own queue node passed on (a word
 *       of this thread's node, not of the block) without waiting, and no successor ever acknowledges it, so
 *       that queue node is never reused (the pool allocates more). One write is not guarded so: an ALock waiter
 *       that leads its cohort once the queue hands it the lock WRITEs the word's turn ({@code victim}) before
 *       it can check its lease, so a waiter that stalled past its lease on a node removed, freed and reused
 *       meanwhile can change that word of the new block.</li>
 * </ul>
 * <b>Progress</b> of insert and remove is blocking: a holder that stalls makes the calls that need its locks
 * wait (spin locks: and start over, each wait within its lease; queue locks: renewing their leases) until the
 * lock context's acquire timeout has passed since the call began; then the call throws
 * {@link LockTimeoutException}. A holder that resumes completes or starts over as above. A holder that died
 * leaves its locks held for good: the calls that need them time out. A queue lock's (MCS, ALock) waiter cut
 * short by the timeout leaves the queue ({@link io.remus.alock.mcs.QueueLock}): the lock word and the handle
 * stay usable, and every kind recovers as soon as the holder releases.
 *
 * <p><b>A process that dies holding a node's lock</b> (killed between its lock acquires and its releases)
 * leaves the lock word holding its value for good: no lease, reclaimer or other caller ever clears a lock
 * word, and the node cannot be removed, since a remove needs its lock. What the other callers see:
 * <ul>
 *   <li>{@link #contains} takes no lock and is not affected, for any key;</li>
 *   <li>an insert or remove whose predecessor or found node is a dead-locked node (the keys above the key
 *       of the node before the first one the dead caller locked, up to the key of the node after the last one
 *       it locked) waits for that lock; on a spin lock with a reclaimer lease each wait ends at half the lease left
 *       and the call starts over from the head, finds the same node (it is still linked) and waits again (a
 *       queue lock's waiter renews its lease and waits on), until the lock context's
 *       acquire timeout has passed since the call began: then it throws {@link LockTimeoutException}, having
 *       taken no effect (nothing is written before both locks are held, and a lock it got is released).
 *       Every later such call does the same: each costs the full acquire timeout. With
 *       {@link io.remus.alock.LockOptions#acquireTimeout()} {@code FOREVER} such a call never returns;</li>
 *   <li>calls on other keys complete as usual; so does reclamation: the dead process's reclaimer slot is
 *       passed once its lease ran out ({@link io.remus.ds.reclaim.EpochOptions#withLease}), and the nodes it
 *       locked stay linked, so no freed block holds a live lock word.</li>
 * </ul>
 * With a queue-lock kind (MCS, ALock) each caller that gave up waiting behind the dead holder leaves a queue
 * node of its own node's memory behind it, never to be reused (its pool allocates more), and is otherwise
 * unaffected. ({@code LazyListLockLeaseTest}
 * shows this on the simulator; {@code StructuresKilledProcessOnVerbsTest} kills a process on rxe.)
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the root (with its handles and identity words in front) and both
 * sentinels on one memory node and writes them before the root is known; others {@link #attach} with
 * {@link #ptr()} (one READ, which also gives the lock kind, and refuses another kind's root and a destroyed set).
 * {@link #destroy} marks the set destroyed, and the last handle to close frees it ({@link #close()}). Lock handles are opened as nodes are locked and kept in a small cache per handle. All
 * handles of a set use reclaimers of one kind. The thread's registered buffer is scratch ({@link #BUFFER_BYTES}
 * bytes from offset 0) during a call. One instance per compute thread, used by its owner, like the lock
 * context.
 */
public final class LazyListSet extends ListSetHandle {
    /** Bytes of a node's block (data and lock word). */
    public static final int NODE_BYTES = 128;
    /** Scratch bytes of the thread's buffer a call uses, from offset 0. */
    public static final int BUFFER_BYTES = 384;

    /** Where the root's handles word lands, read with the head ({@link ListNodes#readHead}). */
    private static final long BUF_HEADER = 0;
    private static final long BUF_READ = 64;
    private static final long BUF_PRED = 96;
    private static final long BUF_CURR = 128;
    private static final long BUF_CAS = 160;
    private static final long BUF_NEW = 256;
    private static final int LOCK_CACHE = 64;
    /** A locked attempt's validation failed: the next one walks again in the same guard. */
    private static final int RETRY = -3;

    private final LockContext context;
    private final LockKind kind;
    private final long tailBlock;
    private final Lock[] locks = new Lock[LOCK_CACHE];
    private final GuardedCall.Attempt insertAttempt = (g, key) -> tryLocked(g, key, true);
    private final GuardedCall.Attempt removeAttempt = (g, key) -> tryLocked(g, key, false);
    private final GuardedCall.Attempt containsAttempt = this::tryContains;
    private long callDeadline;
    private long leaseCuts;
    private long lateLocks;
    private long leaseRenewals;
    private final WaitDeadline waitDeadline = this::waitDeadline;
    private Guard waitGuard;
    private long renewBelowMillis;
    private long cutBelowMillis;
    private boolean cutByLease;
    private long foundPred;
    private long foundPredBlock;
    private long foundCurr;
    private long foundCurrBlock;

    private LazyListSet(LockContext context, Reclaimer reclaimer, LockKind kind, StructureIdentity identity, long head,
                        long tail, long tailBlock) {
        super(context.thread(), reclaimer, identity, head, tail, NODE_BYTES);
        this.context = context;
        this.kind = kind;
        this.tailBlock = tailBlock;
    }

    /**
     * The lock word of the node in {@code block}: the first 64-byte boundary after the block's start.
     *
     * @param block a node's block
     * @return its lock word
     */
    static long lockWordOf(long block) {
        long misalignment = RemotePtr.address(block) & (LockWord.SIZE - 1);
        return RemotePtr.offset(block, LockWord.SIZE - misalignment);
    }

    /**
     * Where the data of the node in {@code block} lies: at the block's start when 32 bytes fit before the
     * lock word, else right after it.
     *
     * @param block a node's block
     * @return its node pointer
     */
    static long dataOf(long block) {
        long misalignment = RemotePtr.address(block) & (LockWord.SIZE - 1);
        return misalignment <= LockWord.SIZE - ListLayout.DATA_BYTES ? block : RemotePtr.offset(lockWordOf(block), LockWord.SIZE);
    }

    /**
     * Allocates an empty set on memory node {@code nodeId} whose nodes carry locks of {@code kind}: three
     * allocations (root, head, tail), the root's identity word (a CPU load and store on the creator's own node,
     * else 1 READ and 1 WRITE) and three WRITEs. Every node of the set is allocated on that node.
     *
     * @param context   the creator's lock context (its compute thread's)
     * @param reclaimer the creator's reclaimer (its thread's)
     * @param kind      the lock every node has
     * @param nodeId    a memory node
     * @return the creator's handle
     * @throws BadArgumentException when the thread's buffer is smaller than {@link #BUFFER_BYTES}
     */
    public static LazyListSet create(LockContext context, Reclaimer reclaimer, LockKind kind, int nodeId) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(reclaimer, "reclaimer");
        Objects.requireNonNull(kind, "kind");
        ComputeThread thread = context.thread();
        ListLayout.requireBuffer(thread, BUFFER_BYTES);
        StructureIdentity identity = ListLayout.allocateRoot(thread, StructureKind.LAZY_LIST_SET, nodeId);
        long tb = thread.allocator().allocate(NODE_BYTES, nodeId);
        long hb = thread.allocator().allocate(NODE_BYTES, nodeId);
        long t = dataOf(tb);
        long h = dataOf(hb);
        writeNode(thread, tb, Long.MAX_VALUE, RemotePtr.NULL);
        writeNode(thread, hb, Long.MIN_VALUE, t);
        ListLayout.writeRoot(thread, identity.ptr(), h, t, tb, kind.ordinal());
        return new LazyListSet(context, reclaimer, kind, identity, h, t, tb);
    }

    /**
     * A handle on a set another thread created: one READ of the root, with the block header, the handles word and
     * the identity word in front of it (56 bytes), and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}); the root names the lock kind.
     *
     * @param context   the caller's lock context (its compute thread's)
     * @param reclaimer the caller's reclaimer (its thread's), of the same kind as the other handles'
     * @param ptr       what {@link #ptr()} returned
     * @return the handle
     * @throws WrongStructureException when the pointer is another kind of structure's root, or no structure's
     * @throws ClosedSetException      when the set there was destroyed
     * @throws BadArgumentException    when the pointer is null or misaligned, the root names no lock kind, or the
     *                                 thread's buffer is smaller than {@link #BUFFER_BYTES}
     */
    public static LazyListSet attach(LockContext context, Reclaimer reclaimer, long ptr) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(reclaimer, "reclaimer");
        ComputeThread thread = context.thread();
        ListLayout.requireBuffer(thread, BUFFER_BYTES);
        long[] w = new long[ListLayout.ROOT_BYTES / 8];
        LockKind[] kinds = LockKind.values();
        StructureIdentity identity = ListLayout.attachRoot(thread, StructureKind.LAZY_LIST_SET, ptr, w, () -> {
            long lockKind = ListLayout.word(w, ListLayout.LOCK_KIND);
            if (lockKind < 0 || lockKind >= kinds.length) {
                throw new BadArgumentException("the LazyListSet root at " + RemotePtr.toString(ptr) + " names lock kind "
                        + lockKind + ", not one of 0.." + (kinds.length - 1));
            }
        });
        long lockKind = ListLayout.word(w, ListLayout.LOCK_KIND);
        return new LazyListSet(context, reclaimer, kinds[(int) lockKind], identity, ListLayout.word(w, ListLayout.HEAD),
                ListLayout.word(w, ListLayout.TAIL), ListLayout.word(w, ListLayout.TAIL_BLOCK));
    }

    /** Builds a node image in the buffer (free lock word, data) and WRITEs it whole into {@code block}. */
    private static void writeNode(ComputeThread thread, long block, long key, long next) {
        fillNode(thread.buffer(), block, key, next);
        thread.write(block, BUF_NEW, NODE_BYTES);
    }

    private static void fillNode(MemorySegment buf, long block, long key, long next) {
        buf.asSlice(BUF_NEW, NODE_BYTES).fill((byte) 0);
        long data = dataOf(block);
        ListLayout.putData(buf, BUF_NEW + (RemotePtr.address(data) - RemotePtr.address(block)), data, key, next, block);
    }

    /** {@return the lock kind of the set's nodes} */
    public LockKind lockKind() {
        return kind;
    }

    /**
     * Adds {@code key} when absent (blocking; see the class for the cost): expected {@code v} READs (and the root
     * header's, with the head's), two locks, one batch of READs and, when absent, one batch of a WRITE and a
     * compare-and-swap.
     *
     * @throws LockTimeoutException when the locks were not acquired within the context's acquire timeout from
     *                              the call's start (restarts included)
     */
    @Override
    public boolean insert(long key) {
        return run(key, true);
    }

    /**
     * Removes {@code key} when present (blocking; see the class for the cost): expected {@code v} READs (and the root
     * header's, with the head's), two locks, one batch of READs and, when present, one batch of two compare-and-swaps.
     *
     * @throws LockTimeoutException as {@link #insert}
     */
    @Override
    public boolean remove(long key) {
        return run(key, false);
    }

    private boolean run(long key, boolean insert) {
        ListLayout.checkKey(key);
        nodes.startCall();
        if (insert) {
            nodes.spare();
        }
        callDeadline = ThreadTime.nanoTime() + context.options().acquireTimeout().toNanos();
        return GuardedCall.run(reclaimer, insert ? insertAttempt : removeAttempt, key);
    }

    /**
     * Tells whether {@code key} is present (wait-free while the guard holds its lease; see the class): {@code v}
     * READs, at most {@code n + 1} in a list of {@code n} nodes, the root header's READ in the head's batch, and
     * nothing else.
     */
    @Override
    public boolean contains(long key) {
        return nodes.call(reclaimer, containsAttempt, key, false);
    }

    private int tryContains(Guard g, long key) {
        if (!locate(g, key)) {
            return RESTART;
        }
        if (foundCurr == tail) {
            return FALSE;
        }
        MemorySegment buf = thread.buffer();
        return buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.KEY) == key
                && !ListLayout.marked(buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.NEXT)) ? TRUE : FALSE;
    }

    /** Locked attempts in one guard until one is done or the lease runs out: TRUE, FALSE or RESTART. */
    private int tryLocked(Guard g, long key, boolean insert) {
        while (true) {
            int r = attempt(g, key, insert);
            if (r != RETRY) {
                return r;
            }
        }
    }

    /**
     * The walk: on return (true) {@code foundCurr} is the first node with a key {@code >= key} (its data in
     * the buffer at {@code BUF_READ} unless it is the tail) and {@code foundPred} the node read before it.
     * Returns false when the guard's lease ran out.
     */
    private boolean locate(Guard g, long key) {
        MemorySegment buf = thread.buffer();
        nodes.startWalk();
        walk:
        while (true) {
            long pred = head;
            nodes.readHead(head, BUF_READ, ListLayout.DATA_BYTES, BUF_HEADER);
            long predBlock = buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.BLOCK);
            long curr = ListLayout.unmarked(buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.NEXT));
            while (true) {
                if (!g.valid()) {
                    return false;
                }
                if (curr == tail) {
                    found(pred, predBlock, tail, tailBlock);
                    return true;
                }
                if (!nodes.read(curr, BUF_READ, ListLayout.DATA_BYTES)) {
                    continue walk;
                }
                if (!g.valid()) {
                    return false;
                }
                long self = buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.SELF);
                if (!nodes.selfCheck(curr, self)) {
                    continue walk;
                }
                long currBlock = buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.BLOCK);
                if (buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.KEY) >= key) {
                    found(pred, predBlock, curr, currBlock);
                    return true;
                }
                pred = curr;
                predBlock = currBlock;
                curr = ListLayout.unmarked(buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.NEXT));
            }
        }
    }

    private void found(long pred, long predBlock, long curr, long currBlock) {
        foundPred = pred;
        foundPredBlock = predBlock;
        foundCurr = curr;
        foundCurrBlock = currBlock;
    }

    /** One locked attempt: TRUE or FALSE (done), RETRY (validation failed), RESTART (the lease ran out). */
    private int attempt(Guard g, long key, boolean insert) {
        if (!locate(g, key)) {
            return RESTART;
        }
        final long pred = foundPred;
        final long curr = foundCurr;
        final long currBlock = foundCurrBlock;
        Lock predLock = lockFor(lockWordOf(foundPredBlock));
        if (!acquire(g, predLock)) {
            return RESTART;
        }
        try {
            Lock currLock = lockFor(lockWordOf(currBlock));
            if (!acquire(g, currLock)) {
                return RESTART;
            }
            try {
                return locked(g, key, insert, pred, curr, currBlock);
            } finally {
                release(g, currLock);
            }
        } finally {
            release(g, predLock);
        }
    }

    /**
     * Takes {@code lock}, the lock of a node read in {@code g}, no later than the call's deadline. A spin lock's
     * wait also ends when half of what was left of the lease at its start is used up (the other half is the
     * margin for checking it after): the call restarts in a fresh guard. A queue lock's waiter keeps its place in
     * the queue rather than leave at every lease cut, so it keeps its lease renewed while it waits (once less
     * than half of what was left at the start remains) and stops the wait only at the call's deadline. True when
     * it holds the lock and the lease held when it got it. False when the lease ran out or cut the wait: the
     * operation restarts in a fresh guard. A lock got only after the lease ran out (this thread stalled past its
     * renewal) may lie in freed and reused memory: it is released at once, and the call restarts.
     *
     * @throws LockTimeoutException when the call's deadline cut the wait
     */
    private boolean acquire(Guard g, Lock lock) {
        long left = g.leaseLeftMillis();
        if (left <= 0) {
            return false;
        }
        waitGuard = g;
        boolean renews = left != Long.MAX_VALUE && kind != LockKind.SPIN;
        renewBelowMillis = renews ? Math.max(1, left / 2) : -1;
        cutBelowMillis = renews ? 0 : Math.max(1, left / 2);
        cutByLease = false;
        try {
            lock.lock(waitDeadline);
        } catch (LockTimeoutException e) {
            drop(lock);
            if (!cutByLease) {
                throw e;
            }
            leaseCuts++;
            return false;
        } finally {
            waitGuard = null;
        }
        if (!g.valid()) {
            lateLocks++;
            release(g, lock);
            return false;
        }
        return true;
    }

    /**
     * The deadline of the lock wait in progress ({@link #acquire}), asked by the lock on every pause: the call's
     * deadline, or (a spin lock's wait, {@link #cutBelowMillis} positive) now, once less than that is left of
     * the lease. A queue lock's wait renews the lease once less than {@link #renewBelowMillis} is left, while
     * it holds; after a renewal, once less than half of the renewed lease is left.
     */
    private long waitDeadline(long now) {
        long left = waitGuard.leaseLeftMillis();
        if (left == Long.MAX_VALUE) {
            return callDeadline;
        }
        if (left < renewBelowMillis && left > 0 && waitGuard.renewLease()) {
            leaseRenewals++;
            left = waitGuard.leaseLeftMillis();
            renewBelowMillis = Math.max(renewBelowMillis, left / 2);
        }
        if (cutBelowMillis > 0 && left < cutBelowMillis) {
            cutByLease = true;
            return now - 1;
        }
        return callDeadline;
    }

    /**
     * Releases a lock {@link #acquire} got, while the lease held or (a late lock) after it ran out. The release
     * changes the word only with a compare-and-swap expecting this thread's own value, so it cannot change a
     * word of a block that was freed and reused meanwhile (possible only once the lease ran out, for a node
     * already removed); when it fails that way, the handle is dropped.
     */
    private void release(Guard g, Lock lock) {
        if (g.valid()) {
            lock.unlock();
            return;
        }
        try {
            lock.unlock();
        } catch (LockUsageException | LockTimeoutException e) {
            drop(lock);
        }
    }

    /** Forgets the cached handle {@code lock} (it is broken, or holds a word that may no longer be a lock). */
    private void drop(Lock lock) {
        int slot = slotOf(lock.word());
        if (locks[slot] == lock) {
            locks[slot] = null;
        }
    }

    private int locked(Guard g, long key, boolean insert, long pred, long curr, long currBlock) {
        MemorySegment buf = thread.buffer();
        boolean atTail = curr == tail;
        if (atTail) {
            thread.read(pred, BUF_PRED, ListLayout.DATA_BYTES);
        } else {
            thread.batch().read(pred, BUF_PRED, ListLayout.DATA_BYTES).read(curr, BUF_CURR, ListLayout.DATA_BYTES).execute();
        }
        if (!g.valid()) {
            return RESTART;
        }
        long predNext = buf.get(ValueLayout.JAVA_LONG, BUF_PRED + ListLayout.NEXT);
        long currNext = atTail ? RemotePtr.NULL : buf.get(ValueLayout.JAVA_LONG, BUF_CURR + ListLayout.NEXT);
        if (predNext != curr || ListLayout.marked(currNext)) {
            return RETRY;
        }
        boolean present = !atTail && buf.get(ValueLayout.JAVA_LONG, BUF_CURR + ListLayout.KEY) == key;
        long predNextWord = RemotePtr.offset(pred, ListLayout.NEXT);
        if (insert) {
            if (present) {
                return FALSE;
            }
            long block = nodes.spare();
            long node = dataOf(block);
            fillNode(buf, block, key, curr);
            thread.batch()
                    .write(block, BUF_NEW, NODE_BYTES)
                    .compareAndSwap(predNextWord, curr, node, BUF_CAS)
                    .execute();
            expect(predNextWord, curr, buf.get(ValueLayout.JAVA_LONG, BUF_CAS));
            nodes.spareLinked();
            return TRUE;
        }
        if (!present) {
            return FALSE;
        }
        long currNextWord = RemotePtr.offset(curr, ListLayout.NEXT);
        thread.batch()
                .compareAndSwap(currNextWord, currNext, currNext | ListLayout.MARK, BUF_CAS)
                .compareAndSwap(predNextWord, curr, currNext, BUF_CAS + 8)
                .execute();
        expect(currNextWord, currNext, buf.get(ValueLayout.JAVA_LONG, BUF_CAS));
        expect(predNextWord, curr, buf.get(ValueLayout.JAVA_LONG, BUF_CAS + 8));
        reclaimer.retire(currBlock, NODE_BYTES);
        return TRUE;
    }

    /** A compare-and-swap under both locks cannot fail unless something other than this set changed the word. */
    private void expect(long word, long expected, long found) {
        if (found != expected) {
            throw new CorruptedMemoryException(word, found, "a next word of the LazyListSet at " + RemotePtr.toString(root)
                    + " changed under its node's lock: expected " + RemotePtr.toString(expected));
        }
    }

    /** A handle on the lock word, from the cache when it holds one for that word. */
    private Lock lockFor(long word) {
        int slot = slotOf(word);
        Lock cached = locks[slot];
        if (cached != null && cached.word() == word) {
            return cached;
        }
        Lock opened = kind.open(context, word);
        locks[slot] = opened;
        return opened;
    }

    private static int slotOf(long word) {
        return (int) ((RemotePtr.address(word) >>> 6) & (LOCK_CACHE - 1));
    }

    /**
     * Lock waits of this handle that the guard's lease cut short (the call then started over in a fresh
     * guard), so that tests can tell that a wait outlasting the lease was not carried on.
     *
     * @return the count
     */
    public long leaseCutWaits() {
        return leaseCuts;
    }

    /**
     * Leases this handle's queue-lock waits renewed ({@link Guard#renewLease()}) so as not to leave a waiter's
     * queue node behind, so that tests can tell a wait outlasted the lease and was carried on.
     *
     * @return the count
     */
    public long leaseRenewals() {
        return leaseRenewals;
    }

    /**
     * Locks this handle got only after its guard's lease had run out, and released at once (see the class), so
     * that tests can tell this rare case happened.
     *
     * @return the count
     */
    public long lateLocks() {
        return lateLocks;
    }

    /** Frees every node linked from the head, marked ones included: one READ of a node's data and one free per node. */
    @Override
    void freeNodes() {
        long node = head;
        MemorySegment buf = thread.buffer();
        while (node != RemotePtr.NULL) {
            thread.read(node, BUF_READ, ListLayout.DATA_BYTES);
            long next = ListLayout.unmarked(buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.NEXT));
            thread.allocator().deallocate(buf.get(ValueLayout.JAVA_LONG, BUF_READ + ListLayout.BLOCK), NODE_BYTES);
            node = next;
        }
    }
}
