package io.remus.ds.queue;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.CorruptedMemoryException;
import io.remus.core.RemotePtr;
import io.remus.core.memory.SizeClasses;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.locks.LockSupport;

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
 * giving up never loses or duplicates a value. The fetch-and-add variant with skipped slots is not
 * implemented.
 *
 * <h2>Layout</h2>
 * One block on the creator's node: a 64-byte header (word 0: the capacity; word 1: the tail, the
 * number of tickets producers claimed; word 2: the head, the number of tickets consumers claimed) and
 * {@code capacity} slots of 16 bytes: a sequence word and a value word. Ticket {@code i} uses slot
 * {@code i % capacity}; its sequence word is {@code 2i} while the slot is free for ticket {@code i}'s
 * producer, {@code 2i + 1} once that producer published its value, and {@code 2(i + capacity)} once
 * ticket {@code i}'s consumer took the value (free for the next lap). The tail, the head and every
 * sequence word are changed only by RDMA compare-and-swap (after the creator's CPU stores, before the
 * queue is shared); the value word only by RDMA WRITE, and only by the producer that claimed its
 * ticket, before it publishes the sequence word; it is read only after that.
 *
 * <h2>Operations, costs and linearization points</h2>
 * {@link #offer}: READ the sequence word of the slot of the tail this handle last saw; when it is free
 * for that ticket, compare-and-swap the tail to claim it, WRITE the value, compare-and-swap the
 * sequence word to published. <b>4 round trips</b> (1 READ, 1 WRITE, 2 compare-and-swaps) when this
 * handle's tail is current; 6 when another handle moved the tail (one more READ of the sequence word
 * and one READ of the tail). Full: the sequence word shows the slot's previous consumer has not
 * released it and a READ of the head confirms {@code tail - head == capacity}: <b>2 round trips</b>
 * (2 READs). Linearizes at the successful tail compare-and-swap; full linearizes at the READ of the
 * sequence word.
 * {@link #poll}: symmetric. READ the sequence word of the head's slot; when published, compare-and-swap
 * the head, READ the value, compare-and-swap the sequence word to free. <b>4 round trips</b> (2 READs,
 * 2 compare-and-swaps); empty: a READ of the tail confirms {@code tail == head}, <b>2 round trips</b>.
 * Linearizes at the successful head compare-and-swap; empty at the READ of the sequence word.
 *
 * <h2>Progress</h2>
 * A lost compare-and-swap means another caller claimed a ticket: retries are lock-free. The one wait
 * is for a claim in flight: an offer whose slot's previous consumer claimed the head but has not
 * freed the slot yet, or a poll whose ticket's producer claimed the tail but has not published. If
 * that holder stalls (or dies) between its claim and its last compare-and-swap, callers reaching
 * that ticket wait for it: an offer or poll is <b>lock-free while no claim holder stalls, blocking on
 * a stalled one</b>. Every wait ends at the caller's deadline with {@link QueueTimeoutException},
 * having taken no effect; callers that do not reach the stalled ticket are not affected (producers
 * keep offering until the queue is full, and a full or empty answer is still exact). A dead holder's
 * ticket is not recovered. The caller's patience bounds the waits for claims in flight; a lost race
 * (another caller's claim succeeded) retries at once. Worst case round trips per call: unbounded
 * (lost races without end, or waits until the deadline).
 *
 * <p>A handle is confined to its compute thread's owner; each thread attaches its own. Tickets are
 * 63-bit counts that would overflow after 2<sup>62</sup> operations.
 */
public final class MpmcBoundedQueue implements AutoCloseable {
    /** Bytes of the header before the first slot. */
    public static final int HEADER_BYTES = 64;
    /** Bytes of a slot: its sequence word and its value word. */
    public static final int SLOT_BYTES = 16;
    /** The largest capacity: the queue is one allocation of {@link SizeClasses#MAX} bytes at most. */
    public static final int MAX_CAPACITY = (int) ((SizeClasses.MAX - HEADER_BYTES) / SLOT_BYTES);
    static final long CAPACITY = 0;
    static final long TAIL = 8;
    static final long HEAD = 16;
    private static final long MAX_BACKOFF_NANOS = 1_000_000;

    private final ComputeThread thread;
    private final long ptr;
    private final int capacity;
    private long tail;
    private long head;
    private boolean closed;

    private MpmcBoundedQueue(ComputeThread thread, long ptr, int capacity, long tail, long head) {
        this.thread = thread;
        this.ptr = ptr;
        this.capacity = capacity;
        this.tail = tail;
        this.head = head;
    }

    /**
     * Creates an empty queue on the caller's node and returns the caller's handle. No RDMA operation:
     * the allocation, then CPU stores of the header and the slots' sequence words, before anyone else
     * can know the block.
     *
     * @param thread   the creator's compute thread: the queue is on its node
     * @param capacity the most words it holds, 1..{@link #MAX_CAPACITY}
     * @return the creator's handle
     * @throws BadArgumentException naming the value, for a capacity out of range
     */
    public static MpmcBoundedQueue create(ComputeThread thread, int capacity) {
        Objects.requireNonNull(thread, "thread");
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new BadArgumentException("capacity must be 1.." + MAX_CAPACITY + ", got " + capacity);
        }
        long bytes = bytes(capacity);
        long ptr = thread.allocator().allocate(bytes, thread.nodeId());
        MemorySegment block = thread.localSegment(ptr, bytes);
        block.fill((byte) 0);
        block.set(ValueLayout.JAVA_LONG, CAPACITY, capacity);
        for (int i = 0; i < capacity; i++) {
            block.set(ValueLayout.JAVA_LONG, HEADER_BYTES + (long) i * SLOT_BYTES, 2L * i);
        }
        VarHandle.releaseFence();
        return new MpmcBoundedQueue(thread, ptr, capacity, 0, 0);
    }

    /**
     * Attaches a handle for {@code thread} to the queue at {@code ptr}: one RDMA READ of the header's
     * first three words (1 round trip).
     *
     * @param thread the caller's compute thread, on any node
     * @param ptr    the queue ({@link #ptr()})
     * @return the caller's handle
     * @throws CorruptedMemoryException when the header is not a queue's
     */
    public static MpmcBoundedQueue attach(ComputeThread thread, long ptr) {
        Objects.requireNonNull(thread, "thread");
        MemorySegment header = MemorySegment.ofArray(new long[3]);
        thread.read(ptr, header);
        long capacity = header.getAtIndex(ValueLayout.JAVA_LONG, 0);
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new CorruptedMemoryException(ptr + CAPACITY, capacity, "queue " + RemotePtr.toString(ptr)
                    + ": header word " + capacity + " is no queue's capacity");
        }
        return new MpmcBoundedQueue(thread, ptr, (int) capacity, header.getAtIndex(ValueLayout.JAVA_LONG, 1),
                header.getAtIndex(ValueLayout.JAVA_LONG, 2));
    }

    static long bytes(int capacity) {
        return HEADER_BYTES + (long) capacity * SLOT_BYTES;
    }

    /** @return the queue, for {@link #attach} */
    public long ptr() {
        return ptr;
    }

    /** @return the most words the queue holds */
    public int capacity() {
        return capacity;
    }

    private long slot(long ticket) {
        return ptr + HEADER_BYTES + Math.floorMod(ticket, capacity) * (long) SLOT_BYTES;
    }

    /**
     * Adds {@code value} at the tail unless the queue is full. Lock-free while no claim holder stalls;
     * blocking, up to {@code patience}, on a consumer that claimed this slot's previous ticket and has
     * not freed it. 4 round trips (READ, compare-and-swap, WRITE, compare-and-swap) when this handle's
     * tail is current, 6 when another handle moved it, 2 (2 READs) when full; each lost race adds at
     * most 2. Linearizes at the tail compare-and-swap that claims the ticket, or (full) at the READ of
     * the slot's sequence word.
     *
     * @param value    any word
     * @param patience how long to wait for a claim in flight; zero tries without waiting
     * @return true when added, false when the queue was full
     * @throws BadArgumentException     naming the value, for a negative patience
     * @throws ClosedQueueException     after {@link #close()}
     * @throws QueueTimeoutException    when the patience ran out; the value was not added
     * @throws CorruptedMemoryException when the slot's sequence word changed under the claim holder
     */
    public boolean offer(long value, Duration patience) {
        long deadline = deadline(patience);
        long pos = tail;
        long busy = 0;
        while (true) {
            if (busy > 0) {
                busy = pause(deadline, busy, "offer", pos);
            }
            long slot = slot(pos);
            long seq = thread.read(slot);
            if (seq == 2 * pos) {
                long seen = thread.compareAndSwap(ptr + TAIL, pos, pos + 1);
                if (seen == pos) {
                    thread.write(slot + 8, value);
                    publish(slot, 2 * pos, 2 * pos + 1);
                    tail = pos + 1;
                    return true;
                }
                pos = seen;
                busy = 0;
            } else if (seq - 2 * pos > 0) {
                pos = thread.read(ptr + TAIL);
                busy = 0;
            } else {
                long h = thread.read(ptr + HEAD);
                head = Math.max(head, h);
                if (pos - h >= capacity) {
                    tail = pos;
                    return false;
                }
                busy++;
            }
        }
    }

    /**
     * Removes and returns the word at the head, unless the queue is empty. Lock-free while no claim
     * holder stalls; blocking, up to {@code patience}, on a producer that claimed this ticket and has
     * not published its value. 4 round trips (READ, compare-and-swap, READ, compare-and-swap) when this
     * handle's head is current, 6 when another handle moved it, 2 (2 READs) when empty; each lost race
     * adds at most 2. Linearizes at the head compare-and-swap that claims the ticket, or (empty) at the
     * READ of the slot's sequence word.
     *
     * @param patience how long to wait for a claim in flight; zero tries without waiting
     * @return the oldest word, or empty when the queue was empty
     * @throws BadArgumentException     naming the value, for a negative patience
     * @throws ClosedQueueException     after {@link #close()}
     * @throws QueueTimeoutException    when the patience ran out; nothing was removed
     * @throws CorruptedMemoryException when the slot's sequence word changed under the claim holder
     */
    public OptionalLong poll(Duration patience) {
        long deadline = deadline(patience);
        long pos = head;
        long busy = 0;
        while (true) {
            if (busy > 0) {
                busy = pause(deadline, busy, "poll", pos);
            }
            long slot = slot(pos);
            long seq = thread.read(slot);
            if (seq == 2 * pos + 1) {
                long seen = thread.compareAndSwap(ptr + HEAD, pos, pos + 1);
                if (seen == pos) {
                    long value = thread.read(slot + 8);
                    publish(slot, 2 * pos + 1, 2 * (pos + capacity));
                    head = pos + 1;
                    return OptionalLong.of(value);
                }
                pos = seen;
                busy = 0;
            } else if (seq - (2 * pos + 1) > 0) {
                pos = thread.read(ptr + HEAD);
                busy = 0;
            } else {
                long t = thread.read(ptr + TAIL);
                tail = Math.max(tail, t);
                if (t <= pos) {
                    head = pos;
                    return OptionalLong.empty();
                }
                busy++;
            }
        }
    }

    private void publish(long slot, long expected, long desired) {
        long was = thread.compareAndSwap(slot, expected, desired);
        if (was != expected) {
            throw new CorruptedMemoryException(slot, was, "queue " + RemotePtr.toString(ptr) + ": sequence word "
                    + RemotePtr.toString(slot) + " was " + was + " under its ticket's holder, expected " + expected);
        }
    }

    private long deadline(Duration patience) {
        Objects.requireNonNull(patience, "patience");
        if (closed) {
            throw new ClosedQueueException("handle of queue " + RemotePtr.toString(ptr) + " is closed");
        }
        if (patience.isNegative()) {
            throw new BadArgumentException("patience must not be negative, got " + patience);
        }
        long now = System.nanoTime();
        long nanos = patience.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : patience.toNanos();
        return now + nanos;
    }

    /**
     * Waits before re-reading a slot held by a claim in flight ({@code busy} consecutive times so far),
     * the wait growing to {@link #MAX_BACKOFF_NANOS}; throws at the deadline.
     */
    private long pause(long deadline, long busy, String op, long ticket) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new QueueTimeoutException(op + " on queue " + RemotePtr.toString(ptr) + ": ticket " + ticket
                    + "'s slot stayed held by another caller's operation in flight past the deadline");
        }
        if (busy < 4) {
            Thread.onSpinWait();
        } else {
            LockSupport.parkNanos(Math.min(Math.min(1_000L << Math.min(busy - 4, 10), MAX_BACKOFF_NANOS), left));
        }
        return busy;
    }

    /** Ends this handle: later calls throw {@link ClosedQueueException}. No RDMA operation; idempotent. */
    @Override
    public void close() {
        closed = true;
    }

    /**
     * Frees the queue (the allocator's costs) and closes this handle. No other handle may be used after.
     *
     * @throws ClosedQueueException after {@link #close()}
     */
    public void destroy() {
        if (closed) {
            throw new ClosedQueueException("handle of queue " + RemotePtr.toString(ptr) + " is closed");
        }
        closed = true;
        thread.allocator().deallocate(ptr, bytes(capacity));
    }
}
