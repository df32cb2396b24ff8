package io.remus.ds.queue;

import io.remus.core.BadArgumentException;
import io.remus.core.ComputeThread;
import io.remus.core.CorruptedMemoryException;
import io.remus.core.RemotePtr;
import io.remus.core.memory.SizeClasses;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A single-producer single-consumer ring buffer of messages in the consumer's memory: the producer,
 * on any node, writes each message into the ring by RDMA; the consumer polls its own memory with the
 * CPU and never touches the network. This is LOCO's ring buffer (Lehigh's "LOCO" library of
 * composable RDMA objects; the same shape as Agrona's {@code OneToOneRingBuffer} and JCTools'
 * {@code SpscArrayQueue}, with the producer across the network).
 *
 * <h2>Layout</h2>
 * One block on the consumer's node: a 64-byte header (word 0: slot count and largest message;
 * word 1: the producer's claim; word 2: the tail a closed producer left; word 3: the consumer's head,
 * the number of messages it consumed) and {@code slots} slots of {@code 16 + maxMessageBytes}
 * rounded up to 8 bytes: a sequence word, a length word, the message. Message {@code i} goes to slot
 * {@code i % slots} with sequence {@code i + 1}.
 *
 * <h2>Protocol and costs</h2>
 * {@link Producer#offer}: where the head it last read says the ring is full, one RDMA READ of the
 * head; then one RDMA WRITE of length and message, and, once it completed, one RDMA WRITE of the
 * sequence word. <b>2 round trips</b> (2 WRITEs), <b>3</b> where it reads the head; the head is read
 * at most once every {@code slots} messages while the consumer keeps up. Wait-free. Linearizes when
 * the sequence word lands (a full ring: when the head READ returned).
 * {@link Consumer#poll}: a CPU load of the sequence word of the next slot; when it is the expected
 * sequence, the message is there (its WRITE completed before the sequence's was posted); the consumer
 * copies it and stores its new head. <b>No RDMA operation.</b> Wait-free. Linearizes at the load of
 * the sequence word.
 *
 * <p>The sequence word is the only flag, and it is written whole (an aligned 8-byte store), so a
 * consumer never sees a message whose bytes are still arriving. No word of the ring is touched by an
 * RDMA atomic except the claim, which only compare-and-swaps change.
 *
 * <h2>One producer</h2>
 * {@link #producer} claims the ring with one compare-and-swap of the claim word; a second producer
 * while one holds it gets {@link ProducerClaimedException}. {@link Producer#close} writes its tail
 * and releases the claim, so a later producer continues the sequence. A producer that dies without
 * closing keeps the claim: the ring then has no producer (documented, not recovered).
 */
public final class SpscRingBuffer {
    /** Bytes of the header before the first slot. */
    public static final int HEADER_BYTES = 64;
    /** Bytes of a slot before its message: the sequence word and the length word. */
    public static final int SLOT_HEADER_BYTES = 16;
    /** The most slots a ring has. */
    public static final int MAX_SLOTS = 1 << 16;
    private static final long SHAPE = 0;
    private static final long CLAIM = 8;
    private static final long TAIL = 16;
    private static final long HEAD = 24;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private SpscRingBuffer() {
    }

    /** Bytes of one slot of a ring whose messages are at most {@code maxMessageBytes}. */
    static long slotBytes(int maxMessageBytes) {
        return SLOT_HEADER_BYTES + ((maxMessageBytes + 7L) & ~7L);
    }

    /**
     * Creates a ring on the consumer's node and returns the consumer's end. Two RDMA-free steps and
     * the allocation: the block is written with CPU stores, on this node.
     *
     * @param consumer        the consumer's compute thread: the ring is on its node, and only it polls
     * @param slots           the capacity in messages, 1..{@value #MAX_SLOTS}
     * @param maxMessageBytes the largest message, at least 1; the ring (header and slots) must fit one
     *                        allocation ({@link io.remus.core.memory.SizeClasses#MAX} bytes)
     * @return the consumer's end
     * @throws BadArgumentException naming the value, for a slot count or message size out of range
     */
    public static Consumer create(ComputeThread consumer, int slots, int maxMessageBytes) {
        Objects.requireNonNull(consumer, "consumer");
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new BadArgumentException("slots must be 1.." + MAX_SLOTS + ", got " + slots);
        }
        if (maxMessageBytes < 1) {
            throw new BadArgumentException("maxMessageBytes must be at least 1, got " + maxMessageBytes);
        }
        long bytes = HEADER_BYTES + slots * slotBytes(maxMessageBytes);
        if (bytes > SizeClasses.MAX) {
            throw new BadArgumentException("a ring of " + slots + " slots of messages up to " + maxMessageBytes + " bytes takes "
                    + bytes + " bytes, more than one allocation's " + SizeClasses.MAX);
        }
        long ptr = consumer.allocator().allocate(bytes, consumer.nodeId());
        MemorySegment ring = consumer.localSegment(ptr, bytes);
        ring.fill((byte) 0);
        WORD.setVolatile(ring, SHAPE, ((long) slots << 32) | maxMessageBytes);
        return new Consumer(consumer, ptr, ring, slots, maxMessageBytes);
    }

    /**
     * Claims the ring for a producer and returns its end. One RDMA compare-and-swap (the claim), then
     * one RDMA READ of the header: 2 round trips.
     *
     * @param producer the producer's compute thread, on any node
     * @param ptr      the ring ({@link Consumer#ptr()})
     * @return the producer's end
     * @throws ProducerClaimedException when another producer holds the ring
     * @throws CorruptedMemoryException when the header is not a ring's
     */
    public static Producer producer(ComputeThread producer, long ptr) {
        Objects.requireNonNull(producer, "producer");
        long token = ((long) producer.nodeId() + 1) << 32 | (System.identityHashCode(producer) & 0xFFFF_FFFFL) | 1;
        long held = producer.compareAndSwap(ptr + CLAIM, 0, token);
        if (held != 0) {
            throw new ProducerClaimedException("ring " + RemotePtr.toString(ptr) + " has a producer already (claim 0x"
                    + Long.toHexString(held) + ")");
        }
        MemorySegment header = MemorySegment.ofArray(new long[4]);
        producer.read(ptr, header);
        long shape = header.getAtIndex(ValueLayout.JAVA_LONG, 0);
        int slots = (int) (shape >>> 32);
        int max = (int) shape;
        if (slots < 1 || slots > MAX_SLOTS || max < 1) {
            producer.compareAndSwap(ptr + CLAIM, token, 0);
            throw new CorruptedMemoryException(ptr + SHAPE, shape, "ring " + RemotePtr.toString(ptr) + ": header word 0x"
                    + Long.toHexString(shape) + " is no ring's shape");
        }
        long tail = header.getAtIndex(ValueLayout.JAVA_LONG, 2);
        long head = header.getAtIndex(ValueLayout.JAVA_LONG, 3);
        return new Producer(producer, ptr, slots, max, token, tail, head);
    }

    /** The producer's end: confined to its compute thread's owner. */
    public static final class Producer implements AutoCloseable {
        private final ComputeThread thread;
        private final long ptr;
        private final int slots;
        private final int maxMessageBytes;
        private final long slotBytes;
        private final long token;
        private final MemorySegment staging;
        private long tail;
        private long head;
        private boolean closed;

        private Producer(ComputeThread thread, long ptr, int slots, int maxMessageBytes, long token, long tail, long head) {
            this.thread = thread;
            this.ptr = ptr;
            this.slots = slots;
            this.maxMessageBytes = maxMessageBytes;
            this.slotBytes = slotBytes(maxMessageBytes);
            this.token = token;
            this.tail = tail;
            this.head = head;
            this.staging = MemorySegment.ofArray(new long[(int) ((slotBytes - 8) / 8)]);
        }

        /** {@return the largest message this ring takes} */
        public int maxMessageBytes() {
            return maxMessageBytes;
        }

        /** {@return messages this producer's ring has been offered in all, by this and earlier producers} */
        public long offered() {
            return tail;
        }

        /**
         * Puts a message at the ring's tail, unless the ring is full. Wait-free: 2 round trips (2 RDMA
         * WRITEs), 3 where the last head read says full (one RDMA READ of the head first).
         *
         * @param message the message, 1..{@link #maxMessageBytes()} bytes
         * @return whether it was put; false when the ring is full
         * @throws BadArgumentException naming the size, for an empty or oversized message
         * @throws ClosedQueueException  after {@link #close()}
         */
        public boolean offer(MemorySegment message) {
            Objects.requireNonNull(message, "message");
            if (closed) {
                throw new ClosedQueueException("producer of ring " + RemotePtr.toString(ptr) + " is closed");
            }
            long length = message.byteSize();
            if (length < 1 || length > maxMessageBytes) {
                throw new BadArgumentException("message of " + length + " bytes; this ring takes 1.." + maxMessageBytes);
            }
            if (tail - head >= slots) {
                head = thread.read(ptr + HEAD);
                if (tail - head >= slots) {
                    return false;
                }
            }
            long slot = ptr + HEADER_BYTES + (tail % slots) * slotBytes;
            staging.set(ValueLayout.JAVA_LONG, 0, length);
            MemorySegment.copy(message, 0, staging, 8, length);
            thread.write(slot + 8, staging.asSlice(0, 8 + length));
            thread.write(slot, tail + 1);
            tail++;
            return true;
        }

        /**
         * Leaves the ring to a later producer: one RDMA WRITE of the tail and one compare-and-swap of
         * the claim (2 round trips). Idempotent.
         */
        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            thread.write(ptr + TAIL, tail);
            thread.compareAndSwap(ptr + CLAIM, token, 0);
        }
    }

    /** The consumer's end: confined to its compute thread's owner, on the ring's node. */
    public static final class Consumer {
        private final ComputeThread thread;
        private final long ptr;
        private final MemorySegment ring;
        private final int slots;
        private final int maxMessageBytes;
        private final long slotBytes;
        private long head;

        private Consumer(ComputeThread thread, long ptr, MemorySegment ring, int slots, int maxMessageBytes) {
            this.thread = thread;
            this.ptr = ptr;
            this.ring = ring;
            this.slots = slots;
            this.maxMessageBytes = maxMessageBytes;
            this.slotBytes = slotBytes(maxMessageBytes);
        }

        /** {@return the ring, for {@link SpscRingBuffer#producer}} */
        public long ptr() {
            return ptr;
        }

        /** {@return the capacity in messages} */
        public int slots() {
            return slots;
        }

        /** {@return the largest message} */
        public int maxMessageBytes() {
            return maxMessageBytes;
        }

        /** {@return messages consumed so far} */
        public long consumed() {
            return head;
        }

        /**
         * Takes the message at the ring's head, if one has arrived. Wait-free, no RDMA operation: CPU
         * loads of this node's memory and one CPU store of the head.
         *
         * @param destination where the message goes, at least {@link #maxMessageBytes()} bytes
         * @return the message's length, or -1 when none has arrived
         * @throws BadArgumentException     naming the size, for a destination smaller than the largest message
         * @throws CorruptedMemoryException when the arrived slot's length is out of range (something
         *                                  else wrote the ring)
         */
        public int poll(MemorySegment destination) {
            Objects.requireNonNull(destination, "destination");
            thread.checkOwnerThread();
            if (destination.byteSize() < maxMessageBytes) {
                throw new BadArgumentException("destination of " + destination.byteSize() + " bytes; messages are up to "
                        + maxMessageBytes);
            }
            long slot = HEADER_BYTES + (head % slots) * slotBytes;
            long sequence = (long) WORD.getVolatile(ring, slot);
            if (sequence != head + 1) {
                return -1;
            }
            long length = ring.get(ValueLayout.JAVA_LONG, slot + 8);
            if (length < 1 || length > maxMessageBytes) {
                throw new CorruptedMemoryException(ptr + slot + 8, length, "ring " + RemotePtr.toString(ptr) + ", message "
                        + head + ": length " + length + " is outside 1.." + maxMessageBytes);
            }
            MemorySegment.copy(ring, slot + 16, destination, 0, length);
            head++;
            WORD.setVolatile(ring, HEAD, head);
            return (int) length;
        }

        /**
         * Frees the ring (the allocator's costs). Every producer must have closed, and no handle may be used after.
         */
        public void destroy() {
            thread.allocator().deallocate(ptr, HEADER_BYTES + slots * slotBytes);
        }
    }
}
