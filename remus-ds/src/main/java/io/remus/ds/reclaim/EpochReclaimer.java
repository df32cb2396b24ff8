package io.remus.ds.reclaim;

import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.config.NodeRange;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * Epoch-based reclamation over RDMA with leases: Fraser's epochs (K. Fraser, "Practical
 * lock-freedom", PhD thesis, Cambridge, 2004) with the announcements in each node's own memory, a
 * global epoch in the first memory node's memory, and a lease on every announcement so that a
 * stalled or dead thread stops holding reclamation back once its lease runs out. Remus itself
 * leaves reclamation open and frees only after a cluster-wide barrier
 * ({@link BarrierReclaimer}).
 *
 * <h2>Where things live</h2>
 * Each memory node {@code m} has one announcement table ({@link EpochTable}: a hint of the global
 * epoch, then one announcement word per slot, contiguous, then the slots' owner words), a block of
 * {@code m}'s memory found through {@code m}'s {@link ControlBlock#RECLAIMER_TABLE} word: 0 until the
 * first reclaimer that needs it allocates it and publishes it by compare-and-swap (a reclaimer that
 * loses the race frees its copy and uses the winner's). A thread's slot is in the table of its own
 * node when that is a memory node; a compute node that is not a memory node uses the table of memory
 * node {@code first + (id mod count)} of the configured memory nodes, and its threads change their
 * announcements there by RDMA compare-and-swap instead of a local store. The global epoch is a word
 * of the first memory node's table. Tables are never freed: they live as long as the cluster, and a
 * slot whose thread died stays taken ({@link EpochOptions#slots()} bounds the threads a table serves
 * over the cluster's life).
 *
 * <p>A dead compute-only node's threads stop holding reclamation back once their leases run out:
 * their slots live on a memory node. A memory node that stops answering makes every pass fail with
 * the compute thread's {@link io.remus.core.error.RemoteOperationException} (its table cannot be read, and
 * the blocks in its memory are lost with it); a deployment that must survive a node's death keeps
 * memory on nodes that outlive the compute processes.
 *
 * <h2>The protocol</h2>
 * <ul>
 *   <li>{@link #enter()}: take the clock, read the table's hint {@code h}, announce
 *       {@code {h, active, clock + lease}} in the thread's slot, then read the hint again and
 *       announce again until it did not change. The hint is never above the global epoch and never
 *       more than one below it (a reclaimer raises its table's hint to the global epoch as soon as
 *       it knows the table, and a pass raises every hint to the epoch it read before it advances), so
 *       after enter the thread is at most one epoch behind, and while its lease holds the global
 *       epoch cannot get further ahead. That is also why 21 bits of the epoch in the announcement
 *       are enough.</li>
 *   <li>closing the guard: announce {@code {epoch, inactive}}; then a pass when the thread holds at
 *       least {@link EpochOptions#passBytes()} unreclaimed (and, after a pass that left that much,
 *       again only once a quarter of it more was retired, so that a held-back epoch does not cost a
 *       pass per operation); and, only where a limit is set ({@link EpochOptions#limitBytes()}, none by
 *       default), passes until it holds fewer than that (for at most {@link EpochOptions#limitWait()}).</li>
 *   <li>{@link #retire}: the block waits for epoch {@code r + 2}, where {@code r} is the announced
 *       epoch + 1 when retired inside a guard whose lease holds (the global epoch cannot pass that
 *       while the lease holds), else the global epoch, read.</li>
 *   <li>a pass: take the clock; read the global epoch {@code g}; read every table's hint and
 *       announcements (two READs per other memory node, see below); raise every hint below {@code g} to {@code g}; if no
 *       announcement is active, unexpired and at another epoch than {@code g}, advance the global
 *       epoch to {@code g + 1} by compare-and-swap and raise the hints to it; free every retired
 *       block whose epoch + 2 is at most the global epoch.</li>
 * </ul>
 *
 * <h2>What is safe</h2>
 * A thread that read a reference to block {@code b} inside a guard before {@code b} was unlinked
 * announced its epoch {@code e} before reading it, and {@code e} is at most the retirement epoch
 * {@code r}. Freeing {@code b} takes the global epoch from {@code r + 1} to {@code r + 2}, a step
 * taken after the unlink by a pass that read the announcements afterwards and found the thread
 * inactive, at {@code r + 1}, or with its lease run out. So while the guard is open and its lease
 * holds, {@code b} is not freed: every reference read inside a valid guard stays readable, and is
 * not reused, until the guard closes. Once the lease ran out, {@link Guard#valid()} says so (on this
 * node's clock) and the operation restarts or revalidates by incarnation
 * ({@link Guard#validate(long, long)}). A guard that renews its lease ({@link Guard#renewLease()}) announces
 * its epoch again with a deadline a lease from now; the renewal counts only when its store completed while
 * the old lease still held on this node's clock, so every pass that counted the old lease as run out read the
 * announcement after the renewal (a renewal that completed later announces the old deadline again and leaves
 * the guard invalid). A pass takes the clock before it reads the announcements,
 * and counts a lease as run out only {@link EpochOptions#clockSkew()} after its deadline: correct as
 * long as the nodes' clocks differ by at most that and are never stepped back (on one host,
 * {@link System#currentTimeMillis()} of every process is the same clock: skew 0).
 *
 * <h2>Unreclaimed memory</h2>
 * The lease and the passes bound it, without making anyone wait. A block is freed by the pass after the
 * global epoch advanced twice past its retirement; closing a guard runs a pass once the thread holds
 * {@link EpochOptions#passBytes()}, and again after each further quarter of it while the epoch is held
 * back. With every other thread's guards short the epoch advances within about three of their guards, so
 * a thread holds about {@code passBytes} plus what it retires meanwhile; a stalled thread holds the epoch
 * back for at most its lease plus the clock skew, and a dead node's threads the same (their leases run
 * out), so a thread holds at most what it retires in that time on top. With
 * {@link io.remus.core.config.Timeouts#FOREVER} as lease (plain epochs), a thread stalled inside a guard
 * stops every advance, and unreclaimed memory grows with every retire, without bound.
 *
 * <p>A user who prefers a hard bound to progress sets {@link EpochOptions#limitBytes()} (none by default):
 * then, when a guard closes, the thread's unreclaimed bytes are below it unless the wait for it ran out
 * ({@link #limitTimeouts()} counts those); inside a guard, add what the guard retired. The wait ends once
 * the global epoch advanced three times, within the times above; it is a wait for the other threads, so
 * closing a guard is then blocking, and so is every object used with this reclaimer.
 *
 * <h2>RDMA operations</h2>
 * <ul>
 *   <li>enter and close: none on a memory node (CPU loads of the hint, CPU stores of the
 *       announcement); on a compute-only node, two READs of the hint and a compare-and-swap of the
 *       announcement, and one compare-and-swap to close. One more round of each per epoch advance that
 *       lands inside the enter.</li>
 *   <li>retire: none inside a valid guard, else two READs of the global epoch (a CPU read on the
 *       first memory node).</li>
 *   <li>a pass: two READs of the global epoch (a CPU read on the first memory node; more while it
 *       changes, so that a torn value is never used), two READs per memory node's table (CPU reads for this
 *       node's; the second READ shows whether a word was torn, as a NIC that copies a payload in
 *       pieces can return a word stored while it is read half old and half new; a word that changed
 *       between them is read alone until two READs agree, up to 4 READs, and a pass with a word that
 *       never settled does not advance), and one READ of the table pointer of each memory node whose table this reclaimer
 *       has not seen yet (none was created there so far); one compare-and-swap per stale
 *       hint; when it advances, one compare-and-swap of the global epoch and one per table; then the
 *       allocator's operations per freed block.</li>
 * </ul>
 *
 * <h2>Progress</h2>
 * Retire and a pass are wait-free. Enter is lock-free: it announces again only when the epoch
 * advanced in between, and its own announcement stops the epoch one step later, so it does so at
 * most a few times. Closing a guard is wait-free with the defaults (it runs at most one pass); only with
 * a limit set ({@link EpochOptions#limitBytes()}) it blocks while the thread holds that much or more, for
 * at most {@link EpochOptions#limitWait()}: a wait for the other threads, which makes every wait-free or
 * lock-free object used with the reclaimer blocking.
 *
 * <p>One instance per {@link ComputeThread}, created and used by the thread that owns it. It claims
 * a slot when created and gives it back in {@link #close()}. Create it with {@link #EpochReclaimer(ComputeThread)}
 * or {@link #EpochReclaimer(ComputeThread, EpochOptions)}, which free with the thread's own allocator; a worker
 * that also needs locks opens its thread, reclaimer and lock context together with
 * {@link io.remus.ds.context.WorkerContext}.
 */
public final class EpochReclaimer extends ListReclaimer {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /** READs of the global epoch before two in a row must have agreed (it changes once per advance). */
    private static final int STABLE_READ_ATTEMPTS = 64;
    /** READs of one announcement word that changed during a pass, at most, for two in a row that agree. */
    private static final int SETTLE_READS = 4;

    private final ComputeThread thread;
    private final RemoteAllocator allocator;
    private final EpochOptions options;
    private final long leaseMillis;
    private final long skewMillis;
    private final int firstMemoryNode;
    private final long[] tables;
    private final int[] slotCounts;
    private final long[] hints;
    private final MemorySegment[] localViews;
    private final long globalWord;
    private final int home;
    private final int slot;
    private final long token;
    private final EpochGuard guard;
    private long[] scratch = new long[0];
    private long[] again = new long[0];
    private boolean torn;
    private long passAt;
    private long lastAnnouncement;
    private long epoch;
    private long deadline;
    private boolean closed;
    private volatile long passes;
    private volatile long advances;
    private volatile long limitTimeouts;
    private volatile long renewals;
    private long ownRoundTrips;

    /**
     * A reclaimer of a compute thread with {@link EpochOptions#defaults()}, freeing with the thread's own
     * {@link ComputeThread#allocator()}: the constructor to use (see {@link #EpochReclaimer(ComputeThread,
     * RemoteAllocator, EpochOptions)} for its RDMA operations and exceptions).
     *
     * @param thread the calling thread's compute thread
     * @throws NullPointerException when {@code thread} is null
     */
    public EpochReclaimer(ComputeThread thread) {
        this(thread, EpochOptions.defaults());
    }

    /**
     * A reclaimer of a compute thread with options, freeing with the thread's own
     * {@link ComputeThread#allocator()} (see {@link #EpochReclaimer(ComputeThread, RemoteAllocator, EpochOptions)}
     * for its RDMA operations and exceptions).
     *
     * @param thread  the calling thread's compute thread
     * @param options lease, clock and limits
     * @throws NullPointerException when {@code thread} or {@code options} is null
     */
    public EpochReclaimer(ComputeThread thread, EpochOptions options) {
        this(thread, ownAllocator(thread, options), options);
    }

    /**
     * A reclaimer with {@link EpochOptions#defaults()} and a given allocator. {@link #EpochReclaimer(ComputeThread)}
     * is the same with {@code thread.allocator()}: pass an allocator only when retired blocks must go to another
     * one than the thread's.
     *
     * @param thread    the calling thread's compute thread
     * @param allocator the allocator retired blocks are freed with, and tables allocated with (the thread's)
     */
    public EpochReclaimer(ComputeThread thread, RemoteAllocator allocator) {
        this(thread, allocator, EpochOptions.defaults());
    }

    /**
     * Finds (or creates) the global epoch and this node's table, and claims a slot in it. With the thread's own
     * allocator, {@link #EpochReclaimer(ComputeThread, EpochOptions)} says the same in fewer words.
     *
     * <p>RDMA operations: a READ of the first memory node's table pointer and of this node's, READs
     * of their headers, a READ of the owner words and one compare-and-swap per slot taken meanwhile;
     * a table this creates costs an allocation, a WRITE of it and the compare-and-swap that publishes
     * it.
     *
     * @param thread    the calling thread's compute thread
     * @param allocator the allocator retired blocks are freed with, and tables allocated with (the thread's)
     * @param options   lease, clock and limits
     * @throws BadArgumentException           when a table of {@code options.slots()} does not fit the
     *                                        thread's buffer ({@code bufferSizePerThread})
     * @throws AllocationExhaustedException   when this node's table has no free slot
     * @throws CorruptedControlBlockException when a table pointer leads to something that is no table
     */
    public EpochReclaimer(ComputeThread thread, RemoteAllocator allocator, EpochOptions options) {
        this.thread = Objects.requireNonNull(thread, "thread");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.options = Objects.requireNonNull(options, "options");
        long bytes = EpochTable.bytes(options.slots());
        if (bytes > thread.config().bufferSizePerThread()) {
            throw new BadArgumentException("a reclaimer table of " + options.slots() + " slots takes " + bytes
                    + " bytes, more than the thread's buffer (bufferSizePerThread " + thread.config().bufferSizePerThread() + ")");
        }
        this.passAt = options.passBytes();
        this.leaseMillis = options.plainEpochs() ? -1 : Math.max(1, options.lease().toMillis());
        this.skewMillis = options.clockSkew().toMillis();
        NodeRange memoryNodes = thread.config().memoryNodes();
        this.firstMemoryNode = memoryNodes.first();
        int count = memoryNodes.size();
        this.tables = new long[count];
        this.slotCounts = new int[count];
        this.hints = new long[count];
        this.localViews = new MemorySegment[count];
        this.guard = new EpochGuard(thread);
        int self = thread.nodeId();
        this.home = memoryNodes.contains(self) ? self : firstMemoryNode + Math.floorMod(self, count);
        long globalTable = table(firstMemoryNode, true);
        this.globalWord = RemotePtr.offset(globalTable, EpochTable.GLOBAL);
        long homeTable = table(home, true);
        raiseHint(home - firstMemoryNode, readGlobal());
        this.token = (((long) self + 1) << 40 ^ ThreadTime.nanoTime() << 1) | 1;
        this.slot = claimSlot(homeTable);
        this.lastAnnouncement = thread.read(announcementWord());
        this.epoch = thread.read(RemotePtr.offset(homeTable, EpochTable.HINT));
    }

    // ---------------------------------------------------------------- Reclaimer

    /**
     * Announces this thread active at the current epoch, with a lease from now (see the class
     * description for its cost).
     *
     * @throws BadArgumentException when the reclaimer is closed
     */
    @Override
    public Guard enter() {
        if (!guard.open()) {
            return guard;
        }
        if (closed) {
            guard.depth = 0;
            requireOpen();
        }
        long rt = thread.roundTrips();
        long start = options.clock().getAsLong();
        long d = EpochTable.deadline(start, leaseMillis);
        long e = hint();
        while (true) {
            announce(EpochTable.encode(e, true, d));
            VarHandle.fullFence();
            long again = hint();
            if (again == e) {
                break;
            }
            e = again;
        }
        epoch = e;
        deadline = d;
        ownRoundTrips += thread.roundTrips() - rt;
        return guard;
    }

    /**
     * {@inheritDoc}
     *
     * @throws BadArgumentException also when the reclaimer is closed
     */
    @Override
    public void retire(long block, long size) {
        thread.checkOwnerThread();
        requireOpen();
        RetiredList.checkBlock(block, size);
        long rt = thread.roundTrips();
        long tag = guard.inside() && leaseHolds() ? epoch + 1 : readGlobal();
        retired.add(block, size, tag);
        ownRoundTrips += thread.roundTrips() - rt;
    }

    /**
     * One pass: advance the epoch if no announcement holds it back, and free what is old enough.
     *
     * @throws BadArgumentException when called inside a guard, or when the reclaimer is closed
     */
    @Override
    public void reclaim() {
        thread.checkOwnerThread();
        guard.requireOutside("reclaim");
        requireOpen();
        long rt = thread.roundTrips();
        pass();
        ownRoundTrips += thread.roundTrips() - rt;
    }

    /**
     * Runs up to three passes while blocks are unreclaimed (enough to free them all when no other
     * thread holds the epoch back), then gives the slot back.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        guard.requireOutside("close");
        for (int i = 0; i < 3 && retired.count() > 0; i++) {
            pass();
        }
        long ownerWord = RemotePtr.offset(tables[home - firstMemoryNode], EpochTable.owner(slotCounts[home - firstMemoryNode], slot));
        thread.compareAndSwap(ownerWord, token, 0);
        closed = true;
    }

    // ---------------------------------------------------------------- observability

    /** {@return the global epoch, read (one READ, a CPU read on the first memory node)} */
    public long globalEpoch() {
        return readGlobal();
    }

    /** {@return the passes this reclaimer ran} */
    public long passes() {
        return passes;
    }

    /** {@return the times a pass of this reclaimer advanced the global epoch} */
    public long advances() {
        return advances;
    }

    /**
     * Round trips this reclaimer's own work took on its compute thread: entering and closing guards (the
     * announcements, and the passes and frees that closing runs), retires, {@link #reclaim()} and lease
     * renewals; so that a benchmark can tell a structure's own round trips from the reclaimer's. Read by the
     * owner thread.
     *
     * @return the count
     */
    public long roundTrips() {
        return ownRoundTrips;
    }

    /** {@return the leases this thread's guards renewed ({@link Guard#renewLease()})} */
    public long renewals() {
        return renewals;
    }

    /** {@return the guard closes whose wait for {@link EpochOptions#limitBytes()} ran out} */
    public long limitTimeouts() {
        return limitTimeouts;
    }

    /** {@return the options} */
    public EpochOptions options() {
        return options;
    }

    // ---------------------------------------------------------------- the pass

    private void pass() {
        passes++;
        long now = options.clock().getAsLong();
        long g = readGlobal();
        boolean held = false;
        for (int i = 0; i < tables.length; i++) {
            if (tables[i] == RemotePtr.NULL && table(firstMemoryNode + i, false) == RemotePtr.NULL) {
                continue;
            }
            int slots = slotCounts[i];
            long[] words = readAnnouncements(i);
            held |= torn;
            hints[i] = words[0];
            raiseHint(i, g);
            for (int s = 0; s < slots && !held; s++) {
                held = EpochTable.holdsBack(words[(int) (EpochTable.announcement(s) / 8)], g, now, skewMillis);
            }
        }
        if (!held) {
            long was = thread.compareAndSwap(globalWord, g, g + 1);
            if (was == g) {
                g++;
                advances++;
                for (int i = 0; i < tables.length; i++) {
                    if (tables[i] != RemotePtr.NULL) {
                        raiseHint(i, g);
                    }
                }
            } else {
                g = Math.max(g, was);
            }
        }
        retired.freeUpTo(g - 2, allocator);
    }

    private void afterClose() {
        if (retired.bytes() >= passAt) {
            pass();
            passAt = Math.max(options.passBytes(), retired.bytes() + Math.max(1, options.passBytes() / 4));
        }
        if (retired.bytes() < options.limitBytes()) {
            return;
        }
        long end = ThreadTime.nanoTime() + options.limitWait().toNanos();
        long park = 10_000;
        while (retired.bytes() >= options.limitBytes()) {
            if (ThreadTime.nanoTime() - end > 0) {
                limitTimeouts++;
                return;
            }
            ThreadTime.parkNanos("unreclaimed memory below the limit", park);
            park = Math.min(park * 2, 1_000_000);
            pass();
        }
    }

    /**
     * Reads the global epoch whole ({@link #stableRead}): a torn epoch could be above the real one and
     * would free blocks too early.
     */
    private long readGlobal() {
        return stableRead(globalWord);
    }

    /**
     * Reads a word whole: with one CPU read on this thread's own node, else with RDMA READs until two in
     * a row agree. A NIC that copies a READ's payload in pieces (Soft-RoCE) can return a word that an
     * RDMA compare-and-swap stores meanwhile half old and half new; the second READ starts after the
     * first one's copy ended, so two equal values were read whole.
     */
    private long stableRead(long word) {
        long v = thread.read(word);
        if (RemotePtr.node(word) == thread.nodeId()) {
            return v;
        }
        for (int i = 0; i < STABLE_READ_ATTEMPTS; i++) {
            long w = thread.read(word);
            if (w == v) {
                return v;
            }
            v = w;
        }
        throw new CorruptedMemoryException(word, v, "the word " + RemotePtr.toString(word) + " read differently in "
                + (STABLE_READ_ATTEMPTS + 1) + " READs in a row; last 0x" + Long.toHexString(v));
    }

    /**
     * Reads table i's words from the hint to the last announcement into {@link #scratch}. A remote
     * table is read twice: a NIC may copy an RDMA READ's payload in pieces (Soft-RoCE copies it with
     * the kernel's memcpy), so a word stored while it is read can come back as half the old and half
     * the new value; a word read equal twice was read whole, since the second READ starts after the
     * first one's copy ended. A word that differed (its owner announced meanwhile, or a READ tore it)
     * is read alone until two READs agree ({@link #settle}); the words of one scan are read at
     * different moments anyway, so a later whole value serves as well. {@link #torn} says whether one
     * did not settle: a pass that saw that does not advance the epoch.
     *
     * @return {@link #scratch}
     */
    private long[] readAnnouncements(int i) {
        int words = (int) (EpochTable.announcedBytes(slotCounts[i]) / 8);
        if (scratch.length < words) {
            scratch = new long[words];
            again = new long[words];
        }
        torn = false;
        MemorySegment view = localView(i);
        if (view != null) {
            for (int w = 0; w < words; w++) {
                scratch[w] = (long) WORD.getVolatile(view, 8L * w);
            }
        } else {
            thread.read(tables[i], MemorySegment.ofArray(scratch).asSlice(0, 8L * words));
            thread.read(tables[i], MemorySegment.ofArray(again).asSlice(0, 8L * words));
            for (int w = 0; w < words && !torn; w++) {
                if (scratch[w] != again[w]) {
                    torn = !settle(RemotePtr.offset(tables[i], 8L * w), w);
                }
            }
            System.arraycopy(again, 0, scratch, 0, words);
        }
        return scratch;
    }

    /**
     * Word {@code w} of a table differed between the pass's two READs: READs it alone, into {@link #again},
     * until two READs in a row agree, at most {@link #SETTLE_READS} times.
     *
     * @return whether it settled (read whole)
     */
    private boolean settle(long word, int w) {
        long v = again[w];
        for (int r = 0; r < SETTLE_READS; r++) {
            long now = thread.read(word);
            if (now == v) {
                return true;
            }
            v = now;
            again[w] = now;
        }
        return false;
    }

    /** Raises table i's hint to at least {@code g} by compare-and-swap, from the value last seen in {@link #hints}. */
    private void raiseHint(int i, long g) {
        long word = RemotePtr.offset(tables[i], EpochTable.HINT);
        long seen = hints[i];
        while (seen < g) {
            long was = thread.compareAndSwap(word, seen, g);
            if (was == seen) {
                seen = g;
                break;
            }
            seen = was;
        }
        hints[i] = seen;
    }

    // ---------------------------------------------------------------- tables and the slot

    /**
     * {@return memory node m's table, created when {@code create} and there is none; NULL when none and not
     *         created. The pointer is read whole ({@link #stableRead}): another thread's creating
     *         compare-and-swap may race the READ.}
     */
    private long table(int m, boolean create) {
        int i = m - firstMemoryNode;
        if (tables[i] != RemotePtr.NULL) {
            return tables[i];
        }
        long word = RemotePtr.offset(thread.segmentBase(m, 0), ControlBlock.RECLAIMER_TABLE);
        long p = stableRead(word);
        if (p == RemotePtr.NULL) {
            if (!create) {
                return RemotePtr.NULL;
            }
            p = createTable(m, word);
        }
        if (!thread.isPublished(p, EpochTable.ANNOUNCEMENTS)) {
            throw new CorruptedControlBlockException(word, p, "the reclaimer table pointer of memory node " + m + " ("
                    + RemotePtr.toString(word) + ") holds " + RemotePtr.toString(p) + ", which names no memory of a segment");
        }
        long magic = thread.read(RemotePtr.offset(p, EpochTable.MAGIC));
        long slots = thread.read(RemotePtr.offset(p, EpochTable.SLOT_COUNT));
        if (RemotePtr.node(p) != m || magic != EpochTable.MAGIC_VALUE || slots < 1 || slots > EpochOptions.MAX_SLOTS
                || EpochTable.announcedBytes((int) slots) > thread.config().bufferSizePerThread()) {
            throw new CorruptedControlBlockException(word, p, "the reclaimer table pointer of memory node " + m + " ("
                    + RemotePtr.toString(word) + ") holds " + RemotePtr.toString(p) + ", which is no reclaimer table that"
                    + " fits this thread's buffer (magic 0x" + Long.toHexString(magic) + ", " + slots + " slots)");
        }
        slotCounts[i] = (int) slots;
        hints[i] = thread.read(RemotePtr.offset(p, EpochTable.HINT));
        tables[i] = p;
        return p;
    }

    private long createTable(int m, long word) {
        int slots = options.slots();
        long bytes = EpochTable.bytes(slots);
        long g = m == firstMemoryNode ? EpochTable.FIRST_EPOCH : readGlobal();
        long block = allocator.allocate(bytes, m);
        long[] image = new long[(int) (bytes / 8)];
        image[(int) (EpochTable.HINT / 8)] = g;
        image[(int) (EpochTable.SLOT_COUNT / 8)] = slots;
        image[(int) (EpochTable.MAGIC / 8)] = EpochTable.MAGIC_VALUE;
        image[(int) (EpochTable.GLOBAL / 8)] = m == firstMemoryNode ? EpochTable.FIRST_EPOCH : 0;
        thread.write(block, MemorySegment.ofArray(image));
        long was = thread.compareAndSwap(word, RemotePtr.NULL, block);
        if (was != RemotePtr.NULL) {
            allocator.deallocate(block, bytes);
            return was;
        }
        return block;
    }

    private int claimSlot(long table) {
        int i = home - firstMemoryNode;
        int slots = slotCounts[i];
        long owners = RemotePtr.offset(table, EpochTable.owner(slots, 0));
        long[] seen = new long[slots];
        thread.read(owners, MemorySegment.ofArray(seen));
        for (int s = 0; s < slots; s++) {
            if (seen[s] == 0 && thread.compareAndSwap(RemotePtr.offset(owners, 8L * s), 0, token) == 0) {
                return s;
            }
        }
        throw new AllocationExhaustedException("the reclaimer table of memory node " + home + " (" + RemotePtr.toString(table)
                + ") has no free slot of its " + slots + " for a thread of node " + thread.nodeId()
                + " (every slot is taken by a live reclaimer, or by one that was never closed)");
    }

    private long announcementWord() {
        return RemotePtr.offset(tables[home - firstMemoryNode], EpochTable.announcement(slot));
    }

    private MemorySegment localView(int i) {
        if (RemotePtr.node(tables[i]) != thread.nodeId()) {
            return null;
        }
        if (localViews[i] == null) {
            localViews[i] = thread.localSegment(tables[i], EpochTable.bytes(slotCounts[i]));
        }
        return localViews[i];
    }

    private long hint() {
        int i = home - firstMemoryNode;
        MemorySegment view = localView(i);
        return view != null ? (long) WORD.getVolatile(view, EpochTable.HINT) : thread.read(RemotePtr.offset(tables[i], EpochTable.HINT));
    }

    private void announce(long value) {
        int i = home - firstMemoryNode;
        MemorySegment view = localView(i);
        if (view != null) {
            WORD.setVolatile(view, EpochTable.announcement(slot), value);
        } else {
            long word = announcementWord();
            long was = thread.compareAndSwap(word, lastAnnouncement, value);
            if (was != lastAnnouncement) {
                throw new CorruptedMemoryException(word, was, "the reclaimer announcement " + RemotePtr.toString(word)
                        + " of slot " + slot + " changed under its owner: expected 0x" + Long.toHexString(lastAnnouncement));
            }
        }
        lastAnnouncement = value;
    }

    private static RemoteAllocator ownAllocator(ComputeThread thread, EpochOptions options) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(options, "options");
        return thread.allocator();
    }

    private void requireOpen() {
        if (closed) {
            throw new BadArgumentException("the reclaimer is closed");
        }
    }

    private boolean leaseHolds() {
        return deadline == EpochTable.NEVER || options.clock().getAsLong() <= deadline;
    }

    /** The guard of this reclaimer: valid while the lease holds. */
    private final class EpochGuard extends BaseGuard {
        EpochGuard(ComputeThread thread) {
            super(thread);
        }

        @Override
        public boolean valid() {
            return inside() && leaseHolds();
        }

        @Override
        public long leaseLeftMillis() {
            if (!inside()) {
                return 0;
            }
            return deadline == EpochTable.NEVER ? Long.MAX_VALUE : deadline - options.clock().getAsLong();
        }

        @Override
        public boolean renewLease() {
            if (!valid()) {
                return false;
            }
            if (deadline == EpochTable.NEVER) {
                return true;
            }
            long old = deadline;
            long rt = thread.roundTrips();
            long d = EpochTable.deadline(options.clock().getAsLong(), leaseMillis);
            announce(EpochTable.encode(epoch, true, d));
            boolean late = options.clock().getAsLong() > old;
            if (late) {
                announce(EpochTable.encode(epoch, true, old));
            }
            ownRoundTrips += thread.roundTrips() - rt;
            if (late) {
                return false;
            }
            deadline = d;
            renewals++;
            return true;
        }

        @Override
        public void check() {
            if (!valid()) {
                throw new LeaseExpiredException(inside()
                        ? "the guard's lease ran out at " + deadline + " ms (clock now " + options.clock().getAsLong()
                        + " ms, lease " + options.lease() + "): blocks read in it may have been freed"
                        : "the guard is closed");
            }
        }

        @Override
        public void close() {
            if (release()) {
                long rt = thread.roundTrips();
                announce(EpochTable.encode(epoch, false, deadline));
                afterClose();
                ownRoundTrips += thread.roundTrips() - rt;
            }
        }
    }
}
