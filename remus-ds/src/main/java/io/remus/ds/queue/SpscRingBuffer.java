package io.remus.ds.queue;

import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.WriteOrder;
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

/**
 * A single-producer single-consumer ring buffer of messages in the consumer's memory: the producer,
 * on any node, writes each message into the ring by RDMA; the consumer polls its own memory with the
 * CPU and never touches the network. This is LOCO's ring buffer (Lehigh's "LOCO" library of
 * composable RDMA objects; the same shape as Agrona's {@code OneToOneRingBuffer} and JCTools'
 * {@code SpscArrayQueue}, with the producer across the network).
 *
 * <h2>Layout</h2>
 * One block on the consumer's node: the ring's {@link StructureIdentity} in front of its root (the
 * handles word and the identity word, the 16 bytes before {@link Consumer#ptr()}, behind the block's
 * allocator header), then, from
 * {@link Consumer#ptr()}, a 64-byte header (word 0: slot count and largest message;
 * word 1: the producer's claim; word 2: the tail a closed producer left; word 3: the consumer's head,
 * the number of messages it consumed) and {@code slots} slots of {@code 24 + maxMessageBytes}
 * rounded up to 8 bytes:
 * <pre>
 *  ptr - 24  allocator block header   ptr + 0   slots &lt;&lt; 32 | largest message
 *  ptr - 16  handles word             ptr + 8   claim
 *  ptr - 8   identity word
 *                                     ptr + 16  tail a closed producer left
 *                                     ptr + 24  head
 *                                     ptr + 64  slot 0, slot 1 ...
 *
 *  a slot: [sequence][check: sequence &lt;&lt; 32 | length][message, padded to 8 bytes][check again]
 * </pre>
 * Message {@code i} goes to slot {@code i % slots} with sequence {@code i + 1}; the check word holds
 * the sequence's low 32 bits and the message's length, and is written both before and right after the
 * message, in the same WRITE.
 *
 * <h2>Protocol and costs</h2>
 * The ring follows the library's ordering rule for WRITEs (docs/DATA-STRUCTURES.md, "Ordering rule
 * for WRITEs"). {@link Producer#offer}: where the head it last read says the ring is full, one RDMA
 * READ of the head; then one 8-byte RDMA READ of the handles word (is the ring destroyed?), one RDMA WRITE
 * of check, message and check, and one RDMA WRITE of the sequence word. With {@link WriteOrder#ONE_DOORBELL}
 * (the default) all three go in one doorbell: <b>1 round trip</b> (1 READ, 2 WRITEs), <b>2</b> where it reads
 * the head. With {@link WriteOrder#COMPLETION} the
 * sequence WRITE is posted once the READ's and the message's completed: <b>2 round trips</b>, 3 with the head READ.
 * The head is read at most once every {@code slots} messages while the consumer keeps up. Wait-free.
 * Linearizes when the consumer can take the message: the later of the sequence word and the trailing
 * check word landing (a full ring: when the head READ returned).
 * {@link Consumer#poll}: a CPU load of the sequence word of the next slot; when it is the expected
 * sequence, loads of the leading check word and of the trailing one the leading one places; only when
 * both hold this sequence's check is the message taken (copied, the slot's check words and message
 * cleared, so that no byte of an earlier lap can pass for a later check, the new head stored). A sequence word that is there while a check word is not is a WRITE that landed before
 * the earlier WRITE of its doorbell: the slot counts as not arrived yet, and the event is counted
 * ({@link Consumer#orderViolations()}). <b>No RDMA operation.</b> Wait-free. Linearizes at the load of
 * the trailing check word (or, for an empty ring, of the sequence word).
 *
 * <p>The sequence word and each check word are written whole (aligned 8-byte stores), and a WRITE's
 * bytes land in address order, so a consumer never takes a message whose bytes are still arriving.
 * No word of the ring is touched by an RDMA atomic except the claim, which only compare-and-swaps change.
 *
 * <h2>One producer</h2>
 * {@link #producer} claims the ring with one compare-and-swap of the claim word; a second producer
 * while one holds it gets {@link ProducerClaimedException}. {@link Producer#close} writes its tail
 * and releases the claim, so a later producer continues the sequence. A producer that dies without
 * closing keeps the claim: the ring then has no producer (documented, not recovered).
 *
 * <h2>Destroy</h2>
 * The consumer's end and each producer's end are handles on the ring ({@link StructureIdentity}): the ring's
 * block is freed only once {@link Consumer#destroy} (or {@link Consumer#close}) was called and every producer that attached closed. So no
 * producer ever writes into a block another owner reuses. Every later call on the consumer's end throws
 * {@link ClosedQueueException}; a producer learns of the destroy in the handles word that each
 * {@link Producer#offer} READs in the doorbell of its message WRITE (no extra round trip), and throws
 * {@link ClosedQueueException} (the message it wrote lands in the destroyed ring, which nobody reads).
 * {@link Producer#close} after a destroy frees the ring when it is the last handle.
 */
