package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.time.ThreadTime;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A bounded multi-producer multi-consumer FIFO queue of {@code long} words in one node's memory, reached by
 * every caller through one-sided RDMA, that stays usable when a caller dies at any point of a call: a dead
 * producer's claimed ticket is skipped, a dead consumer's slot is freed, and each dead caller costs the queue
 * at most one spare cell. {@link MpmcBoundedQueue} is cheaper (4 and 3 round trips) but a producer that dies
 * between its claim and its publication blocks the polls of its ticket for good.
 *
 * <h2>Design</h2>
 * It follows SCQ's indirection (R. Nikolaev, "A Scalable, Portable, and Memory-Efficient Lock-Free FIFO
 * Queue", DISC 2019): values live in {@code cells}, and two rings of single-word entries pass cell indices
 * around: the <em>allocated</em> ring holds the cells whose values are queued, in FIFO order, and the
 * <em>free</em> ring holds the cells no one uses. An offer takes a free cell, WRITEs its value there, and
 * publishes the cell's index in the allocated ring; a poll takes the oldest index from the allocated ring,
 * READs the cell, and gives the index back to the free ring. Each ring is a Vyukov-style ring of tickets
 * (see {@link MpmcBoundedQueue}): a caller READs the entry of the ticket it wants, claims the ticket by
 * compare-and-swap of the ring's tail (put) or head (take) only when the entry is ready for it, and every
 * entry changes only by compare-and-swap. An entry is one word: its state in the high 48 bits ({@code 2i}
 * while free for ticket {@code i}'s putter, {@code 2i + 1} once that putter published, modulo 2<sup>48</sup>)
 * and a cell index in the low 16 bits.
 *
 * <h2>Why a dead caller blocks no one</h2>
 * Because an entry is one word, publishing it is one compare-and-swap. A taker that finds its ticket claimed
 * but unpublished past its patience <em>poisons</em> it: it compare-and-swaps the entry from free to
 * published with no cell ({@code NONE}), and then takes the next ticket. The claim holder's publication, if
 * it ever comes, is a compare-and-swap that then fails: it claims another ticket for the same cell. The value
 * a producer WRITEs is in a cell that it alone holds from the take of the free ring until its publication
 * succeeds, so a late WRITE lands in no one else's value (with values beside tickets, as in
 * {@link MpmcBoundedQueue}, it could overwrite the next lap's value). A consumer that dies after its claim
 * already holds its entry's word; the next lap's putter frees that entry. What a dead caller keeps is the
 * cell it held, if any: it is never returned, and the queue has one spare cell fewer.
 *
 * <h2>Layout</h2>
 * One block on the creator's node: the queue's {@link StructureIdentity} in front of its root (the block's
 * allocator header and the identity word, the 16 bytes before {@link #ptr()}), then, from {@link #ptr()}, a
 * 64-byte header (word 0: the capacity {@code n}; word 1: the number of
 * cells {@code m = n + spare}; words 2 and 3: the allocated ring's tail and head; words 4 and 5: the free
 * ring's tail and head, all ticket counts), then the allocated ring's {@code n} entries, the free ring's
 * {@code m} entries, and the {@code m} cells of 8 bytes. The free ring starts holding every cell.
 * <pre>
 *  ptr - 24  allocator block header
 *  ptr - 16  handles word             ptr + 0   capacity, cells
 *  ptr - 8   identity word            ptr + 16  allocated ring: tail, head
 *                                     ptr + 32  free ring: tail, head
 *                                     ptr + 64  allocated ring's entries, free ring's entries, cells
 * </pre>
 *
 * <h2>Destroy</h2>
 * {@link #destroy} marks the queue destroyed; its block is freed when the last handle is closed (each handle is
 * counted in the root's handles word, {@link StructureIdentity}), so no handle ever touches freed memory. Of two
 * handles that destroy the queue, in any processes, one marks it and the other gets {@link ClosedQueueException}.
 * A call learns of a destroy from the root's handles word in its first doorbell: every offer and poll posts, with
 * the READ of its first ring entry, an 8-byte READ of the handles word (16 bytes before the queue; on the queue's
 * own node, a CPU load after the entry's), and every READ of a ring's tail or head starts at the handles word too;
 * the word is checked before anything read with it is used. So a call that starts after any handle's destroy
 * returned throws {@link ClosedQueueException}; a call concurrent with a destroy completes on the queue's memory,
 * intact, before or after it.
 *
 * <h2>Operations, costs and linearization points</h2>
 * {@link #offer}: take a free cell (READ the free ring's entry with the handles word in one doorbell,
 * compare-and-swap its head, compare-and-swap the entry free for the next lap), WRITE the value into the cell,
 * put the cell (READ the allocated ring's entry, compare-and-swap its tail, compare-and-swap the entry to
 * published): <b>7 round trips</b> (3 READs, 1 WRITE, 4 compare-and-swaps) uncontended with current tickets;
 * each stale ticket adds 2, each lost race 2, a poisoned publication 3. Full: <b>9 round trips</b> when the
 * allocated ring is full (its entry and head READ, then the cell given back), <b>2</b> (3 READs) when no cell is
 * free (the free ring's entry and the handles word, then the free ring's tail). Linearizes at the tail
 * compare-and-swap of the ticket whose publication succeeds; full at the READ of the allocated ring's head, or of
 * the free ring's tail.
 * {@link #poll}: take an index from the allocated ring (READ its entry with the handles word in one doorbell,
 * compare-and-swap its head, compare-and-swap the entry free for the next lap), READ the cell, put the index on
 * the free ring (READ, compare-and-swap, compare-and-swap): <b>7 round trips</b> (4 READs, 4 compare-and-swaps)
 * uncontended; empty: <b>2 round trips</b> (3 READs: the entry and the handles word, then the tail). Linearizes
 * at the head compare-and-swap that takes a published cell; empty at the READ of the tail.
 *
 * <h2>Full and empty</h2>
 * Empty is exact. Full is exact while no claimed ticket is poisoned and no more than {@code spare} cells are
 * held by calls in flight or lost to dead callers: an offer answers full early when the allocated ring counts
 * a claimed ticket that a poll poisons afterwards, or when every free cell is held (give {@code spare} at
 * least the number of callers that run at once, plus the deaths the queue should outlive).
 *
 * <h2>Progress</h2>
 * {@link #offer} and {@link #poll} are <b>lock-free</b>: a taker waits for a claimed, unpublished ticket only
 * up to its patience and then poisons it; every lost compare-and-swap means another call claimed or published
 * a ticket. A poisoned producer retries on a new ticket, so an offer can starve under a stream of polls with
 * zero patience (not wait-free). Worst-case round trips per call: unbounded (lost races). Giving a cell back
 * to the free ring waits, up to the caller's patience and at least 10 ms, for the free ring to have room (it is
 * full only while tickets claimed by calls in flight or poisoned fill it); after that the cell is lost and
 * counted by {@link #lostCells()}: the call still returns its value.
 *
 * <p>A call uses the first 16 bytes of the thread's registered buffer as scratch, and posts its first doorbell
 * with the thread's {@link io.remus.core.DoorbellBatch}, which must be empty when the call starts. A handle is
 * confined to its
 * compute thread's owner; each thread attaches its own. Tickets are 64-bit counts; an entry's state wraps
 * modulo 2<sup>48</sup>, which is safe while no caller's view of a ring is 2<sup>46</sup> tickets stale.
 */
public final class MpmcCrashTolerantQueue extends MpmcQueueHandle {
    /** Bytes of the header before the first entry. */
    public static final int HEADER_BYTES = 64;
    /** The most cells: a cell index is 16 bits, and {@link #NONE} is reserved. */
    public static final int MAX_CELLS = 0xFFFF;
    /**
     * The largest capacity with no spare cells, so that the queue, with its handles and identity words, is one allocation of at
     * most {@link SizeClasses#MAX}.
     */
    public static final int MAX_CAPACITY = (int) ((SizeClasses.MAX - StructureIdentity.blockBytes(HEADER_BYTES)) / 24);
    static final long CAPACITY = 0;
    static final long CELLS = 8;
    static final long ALLOC_TAIL = 16;
    static final long ALLOC_HEAD = 24;
    static final long FREE_TAIL = 32;
    static final long FREE_HEAD = 40;
    private static final long STATE_MASK = (1L << (64 - INDEX_BITS)) - 1;
    private static final long MAX_BACKOFF_NANOS = 1_000_000;
    /** The least time a call spends trying to give a cell back to a full free ring before the cell is lost. */
    static final long GIVE_BACK_FLOOR_NANOS = 10_000_000;

    private final int cells;
    private final Ring allocated;
    private final Ring free;
    private long poisoned;
    private long poisonedPublications;
    private long lostCells;

    private MpmcCrashTolerantQueue(ComputeThread thread, StructureIdentity identity, int capacity, int cells,
                                   long[] tickets) {
        super(thread, identity, capacity, bytes(capacity, cells), 6);
        this.cells = cells;
        this.allocated = new Ring("allocated", ptr + ALLOC_TAIL, ptr + HEADER_BYTES, capacity, tickets[0], tickets[1]);
        this.free = new Ring("free", ptr + FREE_TAIL, ptr + HEADER_BYTES + 8L * capacity, cells, tickets[2], tickets[3]);
    }

    /**
     * Creates an empty queue on the caller's node and returns the caller's handle. No RDMA operation: the
     * allocation, then CPU loads and stores on the caller's node of the handles word, the identity word, the
     * header, the entries and the free ring's cell indices, before anyone else can know the block.
     *
     * @param thread   the creator's compute thread: the queue is on its node
     * @param capacity the most words it holds, 1..{@link #MAX_CAPACITY}
     * @param spare    cells beyond the capacity, for calls in flight and dead callers: 0 or more, with
     *                 {@code capacity + spare} at most {@link #MAX_CELLS} and the block, with the identity word,
     *                 at most {@link SizeClasses#MAX}
     * @return the creator's handle
     * @throws BadArgumentException naming the value, for a capacity or spare out of range
     */
    public static MpmcCrashTolerantQueue create(ComputeThread thread, int capacity, int spare) {
        checkCreate(thread, capacity, MAX_CAPACITY);
        if (spare < 0 || (long) capacity + spare > MAX_CELLS
                || StructureIdentity.blockBytes(bytes(capacity, capacity + spare)) > SizeClasses.MAX) {
            throw new BadArgumentException("spare must be 0.." + Math.min(MAX_CELLS - capacity,
                    (SizeClasses.MAX - StructureIdentity.blockBytes(HEADER_BYTES) - 8L * capacity) / 16 - capacity)
                    + " for capacity " + capacity
                    + ", got " + spare);
        }
        int cells = capacity + spare;
        long bytes = bytes(capacity, cells);
        StructureIdentity identity = allocateRoot(thread, StructureKind.MPMC_CRASH_TOLERANT_QUEUE, bytes, capacity);
        MemorySegment block = thread.localSegment(identity.ptr(), bytes);
        block.set(ValueLayout.JAVA_LONG, CELLS, cells);
        block.set(ValueLayout.JAVA_LONG, FREE_TAIL, cells);
        for (int i = 0; i < capacity; i++) {
            block.set(ValueLayout.JAVA_LONG, HEADER_BYTES + 8L * i, word(2L * i, 0));
        }
        for (int i = 0; i < cells; i++) {
            block.set(ValueLayout.JAVA_LONG, HEADER_BYTES + 8L * capacity + 8L * i, word(2L * i + 1, i));
        }
        VarHandle.releaseFence();
        return new MpmcCrashTolerantQueue(thread, identity, capacity, cells, new long[] {0, 0, cells, 0});
    }

    /**
     * Attaches a handle for {@code thread} to the queue at {@code ptr}: one RDMA READ of the block header, the
     * handles and identity words and the header's first six words, and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}): 2 round trips.
     *
     * @param thread the caller's compute thread, on any node
     * @param ptr    the queue ({@link #ptr()})
     * @return the caller's handle
     * @throws BadArgumentException     when the pointer is null or not 8-byte aligned
     * @throws WrongStructureException  when no {@code MpmcCrashTolerantQueue} is at {@code ptr}: another kind of
     *                                  structure, or none
     * @throws ClosedQueueException     when the queue at {@code ptr} was destroyed
     * @throws CorruptedMemoryException when the header is not a queue's
     */
    public static MpmcCrashTolerantQueue attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        MemorySegment header = MemorySegment.ofArray(new long[6]);
        StructureIdentity identity = StructureIdentity.attach(thread, StructureKind.MPMC_CRASH_TOLERANT_QUEUE, ptr,
                header, ClosedQueueException::new, copy -> {
                    long capacity = copy.getAtIndex(ValueLayout.JAVA_LONG, 0);
                    long cells = copy.getAtIndex(ValueLayout.JAVA_LONG, 1);
                    if (capacity < 1 || capacity > MAX_CAPACITY || cells < capacity || cells > MAX_CELLS) {
                        throw new CorruptedMemoryException(ptr + CAPACITY, capacity, "queue " + RemotePtr.toString(ptr)
                                + ": header words " + capacity + ", " + cells + " are no queue's capacity and cells");
                    }
                });
        long capacity = header.getAtIndex(ValueLayout.JAVA_LONG, 0);
        long cells = header.getAtIndex(ValueLayout.JAVA_LONG, 1);
        long[] tickets = new long[4];
        for (int i = 0; i < 4; i++) {
            tickets[i] = header.getAtIndex(ValueLayout.JAVA_LONG, 2 + i);
        }
        return new MpmcCrashTolerantQueue(thread, identity, (int) capacity, (int) cells, tickets);
    }

    static long bytes(int capacity, int cells) {
        return HEADER_BYTES + 8L * capacity + 16L * cells;
    }

    static long word(long state, int index) {
        return ((state & STATE_MASK) << INDEX_BITS) | index;
    }

    static long state(long word) {
        return word >>> INDEX_BITS;
    }

    /** {@code a - b} of two states, as a signed 48-bit difference. */
    static long after(long a, long b) {
        return ((a - b) << INDEX_BITS) >> INDEX_BITS;
    }

    /** {@return the cells: the capacity plus the spare ones} */
    public int cells() {
        return cells;
    }

    /** {@return tickets this handle poisoned: claimed by a producer that had not published within a call's patience} */
    public long poisoned() {
        return poisoned;
    }

    /** {@return publications of this handle that found their ticket poisoned and went on with another ticket} */
    public long poisonedPublications() {
        return poisonedPublications;
    }

    /** {@return cells this handle could not give back to the free ring within a call's patience (the queue lost them)} */
    public long lostCells() {
        return lostCells;
    }

    private long cell(int index) {
        return ptr + HEADER_BYTES + 8L * capacity + 8L * cells + 8L * index;
    }

    /**
     * Adds {@code value} at the tail unless the queue is full. Lock-free. 7 round trips uncontended (free ring:
     * the entry and the handles word, 2 READs in one doorbell, compare-and-swap, compare-and-swap; WRITE; allocated
     * ring: READ, compare-and-swap, compare-and-swap); full: 2 (3 READs) when no cell is free, otherwise 9 (the
     * cell is taken, written, and given back: 5 READs, 1 WRITE, 4 compare-and-swaps); each stale ticket or lost
     * race adds 2, a poisoned publication 3. Linearizes at the allocated ring's tail compare-and-swap of the ticket
     * whose publication succeeds; full at the READ that shows it. A call that starts after any handle's destroy
     * returned throws {@link ClosedQueueException}; a call concurrent with a destroy may complete before it.
     *
     * @param value    any word
     * @param patience how long to wait for a free-ring ticket whose cell a consumer is giving back before
     *                 poisoning it; zero poisons at once
     * @return true when added, false when the queue was full (see the class comment on early full answers)
     * @throws BadArgumentException     naming the value, for a negative patience
     * @throws ClosedQueueException     after {@link #close()} or {@link #destroy()}, or when the queue was
     *                                  destroyed: always when any handle's destroy returned before the call started
     * @throws CorruptedMemoryException when an entry or a cell index is no queue's
     */
    public boolean offer(long value, Duration patience) {
        long deadline = deadline(patience);
        int index = free.take(deadline);
        if (index < 0) {
            return false;
        }
        thread.write(cell(index), value);
        if (allocated.put(index)) {
            return true;
        }
        giveBack(index, deadline);
        return false;
    }

    /**
     * Removes and returns the word at the head, unless the queue is empty. Lock-free: a ticket claimed by a
     * producer that does not publish within {@code patience} is poisoned and skipped. 7 round trips uncontended
     * (allocated ring: the entry and the handles word, 2 READs in one doorbell, compare-and-swap,
     * compare-and-swap; READ of the cell; free ring: READ, compare-and-swap, compare-and-swap), 2 (3 READs) when
     * empty; each stale ticket or lost race adds 2, a poisoned ticket 3. Linearizes at the head compare-and-swap
     * that takes a published cell; empty at the READ of the tail. A call that starts after any handle's destroy
     * returned throws {@link ClosedQueueException}; a call concurrent with a destroy may complete before it.
     *
     * @param patience how long to wait for a producer's claim in flight before poisoning its ticket; zero
     *                 poisons at once
     * @return the oldest word, or empty when the queue was empty
     * @throws BadArgumentException     naming the value, for a negative patience
     * @throws ClosedQueueException     after {@link #close()} or {@link #destroy()}, or when the queue was
     *                                  destroyed: always when any handle's destroy returned before the call started
     * @throws CorruptedMemoryException when an entry or a cell index is no queue's
     */
    public OptionalLong poll(Duration patience) {
        long deadline = deadline(patience);
        int index = allocated.take(deadline);
        if (index < 0) {
            return OptionalLong.empty();
        }
        long value = thread.read(cell(index));
        giveBack(index, deadline);
        return OptionalLong.of(value);
    }

    /** Puts {@code index} on the free ring, retrying while it is full until the deadline; then the cell is lost. */
    private void giveBack(int index, long deadline) {
        long until = Math.max(deadline, ThreadTime.nanoTime() + GIVE_BACK_FLOOR_NANOS);
        long busy = 0;
        while (!free.put(index)) {
            if (ThreadTime.nanoTime() - until >= 0) {
                lostCells++;
                return;
            }
            busy = pause(until, busy + 1);
        }
    }


    /** Spins, then parks, longer with each consecutive busy round, never past the deadline. */
    private static long pause(long deadline, long busy) {
        if (busy < 4) {
            ThreadTime.onSpinWait("a busy ring of a crash-tolerant queue");
        } else {
            long left = Math.max(deadline - ThreadTime.nanoTime(), 1_000);
            ThreadTime.parkNanos("a busy ring of a crash-tolerant queue",
                    Math.min(Math.min(1_000L << Math.min(busy - 4, 10), MAX_BACKOFF_NANOS), left));
        }
        return busy;
    }

    /**
     * One ring of cell indices: its tail word, its head word the next one ({@link #ALLOC_HEAD}, {@link #FREE_HEAD}),
     * its entries, and this handle's last view of both words.
     */
    private final class Ring {
        private final String name;
        private final long tailWord;
        private final long headWord;
        private final long entries;
        private final int size;
        private long tail;
        private long head;

        Ring(String name, long tailWord, long entries, int size, long tail, long head) {
            this.name = name;
            this.tailWord = tailWord;
            this.headWord = tailWord + 8;
            this.entries = entries;
            this.size = size;
            this.tail = tail;
            this.head = head;
        }

        private long entry(long ticket) {
            return entries + 8L * Math.floorMod(ticket, size);
        }

        /**
         * Takes the oldest published cell index, skipping poisoned tickets; poisons a claimed ticket still
         * unpublished at the deadline. Returns -1 when the ring is empty. A take is its call's first step: its
         * first READ of an entry carries the handles word's ({@link #readWord}).
         */
        int take(long deadline) {
            long pos = head;
            long busy = 0;
            boolean check = true;
            while (true) {
                long at = entry(pos);
                long e = readWord(at, check);
                check = false;
                long s = state(e);
                long published = 2 * pos + 1;
                if (s == (published & STATE_MASK)) {
                    long seen = thread.compareAndSwap(headWord, pos, pos + 1);
                    if (seen != pos) {
                        pos = seen;
                        busy = 0;
                        continue;
                    }
                    head = pos + 1;
                    // Free the entry for the next lap; it fails only when the next lap's putter freed it first.
                    thread.compareAndSwap(at, e, word(2 * (pos + size), 0));
                    int index = index(e);
                    if (index != NONE) {
                        if (index >= cells) {
                            throw new CorruptedMemoryException(at, e, "queue " + RemotePtr.toString(ptr) + ": " + name
                                    + " ring entry " + RemotePtr.toString(at) + " names cell " + index + " of " + cells);
                        }
                        return index;
                    }
                    pos++;
                    busy = 0;
                } else if (after(s, published) > 0) {
                    pos = readRootWord(headWord);
                    busy = 0;
                } else {
                    long t = readRootWord(tailWord);
                    tail = Math.max(tail, t);
                    if (t <= pos) {
                        head = pos;
                        return -1;
                    }
                    if (s == ((2 * pos) & STATE_MASK) && ThreadTime.nanoTime() - deadline >= 0) {
                        // Claimed, unpublished past the patience: publish "no cell" in the claim holder's place.
                        long claimed = word(2 * pos, 0);
                        if (thread.compareAndSwap(at, claimed, word(published, NONE)) == claimed) {
                            poisoned++;
                        }
                        busy = 0;
                    } else {
                        busy = pause(deadline, busy + 1);
                    }
                }
            }
        }

        /**
         * Puts {@code index} at the tail; false when the ring is full. A publication that finds its ticket
         * poisoned claims another.
         */
        boolean put(int index) {
            long pos = tail;
            while (true) {
                long at = entry(pos);
                long e = thread.read(at);
                long s = state(e);
                long freeState = (2 * pos) & STATE_MASK;
                if (s == freeState) {
                    long seen = thread.compareAndSwap(tailWord, pos, pos + 1);
                    if (seen != pos) {
                        pos = seen;
                        continue;
                    }
                    tail = pos + 1;
                    // A free entry's word is always its state and cell 0: expect that, not what a torn READ showed.
                    long claimed = word(2 * pos, 0);
                    long was = thread.compareAndSwap(at, claimed, word(2 * pos + 1, index));
                    if (was == claimed) {
                        return true;
                    }
                    // Poisoned: the entry is published with no cell, or already passed and freed for a later lap.
                    if (after(state(was), 2 * pos + 1) < 0 || after(state(was), 2 * pos + 1) == 0 && index(was) != NONE) {
                        throw new CorruptedMemoryException(at, was, "queue " + RemotePtr.toString(ptr) + ": " + name
                                + " ring entry " + RemotePtr.toString(at) + " was " + Long.toHexString(was)
                                + " under its ticket's holder, expected " + Long.toHexString(claimed) + " or poisoned");
                    }
                    poisonedPublications++;
                    pos++;
                } else if (after(s, freeState) > 0) {
                    pos = readRootWord(tailWord);
                } else {
                    long h = readRootWord(headWord);
                    head = Math.max(head, h);
                    long previous = 2 * (pos - size) + 1;
                    if (pos - h >= size) {
                        if (h == pos - size && e == word(previous, NONE)) {
                            // A poisoned ticket no taker passed yet: pass it, it holds no cell.
                            thread.compareAndSwap(headWord, h, h + 1);
                            continue;
                        }
                        tail = pos;
                        return false;
                    }
                    if (s == (previous & STATE_MASK)) {
                        // The previous lap's taker claimed its ticket and holds its word: free the entry for it.
                        thread.compareAndSwap(at, e, word(2 * pos, 0));
                    }
                }
            }
        }
    }
}
