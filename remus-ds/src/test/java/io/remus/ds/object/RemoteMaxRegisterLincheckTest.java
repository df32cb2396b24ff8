package io.remus.ds.object;

import io.remus.core.ComputeThread;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

/**
 * Lincheck in stress mode over {@link RemoteMaxRegister} on the simulator ({@link LincheckWorkers}):
 * the register must pass against {@link SequentialMaxRegister}, and {@link ReadThenWriteMaxRegister},
 * whose writeMax READs the word and WRITEs its value when larger, must be caught letting a smaller
 * value overwrite a larger one. Values are few (1 to 6) so that writes of different values overlap.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteMaxRegisterLincheckTest extends ObjectLincheckTest {
    /** Handles: the creator's and one per worker thread, with room to spare. */
    private static final int CAPACITY = 6;

    /** The register, created on the object's node, attached once per Lincheck worker. */
    public static final class MaxRegister {
        private final long ptr = RemoteMaxRegister.create(LincheckWorkers.thread(), LincheckWorkers.HOME, CAPACITY, 0).ptr();
        private final ThreadLocal<RemoteMaxRegister> handle =
                ThreadLocal.withInitial(() -> RemoteMaxRegister.attach(LincheckWorkers.thread(), ptr));

        /** Raises the register to at least {@code value}. */
        @Operation
        public void writeMax(@Param(gen = LongGen.class, conf = "1:6") long value) {
            handle.get().writeMax(value);
        }

        /** @return the value */
        @Operation
        public long read() {
            return handle.get().read();
        }
    }

    /** Broken: writeMax READs the word and, when its value is larger, WRITEs it, so a smaller value can win. */
    public static final class ReadThenWriteMaxRegister {
        private final long ptr = RemoteCounter.create(LincheckWorkers.thread(), LincheckWorkers.HOME, 0).ptr();

        /** Raises the register to at least {@code value}, unless another write intervenes. */
        @Operation
        public void writeMax(@Param(gen = LongGen.class, conf = "1:6") long value) {
            ComputeThread t = LincheckWorkers.thread();
            if (t.read(ptr) < value) {
                Thread.yield();
                t.write(ptr, value);
            }
        }

        /** @return the value */
        @Operation
        public long read() {
            return LincheckWorkers.thread().read(ptr);
        }
    }

    /** The sequential max register Lincheck compares with. */
    public static final class SequentialMaxRegister {
        private long value;

        /** Raises the register to at least {@code value}. */
        public void writeMax(long v) {
            value = Math.max(value, v);
        }

        /** @return the value */
        public long read() {
            return value;
        }
    }

    @Override
    Class<?> object() {
        return MaxRegister.class;
    }

    @Override
    Class<?> brokenTwin() {
        return ReadThenWriteMaxRegister.class;
    }

    @Override
    Class<?> sequential() {
        return SequentialMaxRegister.class;
    }
}