public final class SpscRingBuffer {
    /** Bytes of the header before the first slot. */
    public static final int HEADER_BYTES = 64;
    /** Bytes of a slot before its message: the sequence word and the leading check word. */
    public static final int SLOT_HEADER_BYTES = 16;
    /** Bytes of a slot after its message: the trailing check word. */
    public static final int SLOT_TRAILER_BYTES = 8;
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
        return SLOT_HEADER_BYTES + padded(maxMessageBytes) + SLOT_TRAILER_BYTES;
    }

    /** {@code length} rounded up to 8 bytes. */
    static long padded(long length) {
        return (length + 7L) & ~7L;
    }

    /** The check word of the message with {@code sequence} and {@code length}: never 0 for a length of 1 or more. */
    static long check(long sequence, long length) {
        return sequence << 32 | length;
    }

    /**
     * Creates a ring on the consumer's node and returns the consumer's end. No RDMA operation: the
     * allocation, then CPU loads and stores on this node of the handles word, the identity word and the ring.
     *
     * @param consumer        the consumer's compute thread: the ring is on its node, and only it polls
     * @param slots           the capacity in messages, 1..{@value #MAX_SLOTS}
     * @param maxMessageBytes the largest message, at least 1; the ring (identity word, header and slots) must
     *                        fit one allocation ({@link io.remus.core.memory.SizeClasses#MAX} bytes)
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
        if (StructureIdentity.blockBytes(bytes) > SizeClasses.MAX) {
            throw new BadArgumentException("a ring of " + slots + " slots of messages up to " + maxMessageBytes + " bytes takes "
                    + StructureIdentity.blockBytes(bytes) + " bytes with its handles and identity words, more than one allocation's "
                    + SizeClasses.MAX);
        }
        StructureIdentity identity = StructureIdentity.allocate(consumer, StructureKind.SPSC_RING_BUFFER, bytes,
                consumer.nodeId(), ClosedQueueException::new);
        MemorySegment ring = consumer.localSegment(identity.ptr(), bytes);
        ring.fill((byte) 0);
        WORD.setVolatile(ring, SHAPE, ((long) slots << 32) | maxMessageBytes);
        return new Consumer(consumer, identity, ring, slots, maxMessageBytes);
    }

    /**
     * Claims the ring for a producer that writes in the {@link WriteOrder#ONE_DOORBELL} order; as
     * {@link #producer(ComputeThread, long, WriteOrder)}.
     *
     * @param producer the producer's compute thread, on any node
     * @param ptr      the ring ({@link Consumer#ptr()})
     * @return the producer's end
     * @throws ProducerClaimedException when another producer holds the ring
     * @throws WrongStructureException  when no {@code SpscRingBuffer} is at {@code ptr}: another kind of
     *                                  structure, or none
     * @throws ClosedQueueException     when the ring at {@code ptr} was destroyed
     * @throws CorruptedMemoryException when the header is not a ring's
     * @throws BadArgumentException     when the pointer is null or not 8-byte aligned, or the thread's buffer
     *                                  cannot stage one slot
     */
    public static Producer producer(ComputeThread producer, long ptr) {
        return producer(producer, ptr, WriteOrder.ONE_DOORBELL);
    }

    /**
     * Claims the ring for a producer and returns its end. One RDMA READ of the block header, the handles and
     * identity words and the ring's header (the checks of the ring and of the thread's buffer, before anything is
     * written), one compare-and-swap of the handles word (the producer's handle, {@link StructureIdentity#attach}),
     * one RDMA compare-and-swap (the claim), then one RDMA READ from the handles word through the ring's head (the
     * tail and head the claim makes current): 4 round trips. The producer stages each
     * offer in its compute thread's {@link ComputeThread#buffer()} bytes {@code [0, slot bytes + 8)} while {@link Producer#offer}
     * runs, and no buffer bytes otherwise.
     *
     * @param producer the producer's compute thread, on any node
     * @param ptr      the ring ({@link Consumer#ptr()})
     * @param order    how each offer orders its message WRITE and its sequence WRITE (costs in the class comment)
     * @return the producer's end
     * @throws ProducerClaimedException when another producer holds the ring
     * @throws WrongStructureException  when no {@code SpscRingBuffer} is at {@code ptr}: another kind of
     *                                  structure, or none (nothing is written)
     * @throws ClosedQueueException     when the ring at {@code ptr} was destroyed
     * @throws CorruptedMemoryException when the header is not a ring's (nothing is written)
     * @throws BadArgumentException     when the pointer is null or not 8-byte aligned, or the thread's buffer
     *                                  cannot stage one slot (nothing is written)
     */
    public static Producer producer(ComputeThread producer, long ptr, WriteOrder order) {
        Objects.requireNonNull(producer, "producer");
        Objects.requireNonNull(order, "order");
        MemorySegment header = MemorySegment.ofArray(new long[1]);
        StructureIdentity identity = StructureIdentity.attach(producer, StructureKind.SPSC_RING_BUFFER, ptr, header,
                ClosedQueueException::new, root -> {
                    long shape = root.getAtIndex(ValueLayout.JAVA_LONG, 0);
                    int slots = (int) (shape >>> 32);
                    int max = (int) shape;
                    if (slots < 1 || slots > MAX_SLOTS || max < 1) {
                        throw new CorruptedMemoryException(ptr + SHAPE, shape, "ring " + RemotePtr.toString(ptr)
                                + ": header word 0x" + Long.toHexString(shape) + " is no ring's shape");
                    }
                    if (producer.buffer().byteSize() < slotBytes(max) + 8) {
                        throw new BadArgumentException("compute thread buffer of " + producer.buffer().byteSize()
                                + " bytes cannot stage one " + slotBytes(max) + "-byte slot of ring "
                                + RemotePtr.toString(ptr) + " and the ring's handles word");
                    }
                });
        long shape = header.getAtIndex(ValueLayout.JAVA_LONG, 0);
        int slots = (int) (shape >>> 32);
        int max = (int) shape;
        long token = ((long) producer.nodeId() + 1) << 32 | (System.identityHashCode(producer) & 0xFFFF_FFFFL) | 1;
        long held = producer.compareAndSwap(ptr + CLAIM, 0, token);
        if (held != 0) {
            identity.close(producer, HEADER_BYTES + slots * slotBytes(max), () -> { });
            throw new ProducerClaimedException("ring " + RemotePtr.toString(ptr) + " has a producer already (claim 0x"
                    + Long.toHexString(held) + ")");
        }
        Producer end = new Producer(producer, identity, slots, max, token, order);
        end.head = end.readRootWord(HEAD);
        end.tail = end.rootWords.get(ValueLayout.JAVA_LONG, StructureIdentity.PREFIX_BYTES + TAIL);
        return end;
    }

    /** What both ends of a ring keep: their thread, their identity of the ring, and the ring's shape. */
    private abstract static class End {
        final ComputeThread thread;
        final StructureIdentity identity;
        final long ptr;
        final int slots;
        final int maxMessageBytes;
        final long slotBytes;

        End(ComputeThread thread, StructureIdentity identity, int slots, int maxMessageBytes) {
            this.thread = thread;
            this.identity = identity;
            this.ptr = identity.ptr();
            this.slots = slots;
            this.maxMessageBytes = maxMessageBytes;
            this.slotBytes = slotBytes(maxMessageBytes);
        }

        /** {@return the largest message this ring takes} */
        public int maxMessageBytes() {
            return maxMessageBytes;
        }

        /** {@return bytes of the ring's root, as given to {@link StructureIdentity#allocate}} */
        final long rootBytes() {
            return HEADER_BYTES + slots * slotBytes;
        }
    }

    /** The producer's end: confined to its compute thread's owner. */
    public static final class Producer extends End implements AutoCloseable {
        private final long token;
        private final WriteOrder order;
        /** Receives a READ of the handles word, the identity word and the ring header's first four words. */
        private final MemorySegment rootWords = MemorySegment.ofArray(new long[6]);
        private long tail;
        private long head;

        private Producer(ComputeThread thread, StructureIdentity identity, int slots, int maxMessageBytes, long token,
                         WriteOrder order) {
            super(thread, identity, slots, maxMessageBytes);
            this.token = token;
            this.order = order;
        }

        /**
         * Reads the header word at {@code offset}: one READ from the handles word through that word, whose
         * handles word shows whether the ring was destroyed.
         *
         * @throws ClosedQueueException when the ring was destroyed
         */
        private long readRootWord(long offset) {
            return identity.readRootWord(thread, offset, rootWords);
        }

        /** {@return how this producer orders a message's WRITE and its sequence word's} */
        public WriteOrder writeOrder() {
            return order;
        }

        /** {@return messages this producer's ring has been offered in all, by this and earlier producers} */
        public long offered() {
            return tail;
        }

        /**
         * Puts a message at the ring's tail, unless the ring is full. Wait-free: an 8-byte READ of the ring's
         * handles word and 2 RDMA WRITEs in 1 round trip with {@link WriteOrder#ONE_DOORBELL}, 2 round trips
         * with {@link WriteOrder#COMPLETION}; one round trip more where the last head read says full (one RDMA
         * READ of the head first). After the consumer destroyed the ring it throws {@link ClosedQueueException}
         * (the ring stays allocated while this producer is open, so its WRITEs never land in another owner's
         * memory).
         *
         * @param message the message, 1..{@link #maxMessageBytes()} bytes
         * @return whether it was put; false when the ring is full
         * @throws BadArgumentException naming the size, for an empty or oversized message
         * @throws ClosedQueueException  after {@link #close()}, or when the consumer destroyed the ring
         */
        public boolean offer(MemorySegment message) {
            Objects.requireNonNull(message, "message");
            identity.requireOpen();
            long length = message.byteSize();
            if (length < 1 || length > maxMessageBytes) {
                throw new BadArgumentException("message of " + length + " bytes; this ring takes 1.." + maxMessageBytes);
            }
            if (tail - head >= slots) {
                head = readRootWord(HEAD);
                if (tail - head >= slots) {
                    return false;
                }
            }
            long slot = ptr + HEADER_BYTES + (tail % slots) * slotBytes;
            long sequence = tail + 1;
            long check = check(sequence, length);
            long trailer = 16 + padded(length);
            MemorySegment buffer = thread.buffer();
            buffer.set(ValueLayout.JAVA_LONG, 0, sequence);
            buffer.set(ValueLayout.JAVA_LONG, 8, check);
            MemorySegment.copy(message, 0, buffer, 16, length);
            for (long pad = 16 + length; pad < trailer; pad++) {
                buffer.set(ValueLayout.JAVA_BYTE, pad, (byte) 0);
            }
            buffer.set(ValueLayout.JAVA_LONG, trailer, check);
            DoorbellBatch batch = thread.batch();
            batch.read(identity.headerAddress(), trailer + 8, 8).write(slot + 8, 8, (int) trailer);
            if (order == WriteOrder.COMPLETION) {
                batch.execute();
                identity.check(buffer.get(ValueLayout.JAVA_LONG, trailer + 8));
                batch.write(slot, 0, 8).execute();
            } else {
                batch.write(slot, 0, 8).execute();
                identity.check(buffer.get(ValueLayout.JAVA_LONG, trailer + 8));
            }
            tail = sequence;
            return true;
        }

        /**
         * Leaves the ring to a later producer: one RDMA WRITE of the tail, one compare-and-swap of the claim and
         * one fetch-and-add of the handles word (3 round trips; {@link StructureIdentity#close}). Idempotent. When
         * the consumer destroyed the ring, this producer was its last handle and frees it.
         */
        @Override
        public void close() {
            if (identity.isClosed()) {
                return;
            }
            thread.write(ptr + TAIL, tail);
            thread.compareAndSwap(ptr + CLAIM, token, 0);
            identity.close(thread, rootBytes(), () -> { });
        }
    }

    /**
     * The consumer's end: confined to its compute thread's owner, on the ring's node. It owns the ring: its
     * {@link #close()} destroys it, so that a try-with-resources block over the consumer frees the ring.
     */
    public static final class Consumer extends End implements AutoCloseable {
        private final MemorySegment ring;
        private long head;
        private long orderViolations;

        private Consumer(ComputeThread thread, StructureIdentity identity, MemorySegment ring, int slots,
                         int maxMessageBytes) {
            super(thread, identity, slots, maxMessageBytes);
            this.ring = ring;
        }

        /** {@return the ring, for {@link SpscRingBuffer#producer}} */
        public long ptr() {
            return ptr;
        }

        /** {@return the capacity in messages} */
        public int slots() {
            return slots;
        }

        /** {@return messages consumed so far} */
        public long consumed() {
            return head;
        }

        /**
         * {@return how many polls found a slot's sequence word before its message: the WRITEs of an
         *         offer landed out of order, and the poll answered "nothing yet" instead of a stale message}
         */
        public long orderViolations() {
            return orderViolations;
        }

        /**
         * Takes the message at the ring's head, if one has arrived. Wait-free, no RDMA operation: CPU
         * loads of this node's memory, CPU stores clearing the slot's check words and message, and one CPU
         * store of the head.
         *
         * @param destination where the message goes, at least {@link #maxMessageBytes()} bytes
         * @return the message's length, or -1 when none has arrived
         * @throws BadArgumentException     naming the size, for a destination smaller than the largest message
         * @throws ClosedQueueException     after {@link #destroy()} or {@link #close()}
         * @throws CorruptedMemoryException when the arrived slot's length is out of range (something
         *                                  else wrote the ring)
         */
        public int poll(MemorySegment destination) {
            Objects.requireNonNull(destination, "destination");
            thread.checkOwnerThread();
            identity.requireOpen();
            if (destination.byteSize() < maxMessageBytes) {
                throw new BadArgumentException("destination of " + destination.byteSize() + " bytes; messages are up to "
                        + maxMessageBytes);
            }
            long slot = HEADER_BYTES + (head % slots) * slotBytes;
            long sequence = (long) WORD.getVolatile(ring, slot);
            if (sequence != head + 1) {
                return -1;
            }
            long leading = (long) WORD.getVolatile(ring, slot + 8);
            if (leading == 0 || leading >>> 32 != (sequence & 0xFFFF_FFFFL)) {
                orderViolations++;
                return -1;
            }
            long length = leading & 0xFFFF_FFFFL;
            if (length < 1 || length > maxMessageBytes) {
                throw new CorruptedMemoryException(ptr + slot + 8, leading, "ring " + RemotePtr.toString(ptr) + ", message "
                        + head + ": length " + length + " is outside 1.." + maxMessageBytes);
            }
            long trailer = slot + 16 + padded(length);
            if ((long) WORD.getVolatile(ring, trailer) != leading) {
                orderViolations++;
                return -1;
            }
            MemorySegment.copy(ring, slot + 16, destination, 0, length);
            for (long word = slot + 8; word <= trailer; word += 8) {
                ring.set(ValueLayout.JAVA_LONG, word, 0L);
            }
            head++;
            WORD.setVolatile(ring, HEAD, head);
            return (int) length;
        }

        /**
         * Destroys the ring and closes this end: its later calls throw {@link ClosedQueueException}, and so do a
         * producer's later offers. One compare-and-swap of the handles word ({@link StructureIdentity#destroy});
         * the ring is freed here when no producer is attached (the allocator's costs:
         * {@link io.remus.core.RemoteAllocator#deallocate(long, long, long)}), else by the producer's close.
         *
         * @throws ClosedQueueException after {@link #destroy()} or {@link #close()}
         */
        public void destroy() {
            identity.destroy(thread, rootBytes(), () -> { });
        }

        /**
         * Closes this end: the ring has one consumer, so nobody can poll it any more, and this destroys it as
         * {@link #destroy()} does (one compare-and-swap of the handles word; freed here, or by the producer's close
         * when a producer is attached). Idempotent: after a close or a destroy it does nothing. Later calls of this
         * end throw {@link ClosedQueueException}, and so do a producer's later offers.
         */
        @Override
        public void close() {
            if (!identity.isClosed()) {
                destroy();
            }
        }
    }
}
