package io.remus.ds.object;

import io.remus.core.ComputeThread;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * Lincheck in stress mode over {@link RemoteCounter} on the simulator ({@link LincheckWorkers}): the
 * counter must pass against {@link SequentialCounter}, and {@link ReadThenWriteCounter}, whose add is
 * a READ and a WRITE of the same word, must be caught losing an add.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteCounterLincheckTest extends ObjectLincheckTest {
    /** The counter, created on the object's node, attached once per Lincheck worker. */
    public static final class Counter {
        private final long ptr = RemoteCounter.create(LincheckWorkers.thread(), LincheckWorkers.HOME, 0).ptr();
        private final ThreadLocal<RemoteCounter> handle =
                ThreadLocal.withInitial(() -> RemoteCounter.attach(LincheckWorkers.thread(), ptr));

        /** @return the value before */
        @Operation
        public long fetchAndAdd(@Param(gen = LongGen.class, conf = "1:3") long delta) {
            return handle.get().fetchAndAdd(delta);
        }

        /** @return the value */
        @Operation
        public long read() {
            return handle.get().read();
        }
    }

    /** Broken: the add is a READ, then a WRITE of the sum, so two adds that overlap can lose one. */
    public static final class ReadThenWriteCounter {
        private final long ptr = RemoteCounter.create(LincheckWorkers.thread(), LincheckWorkers.HOME, 0).ptr();

        /** @return the value read before the WRITE */
        @Operation
        public long fetchAndAdd(@Param(gen = LongGen.class, conf = "1:3") long delta) {
            ComputeThread t = LincheckWorkers.thread();
            long v = t.read(ptr);
            Thread.yield();
            t.write(ptr, v + delta);
            return v;
        }

        /** @return the value */
        @Operation
        public long read() {
            return LincheckWorkers.thread().read(ptr);
        }
    }

    /** The sequential counter Lincheck compares with. */
    public static final class SequentialCounter {
        private long value;

        /** @return the value before */
        public long fetchAndAdd(long delta) {
            long v = value;
            value += delta;
            return v;
        }

        /** @return the value */
        public long read() {
            return value;
        }
    }

    @Override
    Class<?> object() {
        return Counter.class;
    }

    @Override
    Class<?> brokenTwin() {
        return ReadThenWriteCounter.class;
    }

    @Override
    Class<?> sequential() {
        return SequentialCounter.class;
    }
}
