package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Lincheck in stress mode over a 16-byte {@link RemoteRegister} on the simulator
 * ({@link LincheckWorkers}): a write of {@code v} stores the two words {@code v} and {@code ~v}, and a
 * read returns both, so a torn value is no result of {@link SequentialRegister}. The register must
 * pass, and {@link HalvesRegister}, written in place as two 8-byte WRITEs, must be caught returning
 * half of each of two values.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteRegisterLincheckTest extends ObjectLincheckTest {
    private static final int BYTES = 16;

    private static MemorySegment value(long v) {
        MemorySegment s = MemorySegment.ofArray(new byte[BYTES]);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, v);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, ~v);
        return s;
    }

    /** The register, created on the object's node holding 0, attached once per Lincheck worker. */
    public static final class Register {
        private final long ptr = RemoteRegister.create(LincheckWorkers.thread(), LincheckWorkers.reclaimer(),
                LincheckWorkers.HOME, value(0)).ptr();
        private final ThreadLocal<RemoteRegister> handle = ThreadLocal.withInitial(
                () -> RemoteRegister.attach(LincheckWorkers.thread(), LincheckWorkers.reclaimer(), ptr));

        /** Writes {@code v} and {@code ~v}. */
        @Operation
        public void write(@Param(gen = LongGen.class, conf = "1:6") long v) {
            handle.get().write(value(v));
        }

        /** @return the two words */
        @Operation
        public List<Long> read() {
            MemorySegment s = MemorySegment.ofArray(new byte[BYTES]);
            handle.get().read(s);
            return List.of(s.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), s.get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
        }
    }

    /** Broken: written in place, one WRITE per word, so a READ between them sees half of each value. */
    public static final class HalvesRegister {
        private final long ptr;

        public HalvesRegister() {
            ComputeThread t = LincheckWorkers.thread();
            ptr = t.allocator().allocate(BYTES, LincheckWorkers.HOME);
            t.write(ptr, 0);
            t.write(RemotePtr.offset(ptr, 8), ~0L);
        }

        /** Writes {@code v}, then {@code ~v}. */
        @Operation
        public void write(@Param(gen = LongGen.class, conf = "1:6") long v) {
            ComputeThread t = LincheckWorkers.thread();
            t.write(ptr, v);
            Thread.yield();
            t.write(RemotePtr.offset(ptr, 8), ~v);
        }

        /** @return the two words, from one 16-byte READ */
        @Operation
        public List<Long> read() {
            ComputeThread t = LincheckWorkers.thread();
            t.read(ptr, 0, BYTES);
            MemorySegment b = t.buffer();
            return List.of(b.get(ValueLayout.JAVA_LONG, 0), b.get(ValueLayout.JAVA_LONG, 8));
        }
    }

    /** The sequential register Lincheck compares with. */
    public static final class SequentialRegister {
        private long value;

        /** Writes {@code v} and {@code ~v}. */
        public void write(long v) {
            value = v;
        }

        /** @return the two words */
        public List<Long> read() {
            return List.of(value, ~value);
        }
    }

    @Override
    Class<?> object() {
        return Register.class;
    }

    @Override
    Class<?> brokenTwin() {
        return HalvesRegister.class;
    }

    @Override
    Class<?> sequential() {
        return SequentialRegister.class;
    }
}
