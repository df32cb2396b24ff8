package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A bounded multi-producer multi-consumer FIFO queue of {@code long} words in one node's memory, reached by every
 * caller through one-sided RDMA, whose callers take their tickets by <b>fetch-and-add</b> and never wait for one
 * another: a poll whose ticket has no value yet marks it and goes on, so a producer that stalls or dies holds up
 * no one, and no call has a patience to tune. It is SCQ (R. Nikolaev, "A Scalable, Portable, and Memory-Efficient
 * Lock-Free FIFO Queue", DISC 2019): values live in {@code n} cells, and two rings of {@code 2n} one-word entries
 * pass cell indices around, the <em>allocated</em> ring in FIFO order and the <em>free</em> ring the cells no one
 * uses. Beside the other two queues of this package: {@link MpmcBoundedQueue} is cheaper (4 and 3 round trips)
 * but claims tickets by compare-and-swap and blocks the polls of a dead producer's ticket;
 * {@link MpmcCrashTolerantQueue} has the same cells and rings with compare-and-swap tickets, 7 round trips, and
 * polls that wait up to their patience before they skip a ticket.
 *
 * <h2>A ring</h2>
 * A tail and a head ticket count and a threshold word; ticket {@code t} uses entry {@code t mod 2n} in cycle
 * {@code t / 2n}. An entry is one word: the cycle of its last change (47 bits), a <em>safe</em> bit, and a cell
 * index (16 bits; {@code 0xFFFF} for none). Every entry changes only by RDMA atomics.
 * <ul>
 * <li><b>put</b>: fetch-and-add the tail for a ticket, READ its entry; when the entry is of an older cycle, holds
 * no index, and is safe (or the head has not passed the ticket, one more READ), compare-and-swap it to the
 * ticket's cycle and the index, then set the threshold back to its top by compare-and-swap (a WRITE is not atomic
 * with the takes' fetch-and-adds of the same word); otherwise take another ticket.</li>
 * <li><b>take</b>: READ the threshold, and answer empty when it is negative; fetch-and-add the head for a ticket,
 * READ its entry; when it is of the ticket's cycle, take its index by a fetch-and-add that sets the index bits to
 * none. Otherwise the ticket's put has not happened: compare-and-swap the entry to the ticket's cycle with no
 * index (so that put, if it comes later, fails and takes another ticket), or, when the entry still holds an older
 * cycle's index, clear its safe bit (so no later put trusts it without checking the head); then READ the tail:
 * when it is not past the ticket the ring is empty (the tail is moved up to the head by compare-and-swap, and the
 * threshold decremented), otherwise decrement the threshold by fetch-and-add and take another ticket unless it
 * ran out.</li>
 * </ul>
 * The threshold bounds the tickets that takes may burn while no put succeeds, which is what makes the ring
 * lock-free rather than open to a livelock of puts and takes marking each other's tickets. SCQ's bound is
 * {@code 3n - 1} for {@code n} indices in a ring of {@code 2n}; this queue uses {@code 4n - 1}, one more pass of
 * {@code n} for the entries that dead callers leave holding an index (below). A larger threshold costs only
 * extra tickets burnt by polls of an empty queue before the threshold runs out.
 *
 * <h2>Layout</h2>
 * One block on the creator's node: the queue's {@link StructureIdentity} in front of its root (the block's
 * allocator header and the identity word, the 16 bytes before {@link #ptr()}), then, from {@link #ptr()}, a
 * 64-byte header (word 0: the capacity {@code n}; words 1 to 3: the allocated
 * ring's tail, head and threshold; words 4 to 6: the free ring's), the allocated ring's {@code 2n} entries, the
 * free ring's {@code 2n} entries, and the {@code n} cells of 8 bytes: {@code 64 + 40n} bytes. Tickets start at
 * {@code 2n} (cycle 1) over entries of cycle 0; the free ring starts holding every cell.
 * <pre>
 *  ptr - 24  allocator block header
 *  ptr - 16  handles word             ptr + 0   capacity
 *  ptr - 8   identity word            ptr + 8   allocated ring: tail, head, threshold
 *                                     ptr + 32  free ring: tail, head, threshold
 *                                     ptr + 64  allocated ring's entries, free ring's entries, cells
 * </pre>
 *
 * <h2>Destroy</h2>
 * {@link #destroy} marks the queue destroyed; its block is freed when the last handle is closed (each handle is
 * counted in the root's handles word, {@link StructureIdentity}), so no handle ever touches freed memory. Of two
 * handles that destroy the queue, in any processes, one marks it and the other gets {@link ClosedQueueException}.
 * The READ of a ring's threshold, the first operation of every {@link #offer} and {@link #poll}, starts at the
 * handles word, 16 bytes before the queue, so every call on any handle of a destroyed queue throws
 * {@link ClosedQueueException} before it changes anything, at no extra RDMA operation.
 *
 * <h2>Operations and costs</h2>
 * {@link #offer}: take a cell from the free ring (READ of the threshold, fetch-and-add of the head, READ of the
 * entry, then the index's fetch-and-add and the WRITE of the value into the cell in one round trip), then put it on
 * the allocated ring (fetch-and-add of the tail, READ of the entry, compare-and-swap of the entry, compare-and-swap
 * of the threshold): <b>8 round trips</b> uncontended (3 READs, 1 WRITE, 2 compare-and-swaps, 3 fetch-and-adds), 9
 * when the ring's threshold had fallen (the first put after polls found the ring empty: one more compare-and-swap). Full:
 * <b>1 round trip</b> (READ of the free ring's threshold) once the free ring's threshold ran out, 6 or 7 before.
 * {@link #poll}: take an index from the allocated ring (READ, fetch-and-add, READ, then the index's fetch-and-add
 * and the READ of the cell in one round trip), put it on the free ring (fetch-and-add, READ, compare-and-swap,
 * compare-and-swap): <b>8 round trips</b> (4 READs, 2 compare-and-swaps, 3 fetch-and-adds), 9 when the free
 * ring's threshold had fallen (after an offer found no cell). Empty: <b>1 round
 * trip</b> once the allocated ring's threshold ran out; 6 or 7 before (the ticket's entry marked, the tail READ
 * and caught up, the threshold decremented). Each ticket a put cannot use adds 2 round trips (fetch-and-add and
 * READ), each ticket a take burns 4 or 5. Tickets never fail by contention: a fetch-and-add always succeeds, so a
 * caller retakes a ticket only when a put and a take of the same ticket cross.
 *
 * <h2>Linearizability, full and empty</h2>
 * The rings are linearizable (Nikolaev 2019, section 5): values come out in the order of the tickets under which
 * their puts succeeded. An offer takes effect when its allocated ring entry is published; a poll when it takes
 * an index; empty when the take answers empty. Full is the free ring answering empty, which is exact only while
 * no call in flight holds a cell: an offer can answer full while a concurrent poll has taken its value but not
 * yet given its cell back, or a concurrent offer holds a cell it has not published.
 *
 * <h2>Dead callers</h2>
 * A caller that dies holds up no one. What it can cost the queue: one cell (the capacity is one smaller for
 * good), when it dies holding one (between the take of a cell and its publication, or between the take of an
 * index and giving it back); and one ring entry, when it dies between its fetch-and-add of a head and the take
 * of the entry's index: that entry keeps the index, every later put passes it and every later take clears its
 * safe bit and passes it. A producer that dies between its ticket and its publication costs its cell only: the
 * take of that ticket marks it. A value whose poll died after its ticket is lost with the poll (a pending call
 * may take effect).
 *
 * <h2>Progress</h2>
 * {@link #offer} and {@link #poll} are <b>lock-free</b> (SCQ's argument: a put fails on a ticket only because a
 * take of the same ticket marked it, and takes burn at most the threshold's tickets after the last successful
 * put). No call ever waits for another caller, so none has a deadline or a patience: each call's round trips are
 * bounded by the tickets it loses to crossing calls, unbounded in the worst case.
 *
 * <p>A handle is confined to its compute thread's owner; each thread attaches its own. Tickets are 64-bit counts;
 * cycles wrap modulo 2<sup>47</sup>, which is safe while no caller's READ of an entry is 2<sup>46</sup> cycles
 * stale.
 */
public final class MpmcScqQueue extends MpmcQueueHandle {
    /** Bytes of the header before the first entry. */
    public static final int HEADER_BYTES = 64;
    /**
     * The largest capacity: a cell index is 16 bits with {@link #NONE} reserved, and the queue, with its identity
     * word, is one allocation.
     */
    public static final int MAX_CAPACITY =
            (int) Math.min(NONE, (SizeClasses.MAX - StructureIdentity.blockBytes(HEADER_BYTES)) / 40);
    static final long CAPACITY = 0;
    static final long ALLOC_RING = 8;
    static final long FREE_RING = 32;
    /** Offsets of a ring's words from its first, the tail. */
    static final long TAIL = 0;
    static final long HEAD = 8;
    static final long THRESHOLD = 16;
    static final long SAFE = 1L << INDEX_BITS;
    static final int CYCLE_SHIFT = INDEX_BITS + 1;
    static final long CYCLE_MASK = (1L << (64 - CYCLE_SHIFT)) - 1;

    private final Ring allocated;
    private final Ring free;
    private long retakes;

    private MpmcScqQueue(ComputeThread thread, StructureIdentity identity, int capacity) {
        super(thread, identity, capacity, bytes(capacity), 7);
        long entries = ptr + HEADER_BYTES;
        this.allocated = new Ring("allocated", ptr + ALLOC_RING, entries);
        this.free = new Ring("free", ptr + FREE_RING, entries + 16L * capacity);
    }

    /**
     * Creates an empty queue on the caller's node and returns the caller's handle. No RDMA operation: the
     * allocation, then CPU loads and stores on the caller's node of the handles word, the identity word, the
     * header, the entries and the free ring's cell indices, before anyone else can know the block.
     *
     * @param thread   the creator's compute thread: the queue is on its node
     * @param capacity the most words it holds, 1..{@link #MAX_CAPACITY}
     * @return the creator's handle
     * @throws BadArgumentException naming the value, for a capacity out of range
     */
    public static MpmcScqQueue create(ComputeThread thread, int capacity) {
        checkCreate(thread, capacity, MAX_CAPACITY);
        long bytes = bytes(capacity);
        StructureIdentity identity = allocateRoot(thread, StructureKind.MPMC_SCQ_QUEUE, bytes, capacity);
        MemorySegment block = thread.localSegment(identity.ptr(), bytes);
        long size = 2L * capacity;
        block.set(ValueLayout.JAVA_LONG, ALLOC_RING + TAIL, size);
        block.set(ValueLayout.JAVA_LONG, ALLOC_RING + HEAD, size);
        block.set(ValueLayout.JAVA_LONG, ALLOC_RING + THRESHOLD, -1);
        block.set(ValueLayout.JAVA_LONG, FREE_RING + TAIL, size + capacity);
        block.set(ValueLayout.JAVA_LONG, FREE_RING + HEAD, size);
        block.set(ValueLayout.JAVA_LONG, FREE_RING + THRESHOLD, threshold(capacity));
        for (int i = 0; i < 2 * size; i++) {
            boolean holdsCell = i >= size && i - size < capacity;
            block.set(ValueLayout.JAVA_LONG, HEADER_BYTES + 8L * i,
                    holdsCell ? entry(1, true, (int) (i - size)) : entry(0, true, NONE));
        }
        VarHandle.releaseFence();
        return new MpmcScqQueue(thread, identity, capacity);
    }

    /**
     * Attaches a handle for {@code thread} to the queue at {@code ptr}: one RDMA READ of the block header, the
     * handles and identity words and the capacity, and one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}): 2 round trips.
     *
     * @param thread the caller's compute thread, on any node
     * @param ptr    the queue ({@link #ptr()})
     * @return the caller's handle
     * @throws BadArgumentException     when the pointer is null or not 8-byte aligned
     * @throws WrongStructureException  when no {@code MpmcScqQueue} is at {@code ptr}: another kind of structure,
     *                                  or none
     * @throws ClosedQueueException     when the queue at {@code ptr} was destroyed
     * @throws CorruptedMemoryException when the header is not a queue's
     */
    public static MpmcScqQueue attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        MemorySegment header = MemorySegment.ofArray(new long[1]);
        StructureIdentity identity = StructureIdentity.attach(thread, StructureKind.MPMC_SCQ_QUEUE, ptr, header,
                ClosedQueueException::new, copy -> {
                    long capacity = copy.get(ValueLayout.JAVA_LONG, CAPACITY);
                    if (capacity < 1 || capacity > MAX_CAPACITY) {
                        throw new CorruptedMemoryException(ptr + CAPACITY, capacity, "queue " + RemotePtr.toString(ptr)
                                + ": header word " + capacity + " is no queue's capacity");
                    }
                });
        long capacity = header.get(ValueLayout.JAVA_LONG, CAPACITY);
        return new MpmcScqQueue(thread, identity, (int) capacity);
    }

    static long bytes(int capacity) {
        return HEADER_BYTES + 40L * capacity;
    }

    /** The top of a ring's threshold: SCQ's {@code 3n - 1}, plus {@code n} for entries held by dead callers. */
    static long threshold(int capacity) {
        return 4L * capacity - 1;
    }

    static long entry(long cycle, boolean safe, int index) {
        return ((cycle & CYCLE_MASK) << CYCLE_SHIFT) | (safe ? SAFE : 0) | index;
    }

    static long cycle(long entry) {
        return entry >>> CYCLE_SHIFT;
    }

    static boolean safe(long entry) {
        return (entry & SAFE) != 0;
    }

    /** {@code a - b} of two cycles, as a signed 47-bit difference. */
    static long after(long a, long b) {
        return ((a - b) << CYCLE_SHIFT) >> CYCLE_SHIFT;
    }

    /**
     * {@return tickets this handle took and could not use: puts whose entry a take had marked or an older index
     *         still held, and takes that found no value of their cycle and went on}
     */
    public long retakes() {
        return retakes;
    }

    private long cell(int index) {
        return ptr + HEADER_BYTES + 32L * capacity + 8L * index;
    }

    /**
     * Adds {@code value} at the tail unless the queue is full. Lock-free; never waits for another caller. 8 round
     * trips uncontended (3 READs, 1 WRITE, 2 compare-and-swaps, 3 fetch-and-adds), 9 after polls found the queue
     * empty; full: 1 once the free ring's
     * threshold ran out, otherwise 6 or 7; each ticket lost to a crossing call adds 2 (a put's) or 4 to 5 (a
     * take's). Takes effect when its allocated ring entry is published.
     *
     * @param value any word
     * @return true when added, false when no cell was free (see the class comment on full)
     * @throws ClosedQueueException     after {@link #close()} or {@link #destroy()}, or when another handle
     *                                  destroyed the queue
     * @throws CorruptedMemoryException when an entry or a cell index is no queue's
     */
    public boolean offer(long value) {
        requireOpen();
        int index = free.take();
        if (index < 0) {
            return false;
        }
        long took = thread.fetchAndAddAsync(free.taken, NONE - index, false);
        long wrote = thread.writeWordAsync(cell(index), value, false);
        free.checkTaken(thread.await(took), index);
        thread.await(wrote);
        allocated.put(index);
        return true;
    }

    /**
     * Removes and returns the word at the head, unless the queue is empty. Lock-free; never waits for another
     * caller. 8 round trips uncontended (4 READs, 2 compare-and-swaps, 3 fetch-and-adds), 9 after an offer found it
     * full; empty: 1 once
     * the allocated ring's threshold ran out, otherwise 6 or 7; each ticket lost to a crossing call adds 4 to 5.
     * Takes effect when it takes an index from the allocated ring, or answers empty.
     *
     * @return the oldest word, or empty when the queue was empty
     * @throws ClosedQueueException     after {@link #close()} or {@link #destroy()}, or when another handle
     *                                  destroyed the queue
     * @throws CorruptedMemoryException when an entry or a cell index is no queue's
     */
    public OptionalLong poll() {
        requireOpen();
        int index = allocated.take();
        if (index < 0) {
            return OptionalLong.empty();
        }
        long took = thread.fetchAndAddAsync(allocated.taken, NONE - index, false);
        long read = thread.readWordAsync(cell(index), false);
        allocated.checkTaken(thread.await(took), index);
        long value = thread.await(read);
        free.put(index);
        return OptionalLong.of(value);
    }

    /** One ring of cell indices: its tail, head and threshold words and its {@code 2n} entries. */
    private final class Ring {
        private final String name;
        private final long tailWord;
        private final long headWord;
        private final long thresholdWord;
        private final long entries;
        private final long size;
        /** The entry whose index the last {@link #take} found, for the caller's fetch-and-add that takes it. */
        long taken;

        Ring(String name, long words, long entries) {
            this.name = name;
            this.tailWord = words + TAIL;
            this.headWord = words + HEAD;
            this.thresholdWord = words + THRESHOLD;
            this.entries = entries;
            this.size = 2L * capacity;
        }

        private long entryOf(long ticket) {
            return entries + 8L * Math.floorMod(ticket, size);
        }

        private long cycleOf(long ticket) {
            return Math.floorDiv(ticket, size) & CYCLE_MASK;
        }

        /** Puts {@code index} on the ring. A ring of {@code 2n} entries never holds more than {@code n} indices, so a put always finds an entry. */
        void put(int index) {
            while (true) {
                long ticket = thread.fetchAndAdd(tailWord, 1);
                long cycle = cycleOf(ticket);
                long at = entryOf(ticket);
                long e = thread.read(at);
                while (after(cycle(e), cycle) < 0 && index(e) == NONE
                        && (safe(e) || thread.read(headWord) - ticket <= 0)) {
                    long seen = thread.compareAndSwap(at, e, entry(cycle, true, index));
                    if (seen == e) {
                        resetThreshold();
                        return;
                    }
                    e = seen;
                }
                retakes++;
            }
        }

        /**
         * Finds the oldest index on the ring and leaves its entry in {@link #taken} for the caller to take; -1 when
         * the ring is empty.
         */
        int take() {
            if (readRootWord(thresholdWord) < 0) {
                return -1;
            }
            while (true) {
                long ticket = thread.fetchAndAdd(headWord, 1);
                long cycle = cycleOf(ticket);
                long at = entryOf(ticket);
                long e = thread.read(at);
                while (true) {
                    if (cycle(e) == cycle) {
                        int index = index(e);
                        if (index >= capacity) {
                            throw new CorruptedMemoryException(at, e, "queue " + RemotePtr.toString(ptr) + ": " + name
                                    + " ring entry " + RemotePtr.toString(at) + " of ticket " + ticket + " names cell "
                                    + index + " of " + capacity);
                        }
                        taken = at;
                        return index;
                    }
                    if (after(cycle(e), cycle) >= 0) {
                        break;
                    }
                    // The ticket's put has not happened: make sure it never does, or that no later put trusts the entry.
                    long marked = index(e) == NONE ? entry(cycle, safe(e), NONE) : e & ~SAFE;
                    if (marked == e) {
                        break;
                    }
                    long seen = thread.compareAndSwap(at, e, marked);
                    if (seen == e) {
                        break;
                    }
                    e = seen;
                }
                long tail = thread.read(tailWord);
                if (tail - (ticket + 1) <= 0) {
                    catchUp(tail, ticket + 1);
                    thread.fetchAndAdd(thresholdWord, -1);
                    return -1;
                }
                if (thread.fetchAndAdd(thresholdWord, -1) <= 0) {
                    return -1;
                }
                retakes++;
            }
        }

        /**
         * Sets the threshold back to its top by compare-and-swap: one when it is there already, two when it had
         * fallen, more only when takes decrement it between. A WRITE would not do: it is not atomic with a take's
         * fetch-and-add of the same word (the simulator tears it, and Soft-RoCE's atomic may store over it), and a
         * threshold left negative makes takes answer empty while indices wait on the ring.
         */
        private void resetThreshold() {
            long top = threshold(capacity);
            long expected = top;
            while (true) {
                long seen = thread.compareAndSwap(thresholdWord, expected, top);
                if (seen == expected || seen == top) {
                    return;
                }
                expected = seen;
            }
        }

        /** Moves the tail up to the head after takes passed it, so that puts do not take tickets takes already burnt. */
        private void catchUp(long tail, long head) {
            while (true) {
                long seen = thread.compareAndSwap(tailWord, tail, head);
                if (seen == tail || seen - head >= 0) {
                    return;
                }
                tail = seen;
                head = thread.read(headWord);
                if (tail - head >= 0) {
                    return;
                }
            }
        }

        /** Checks the word the index's fetch-and-add found: the taken entry, its index unchanged. */
        void checkTaken(long was, int index) {
            if (index(was) != index) {
                throw new CorruptedMemoryException(taken, was, "queue " + RemotePtr.toString(ptr) + ": " + name
                        + " ring entry " + RemotePtr.toString(taken) + " was " + Long.toHexString(was)
                        + " when its taker took cell " + index);
            }
        }
    }
}
