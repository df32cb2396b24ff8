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
 * A bounded multi-producer multi-consumer FIFO queue of {@code long} words in one node's memory,
 * reached by every caller, on any node, through one-sided RDMA. It follows Vyukov's bounded MPMC
 * queue (D. Vyukov, "Bounded MPMC queue", 1024cores.net, 2010; the per-slot turn scheme of
 * E. Rigtorp's {@code MPMCQueue}): a tail and a head ticket counter and, per slot, a sequence word
 * that says whose turn the slot is.
 *
 * <h2>Why tickets are claimed by compare-and-swap, after the slot is ready</h2>
 * A fetch-and-add ticket (as in Rigtorp's queue or SCQ, R. Nikolaev, "A Scalable, Portable, and
 * Memory-Efficient Lock-Free FIFO Queue", DISC 2019) is taken before its slot is ready, and its holder
 * must then wait for the slot: a holder that gives up at its deadline can neither return the ticket
 * nor leave its peer (the producer or consumer of the same ticket) without a value lost or duplicated,
 * unless the slot can be marked skipped and the peer retakes one, as SCQ does. This queue instead
 * reads the slot's sequence word first and claims the ticket with one compare-and-swap of the tail
 * (offer) or the head (poll) only when the slot is ready for it; a claim holder never waits, it only
 * finishes its own two steps. A caller that waits, and gives up at its deadline, holds no ticket, so
 * giving up never loses or duplicates a value. The fetch-and-add variant with skipped slots is
 * {@link MpmcScqQueue}.
 *
 * <h2>Layout</h2>
 * One block on the creator's node: the queue's {@link StructureIdentity} in front of its root (the block's
 * allocator header and the identity word, the 16 bytes before {@link #ptr()}), then, from {@link #ptr()}, a
 * 64-byte header (word 0: the capacity; word 1: the tail, the
 * number of tickets producers claimed; word 2: the head, the number of tickets consumers claimed) and
 * {@code capacity} slots of 16 bytes: a sequence word and a value word. Ticket {@code i} uses slot
 * {@code i % capacity}; its sequence word is {@code 2i} while the slot is free for ticket {@code i}'s
 * producer, {@code 2i + 1} once that producer published its value, and {@code 2(i + capacity)} once
 * ticket {@code i}'s consumer took the value (free for the next lap). The tail, the head and every
 * sequence word are changed only by RDMA compare-and-swap (after the creator's CPU stores, before the
 * queue is shared); the value word only by RDMA WRITE, and only by the producer that claimed its
 * ticket, before it publishes the sequence word; it is read only after that.
 * <pre>
 *  ptr - 24  allocator block header
 *  ptr - 16  handles word                ptr + 0   capacity
 *  ptr - 8   identity word               ptr + 8   tail
 *                                        ptr + 16  head
 *                                        ptr + 64  slot 0: sequence, value; slot 1 ...
 * </pre>
 *
 * <h2>Destroy</h2>
 * {@link #destroy} marks the queue destroyed; its block is freed when the last handle is closed (each handle is
 * counted in the root's handles word, {@link StructureIdentity}), so no handle ever touches freed memory. Of two
 * handles that destroy the queue, in any processes, one marks it and the other gets {@link ClosedQueueException}.
 * A call learns of a destroy from the root's handles word in its first doorbell: every offer and poll posts, with
 * the READ of its first slot, an 8-byte READ of the handles word (16 bytes before the queue; on the queue's own
 * node, a CPU load after the slot's), and every READ of the tail or the head starts at the handles word too; the
 * word is checked before anything read with it is used. So a call that starts after any handle's destroy returned
 * throws {@link ClosedQueueException}; a call concurrent with a destroy completes on the queue's memory, intact,
 * before or after it.
 *
 * <h2>Operations, costs and linearization points</h2>
 * {@link #offer}: READ the sequence word of the slot of the tail this handle last saw, and the handles word
 * in the same doorbell; when the slot is free for that ticket, compare-and-swap the tail to claim it, WRITE
 * the value, compare-and-swap the sequence word to published. <b>4 round trips</b> (2 READs in the first
 * doorbell, 1 WRITE, 2 compare-and-swaps) when this handle's tail is current; 6 when another handle moved the
 * tail (one more READ of the sequence word and one READ of the tail). When the slot still holds the previous
 * lap's value, a READ of the head tells whether that lap's consumer claimed it: if not, the queue is full
 * ({@code tail - head == capacity}: <b>2 round trips</b>, 3 READs); if so, the consumer already holds the
 * value, and the offer frees the slot for it (one compare-and-swap; 2 more round trips) instead of waiting.
 * Linearizes at the successful tail compare-and-swap; full linearizes at the READ of the head.
 * {@link #poll}: READ the head's slot, sequence and value words in one READ of 16 bytes, and the handles word
 * in the same doorbell; when published, compare-and-swap the head to claim the ticket, which makes the value
 * read the caller's, then compare-and-swap the sequence word to free. <b>3 round trips</b> (2 READs in one
 * doorbell, 2 compare-and-swaps); 5 when another handle moved the head; empty: a READ of the tail confirms
 * {@code tail == head}, <b>2 round trips</b> (3 READs). Linearizes at the successful head compare-and-swap;
 * empty at the READ of the slot.
 *
 * <h2>Why a consumer's value is its own before it frees the slot</h2>
 * The READ that shows the slot published also returns its value: the value word was written before the
 * sequence word was published and is not written again until the slot is freed, which needs the head past
 * the ticket; so when the claim succeeds, the head was at the ticket until then and the value read is the
 * ticket's. That needs the READ's load of the value word to see the producer's WRITE whenever its load of
 * the sequence word sees the publication. The WRITE completes a full round trip before the publication is
 * posted (the producer waits for its completion), and one READ's loads of 16 aligned bytes are not a round
 * trip apart: the simulator loads them in address order, a NIC that reads them in one PCIe read loads
 * them together, and Soft-RoCE's responder copies them in one memcpy. So a consumer that stalls or dies
 * after its claim holds nothing others need: the next lap's producer frees the slot, and the consumer's own
 * late compare-and-swap fails and changes nothing.
 *
 * <h2>Progress</h2>
 * {@link #offer} is <b>lock-free</b>: a lost compare-and-swap means another caller claimed a ticket or freed
 * the slot, and it never waits for another caller. {@link #poll} is <b>lock-free while no producer stalls
 * between its claim and its publication, blocking on a stalled one</b>: a poll whose ticket's producer
 * claimed the tail but has not published waits for it, and the wait ends at the caller's deadline with
 * {@link QueueTimeoutException}, having taken no effect; polls of other tickets are not affected, nor are
 * producers (a full answer is still exact). A dead producer's ticket is not recovered: the polls that reach
 * it time out, and producers see the queue full once a lap brings them to its slot. Skipping such a ticket
 * safely needs values and tickets in one word (as in SCQ, above), which a queue of 64-bit words does not
 * have. Worst case round trips per call: unbounded (lost races without end, or a poll's wait until its
 * deadline).
 *
 * <p>A call uses the first 24 bytes of the thread's registered buffer as scratch, and posts its first doorbell
 * with the thread's {@link io.remus.core.DoorbellBatch}, which must be empty when the call starts.
 *
 * <p>A handle is confined to its compute thread's owner; each thread attaches its own. Tickets are
 * 63-bit counts that would overflow after 2<sup>62</sup> operations.
 */
public final class MpmcBoundedQueue extends MpmcQueueHandle {
    /** Bytes of the header before the first slot. */
    public static final int HEADER_BYTES = 64;
    /** Bytes of a slot: its sequence word and its value word. */
    public static final int SLOT_BYTES = 16;
    /** The largest capacity: the queue, with its handles and identity words, is one allocation of {@link SizeClasses#MAX} bytes at most. */
    public static final int MAX_CAPACITY =
            (int) ((SizeClasses.MAX - StructureIdentity.blockBytes(HEADER_BYTES)) / SLOT_BYTES);
    static final long CAPACITY = 0;
    static final long TAIL = 8;
    static final long HEAD = 16;
    private static final long MAX_BACKOFF_NANOS = 1_000_000;

    private long tail;
    private long head;

    private MpmcBoundedQueue(ComputeThread thread, StructureIdentity identity, int capacity, long tail, long head) {
        super(thread, identity, capacity, bytes(capacity), 3);
        this.tail = tail;
        this.head = head;
    }

    /**
     * Creates an empty queue on the caller's node and returns the caller's handle. No RDMA operation:
     * the allocation, then CPU loads and stores on the caller's node of the handles word, the identity
     * word, the header and the slots' sequence words, before anyone else can know the block.
     *
     * @param thread   the creator's compute thread: the queue is on its node
     * @param capacity the most words it holds, 1..{@link #MAX_CAPACITY}
     * @return the creator's handle
     * @throws BadArgumentException naming the value, for a capacity out of range
     */
    public static MpmcBoundedQueue create(ComputeThread thread, int capacity) {
        checkCreate(thread, capacity, MAX_CAPACITY);
        long bytes = bytes(capacity);
        StructureIdentity identity = allocateRoot(thread, StructureKind.MPMC_BOUNDED_QUEUE, bytes, capacity);
        MemorySegment block = thread.localSegment(identity.ptr(), bytes);
        for (int i = 0; i < capacity; i++) {
            block.set(ValueLayout.JAVA_LONG, HEADER_BYTES + (long) i * SLOT_BYTES, 2L * i);
        }
        VarHandle.releaseFence();
        return new MpmcBoundedQueue(thread, identity, capacity, 0, 0);
    }

    /**
     * Attaches a handle for {@code thread} to the queue at {@code ptr}: one RDMA READ of the block header,
     * the handles and identity words and the header's first three words, and one compare-and-swap of the handles
     * word ({@link StructureIdentity#attach}): 2 round trips.
     *
     * @param thread the caller's compute thread, on any node
     * @param ptr    the queue ({@link #ptr()})
     * @return the caller's handle
     * @throws io.remus.core.error.BadArgumentException when the pointer is null or not 8-byte aligned
     * @throws WrongStructureException  when no {@code MpmcBoundedQueue} is at {@code ptr}: another kind of
     *                                  structure, or none
     * @throws ClosedQueueException     when the queue at {@code ptr} was destroyed
     * @throws CorruptedMemoryException when the header is not a queue's
     */
    public static MpmcBoundedQueue attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        MemorySegment header = MemorySegment.ofArray(new long[3]);
        StructureIdentity identity = StructureIdentity.attach(thread, StructureKind.MPMC_BOUNDED_QUEUE, ptr, header,
                ClosedQueueException::new, copy -> {
                    long capacity = copy.getAtIndex(ValueLayout.JAVA_LONG, 0);
                    if (capacity < 1 || capacity > MAX_CAPACITY) {
                        throw new CorruptedMemoryException(ptr + CAPACITY, capacity, "queue " + RemotePtr.toString(ptr)
                                + ": header word " + capacity + " is no queue's capacity");
                    }
                });
        long capacity = header.getAtIndex(ValueLayout.JAVA_LONG, 0);
        return new MpmcBoundedQueue(thread, identity, (int) capacity, header.getAtIndex(ValueLayout.JAVA_LONG, 1),
                header.getAtIndex(ValueLayout.JAVA_LONG, 2));
    }

    static long bytes(int capacity) {
        return HEADER_BYTES + (long) capacity * SLOT_BYTES;
    }

    private long slot(long ticket) {
        return ptr + HEADER_BYTES + Math.floorMod(ticket, capacity) * (long) SLOT_BYTES;
    }

    /**
     * Adds {@code value} at the tail unless the queue is full. Lock-free: it never waits for another caller (a
     * slot whose previous consumer claimed its ticket but has not freed it is freed by this offer). 4 round
     * trips (the slot's sequence word and the handles word, 2 READs in one doorbell; compare-and-swap, WRITE,
     * compare-and-swap) when this handle's tail is current, 6 when another handle moved it, 2 (3 READs) when
     * full, 2 more when it frees a slot; each lost race adds at most 2. Linearizes at the tail compare-and-swap
     * that claims the ticket, or (full) at the READ of the head. A call that starts after any handle's destroy
     * returned throws {@link ClosedQueueException}; a call concurrent with a destroy may complete before it.
     *
     * @param value    any word
     * @param patience accepted for symmetry with {@link #poll}; an offer never waits, so it never runs out
     * @return true when added, false when the queue was full
     * @throws BadArgumentException     naming the value, for a negative patience
     * @throws ClosedQueueException     after {@link #close()} or {@link #destroy()}, or when the queue was
     *                                  destroyed: always when any handle's destroy returned before the call started
     * @throws CorruptedMemoryException when the slot's sequence word changed under the claim holder
     */
    public boolean offer(long value, Duration patience) {
        deadline(patience);
        long pos = tail;
        boolean first = true;
        while (true) {
            long slot = slot(pos);
            long seq = readWord(slot, first);
            first = false;
            if (seq == 2 * pos) {
                long seen = thread.compareAndSwap(ptr + TAIL, pos, pos + 1);
                if (seen == pos) {
                    thread.write(slot + 8, value);
                    publish(slot, 2 * pos, 2 * pos + 1);
                    tail = pos + 1;
                    return true;
                }
                pos = seen;
            } else if (seq - 2 * pos > 0) {
                pos = readRootWord(ptr + TAIL);
            } else {
                long h = readRootWord(ptr + HEAD);
                head = Math.max(head, h);
                if (pos - h >= capacity) {
                    tail = pos;
                    return false;
                }
                // The previous lap's consumer claimed its ticket (the head passed it) and holds its value: free the
                // slot for it. When the compare-and-swap fails, the consumer or another producer freed it first.
                if (seq == 2 * (pos - capacity) + 1) {
                    thread.compareAndSwap(slot, seq, 2 * pos);
                }
            }
        }
    }

    /**
     * Removes and returns the word at the head, unless the queue is empty. Lock-free while no claim holder
     * stalls; blocking, up to {@code patience}, on a producer that claimed this ticket and has not published
     * its value. 3 round trips (the slot's 16 bytes and the handles word, 2 READs in one doorbell;
     * compare-and-swap, compare-and-swap) when this handle's head is current, 5 when another handle moved it, 2
     * (3 READs) when empty; each lost race adds at most 2. Linearizes at the head compare-and-swap that claims
     * the ticket, or (empty) at the READ of the slot. A call that starts after any handle's destroy returned
     * throws {@link ClosedQueueException}; a call concurrent with a destroy may complete before it.
     *
     * @param patience how long to wait for a producer's claim in flight; zero tries without waiting
     * @return the oldest word, or empty when the queue was empty
     * @throws BadArgumentException     naming the value, for a negative patience
     * @throws ClosedQueueException     after {@link #close()} or {@link #destroy()}, or when the queue was
     *                                  destroyed: always when any handle's destroy returned before the call started
     * @throws QueueTimeoutException    when the patience ran out; nothing was removed
     * @throws CorruptedMemoryException when the slot's sequence word went back under the claim holder
     */
    public OptionalLong poll(Duration patience) {
        long deadline = deadline(patience);
        long pos = head;
        long busy = 0;
        boolean first = true;
        while (true) {
            if (busy > 0) {
                busy = pause(deadline, busy, "poll", pos);
            }
            long slot = slot(pos);
            MemorySegment buf = thread.buffer();
            if (first) {
                readChecked(slot, SLOT_BYTES);
                first = false;
            } else {
                thread.read(slot, 0, SLOT_BYTES);
            }
            long seq = buf.get(ValueLayout.JAVA_LONG, 0);
            if (seq == 2 * pos + 1) {
                long value = buf.get(ValueLayout.JAVA_LONG, 8);
                long seen = thread.compareAndSwap(ptr + HEAD, pos, pos + 1);
                if (seen == pos) {
                    free(slot, pos);
                    head = pos + 1;
                    return OptionalLong.of(value);
                }
                pos = seen;
                busy = 0;
            } else if (seq - (2 * pos + 1) > 0) {
                pos = readRootWord(ptr + HEAD);
                busy = 0;
            } else {
                long t = readRootWord(ptr + TAIL);
                tail = Math.max(tail, t);
                if (t <= pos) {
                    head = pos;
                    return OptionalLong.empty();
                }
                busy++;
            }
        }
    }

    /**
     * Frees the slot of ticket {@code pos}, whose value this consumer holds, for the next lap: a compare-and-swap
     * of its sequence word from published to free. It fails only when a producer of the next lap freed it first
     * (the word is then at least that lap's free value).
     */
    private void free(long slot, long pos) {
        long expected = 2 * pos + 1;
        long next = 2 * (pos + capacity);
        long was = thread.compareAndSwap(slot, expected, next);
        if (was != expected && was - next < 0) {
            throw new CorruptedMemoryException(slot, was, "queue " + RemotePtr.toString(ptr) + ": sequence word "
                    + RemotePtr.toString(slot) + " was " + was + " under its ticket's consumer, expected " + expected
                    + " or, freed by the next lap's producer, at least " + next);
        }
    }

    private void publish(long slot, long expected, long desired) {
        long was = thread.compareAndSwap(slot, expected, desired);
        if (was != expected) {
            throw new CorruptedMemoryException(slot, was, "queue " + RemotePtr.toString(ptr) + ": sequence word "
                    + RemotePtr.toString(slot) + " was " + was + " under its ticket's holder, expected " + expected);
        }
    }


    /**
     * Waits before re-reading a slot held by a claim in flight ({@code busy} consecutive times so far),
     * the wait growing to {@link #MAX_BACKOFF_NANOS}; throws at the deadline.
     */
    private long pause(long deadline, long busy, String op, long ticket) {
        long left = deadline - ThreadTime.nanoTime();
        if (left <= 0) {
            throw new QueueTimeoutException(op + " on queue " + RemotePtr.toString(ptr) + ": ticket " + ticket
                    + "'s slot stayed held by another caller's operation in flight past the deadline");
        }
        if (busy < 4) {
            ThreadTime.onSpinWait("a bounded queue's slot held by a claim in flight");
        } else {
            ThreadTime.parkNanos("a bounded queue's slot held by a claim in flight",
                    Math.min(Math.min(1_000L << Math.min(busy - 4, 10), MAX_BACKOFF_NANOS), left));
        }
        return busy;
    }
}
