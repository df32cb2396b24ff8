package io.remus.ds.object;

import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Lincheck in stress mode over a {@link WaitFreeQueue} of {@value #ELEMENTS} elements on the simulator
 * ({@link LincheckWorkers}), full and empty included: the queue must pass against
 * {@link SequentialQueue}, and the same queue over the construction without sequence numbers
 * ({@link WaitFreeObject.Helping#UNSEQUENCED}, whose helpers apply an announced operation again) must be
 * caught.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WaitFreeQueueLincheckTest extends ObjectLincheckTest {
    private static final int ELEMENTS = 2;
    /** Announce slots: the creator's and one per worker thread, with room to spare. */
    private static final int HANDLES = 6;

    /** The queue over the construction with {@code helping}, attached once per Lincheck worker. */
    abstract static class Queue {
        private final long ptr;
        private final ThreadLocal<WaitFreeQueue> handle;

        Queue(WaitFreeObject.Helping helping) {
            this.ptr = WaitFreeQueue.create(LincheckWorkers.thread(), LincheckWorkers.reclaimer(), LincheckWorkers.HOME,
                    HANDLES, ELEMENTS, helping).ptr();
            this.handle = ThreadLocal.withInitial(
                    () -> WaitFreeQueue.attach(LincheckWorkers.thread(), LincheckWorkers.reclaimer(), ptr, helping));
        }

        /** @return whether {@code v} was appended (false: full) */
        @Operation
        public boolean enqueue(@Param(gen = LongGen.class, conf = "1:9") long v) {
            return handle.get().enqueue(v);
        }

        /** @return the oldest element, removed, or null when empty */
        @Operation
        public Long dequeue() {
            WaitFreeQueue q = handle.get();
            return q.dequeue() ? q.value() : null;
        }
    }

    /** The queue as built: {@link WaitFreeObject.Helping#SEQUENCED}. */
    public static final class SequencedQueue extends Queue {
        public SequencedQueue() {
            super(WaitFreeObject.Helping.SEQUENCED);
        }
    }

    /** Broken: {@link WaitFreeObject.Helping#UNSEQUENCED}. */
    public static final class UnsequencedQueue extends Queue {
        public UnsequencedQueue() {
            super(WaitFreeObject.Helping.UNSEQUENCED);
        }
    }

    /** The sequential bounded queue Lincheck compares with. */
    public static final class SequentialQueue {
        private final ArrayDeque<Long> elements = new ArrayDeque<>();

        /** @return whether {@code v} was appended (false: full) */
        public boolean enqueue(long v) {
            return elements.size() < ELEMENTS && elements.add(v);
        }

        /** @return the oldest element, removed, or null when empty */
        public Long dequeue() {
            return elements.pollFirst();
        }
    }

    @Override
    Class<?> object() {
        return SequencedQueue.class;
    }

    @Override
    Class<?> brokenTwin() {
        return UnsequencedQueue.class;
    }

    @Override
    Class<?> sequential() {
        return SequentialQueue.class;
    }

    @Override
    int invocationsPerIteration() {
        return 50;
    }
}
