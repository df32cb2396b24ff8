package io.remus.bench.structure;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * YCSB D's key generator for the whole cluster, in remote memory on node 0: YCSB's insert counter and
 * its acknowledged counter (B. F. Cooper et al., "Benchmarking Cloud Serving Systems with YCSB", SoCC
 * 2010; YCSB's {@code CoreWorkload} with its {@code AcknowledgedCounterGenerator}). An insert takes the
 * next sequence number {@code s} of one global counter and inserts key {@code keyUb + 1 + s}; once the
 * insert is done it acknowledges {@code s}; a read of rank {@code r} (zipfian, 0 the latest) names the
 * {@code r}-th latest key of the acknowledged prefix: {@code keyUb + 1 + (limit - 1 - r)} for {@code r <
 * limit}, else a loaded key counted down from {@code keyUb} and wrapped into the range, where {@code limit}
 * is the length of the longest prefix {@code 0..limit-1} of sequence numbers that are all acknowledged. So
 * every key a read names was inserted, by any worker of any process, before the acknowledgment that
 * made it visible, and inserted keys are dense and unique: {@code keyUb + 1 .. keyUb + inserts}.
 *
 * <p>The block, {@code 8 (3 + }{@value #SLOTS}{@code )} bytes: word 0 the structure's pointer (so that one
 * published word names both), word 1 the insert counter (fetch-and-add), word 2 the acknowledged limit
 * (compare-and-swap only), then a ring of {@value #SLOTS} acknowledgment slots, YCSB's window: sequence
 * number {@code s} is acknowledged when slot {@code s mod SLOTS} holds {@code s + 1}. An acknowledgment
 * stores its stamp into its slot by compare-and-swap from the previous occupant's stamp ({@code s - SLOTS
 * + 1}, or 0 for the first lap), then advances the limit from {@code s} to {@code s + 1}; whoever advances
 * the limit to {@code x} READs slot {@code x} and advances on while the next number is acknowledged
 * (helping). A number whose acknowledgment finds the limit below it is thus carried by the acknowledgment
 * that fills the gap: the store precedes the advance attempt, and the advance to {@code s} precedes the
 * READ of slot {@code s}, so one of the two sees the other.
 *
 * <p>Each {@link Worker} keeps its own view of the limit, refreshed from the results of its own
 * acknowledgments and with one READ every {@value #REFRESH_READS} reads: reads then trail the cluster's
 * latest acknowledged insert by at most that many of their own reads, and pay {@code 1/}{@value
 * #REFRESH_READS} round trip each (about 1.6 % of a present key's 2-round-trip get) instead of one. YCSB D
 * is 95 % reads and 5 % inserts, so a worker's own inserts refresh its view about every 20 operations, and
 * in {@value #REFRESH_READS} reads the W workers add about {@code 3.4 W} keys: the view stays within a
 * few of the zipfian's most popular ranks of the truth.
 */
final class LatestKeys {
    /** The acknowledgment window: how far the insert counter may run ahead of the acknowledged limit. */
    static final int SLOTS = 1024;
    /** A worker's reads between two READs of the acknowledged limit. */
    static final int REFRESH_READS = 64;
    /** Bytes of the block. */
    static final long BYTES = 8L * (3 + SLOTS);
    static final long STRUCTURE = 0;
    static final long COUNTER = 8;
    static final long LIMIT = 16;
    static final long RING = 24;

    private LatestKeys() {
    }

    /**
     * Allocates and clears the block on node 0 (before any worker uses it). RDMA operations: the
     * allocation's, and {@code 8 (3 + SLOTS) / 256} WRITEs of 256 bytes (a thread on node 0 posts them
     * through its loopback queue pair), one round trip each.
     *
     * @param t         the creator's compute thread, its owner calling
     * @param structure the structure's pointer, stored in word 0
     * @return the block's pointer
     */
    static long create(ComputeThread t, long structure) {
        long block = t.allocator().allocate(BYTES, 0);
        MemorySegment zeros = MemorySegment.ofArray(new byte[256]);
        for (long at = 0; at < BYTES; at += zeros.byteSize()) {
            t.write(block + at, zeros.asSlice(0, Math.min(zeros.byteSize(), BYTES - at)));
        }
        t.write(block + STRUCTURE, structure);
        return block;
    }

    /**
     * One READ (none on node 0).
     *
     * @param t     a compute thread, its owner calling
     * @param block what {@link #create} returned
     * @return the structure's pointer that the block names
     */
    static long structure(ComputeThread t, long block) {
        return t.read(block + STRUCTURE);
    }

    /**
     * One worker's side of the generator: confined to the thread that owns its compute thread. Its
     * round trips are the caller's to count (the benchmark reports them apart, {@link
     * Cost#KEY_GENERATOR_ROUND_TRIPS}).
     */
    static final class Worker {
        private final ComputeThread t;
        private final long block;
        private final long keyLb;
        private final long keyUb;
        private final long keys;
        private final long overflowWaitNanos;
        private long view;
        private long reads;

        /**
         * @param t               the worker's compute thread
         * @param block           what {@link #create} returned
         * @param config          the run (its key range)
         * @param overflowWait    how long an acknowledgment may wait for a slot still held by a number
         *                        {@value #SLOTS} below it
         * @throws BadArgumentException naming the block when it is not a pointer
         */
        Worker(ComputeThread t, long block, DsBenchmarkConfig config, Duration overflowWait) {
            if (block == RemotePtr.NULL) {
                throw new BadArgumentException("the key generator's block must not be null, got " + block);
            }
            this.t = t;
            this.block = block;
            this.keyLb = config.keyLb();
            this.keyUb = config.keyUb();
            this.keys = config.keys();
            this.overflowWaitNanos = overflowWait.toNanos();
        }

        /**
         * Takes the next insert's sequence number. Wait-free: one fetch-and-add on node 0, one round trip.
         * Linearizes at the fetch-and-add.
         *
         * @return the sequence number {@code s}, to be passed to {@link #acknowledge} once the insert of
         * {@link #key}{@code (s)} is done
         */
        long claim() {
            return t.fetchAndAdd(block + COUNTER, 1);
        }

        /**
         * @param sequence a number {@link #claim} returned
         * @return its key, {@code keyUb + 1 + sequence}
         */
        long key(long sequence) {
            return keyUb + 1 + sequence;
        }

        /**
         * Acknowledges an insert that is done, and advances the cluster's limit over it and over the
         * acknowledged numbers after it. Lock-free: expected 3 round trips (compare-and-swap of the slot,
         * compare-and-swap of the limit, READ of the next slot, which another number's acknowledgment
         * usually has not filled yet), 2 when the limit is below {@code sequence} (the acknowledgment that
         * fills the gap carries it); plus a READ and a compare-and-swap for each later number it carries,
         * at most one per other worker's acknowledgment in flight. Blocking only when the window is full
         * (a number {@value #SLOTS} below still unacknowledged): it then re-READs its slot until it is free,
         * at most the {@code overflowWait} given. Linearizes at the slot's compare-and-swap; the limit
         * passes the number at the compare-and-swap that advances it from {@code sequence}.
         *
         * @param sequence a number {@link #claim} returned to this worker, not yet acknowledged
         * @throws RemoteTimeoutException when the slot stayed held for {@code overflowWait}
         * @throws RemusException         when the slot holds a stamp no acknowledgment of the run stores
         */
        void acknowledge(long sequence) {
            long slot = block + RING + 8 * Math.floorMod(sequence, SLOTS);
            long previous = sequence < SLOTS ? 0 : sequence - SLOTS + 1;
            long deadline = ThreadTime.nanoTime() + overflowWaitNanos;
            long seen;
            while ((seen = t.compareAndSwap(slot, previous, sequence + 1)) != previous) {
                if (seen > previous || seen < 0) {
                    throw new RemusException("the key generator's slot of sequence number " + sequence
                            + " holds " + seen + ", expected " + previous);
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("sequence number " + (sequence - SLOTS)
                            + " stayed unacknowledged for " + Duration.ofNanos(overflowWaitNanos)
                            + " while number " + sequence + " waited for its slot");
                }
                ThreadTime.onSpinWait("a free slot of the key generator's window");
            }
            long x = sequence;
            while (true) {
                long limit = t.compareAndSwap(block + LIMIT, x, x + 1);
                if (limit != x) {
                    see(limit);
                    return;
                }
                see(x + 1);
                long next = x + 1;
                if (t.read(block + RING + 8 * Math.floorMod(next, SLOTS)) != next + 1) {
                    return;
                }
                x = next;
            }
        }

        /**
         * A read's key: the {@code rank}-th latest key of this worker's view of the acknowledged limit, or a
         * loaded key for a rank at or beyond the view. Wait-free: no RDMA operation, but one READ of the
         * limit (one round trip; none on node 0) on every {@value #REFRESH_READS}-th call, the first included.
         *
         * @param rank a zipfian rank, 0 the latest
         * @return the key
         */
        long read(long rank) {
            if (reads++ % REFRESH_READS == 0) {
                see(t.read(block + LIMIT));
            }
            if (rank < view) {
                return keyUb + 1 + (view - 1 - rank);
            }
            return keyLb + Math.floorMod(keyUb - keyLb - (rank - view), keys);
        }

        /** {@return this worker's view of the acknowledged limit} */
        long view() {
            return view;
        }

        private void see(long limit) {
            view = Math.max(view, limit);
        }
    }
}
