package io.remus.ds.object;

import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Lincheck in stress mode over a {@link WaitFreeStack} of {@value #ELEMENTS} elements on the simulator
 * ({@link LincheckWorkers}), full and empty included: the stack must pass against
 * {@link SequentialStack}, and the same stack over the construction without sequence numbers
 * ({@link WaitFreeObject.Helping#UNSEQUENCED}, whose helpers apply an announced operation again) must be
 * caught.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WaitFreeStackLincheckTest extends ObjectLincheckTest {
    private static final int ELEMENTS = 2;
    /** Announce slots: the creator's and one per worker thread, with room to spare. */
    private static final int HANDLES = 6;

    /** The stack over the construction with {@code helping}, attached once per Lincheck worker. */
    abstract static class Stack {
        private final long ptr;
        private final ThreadLocal<WaitFreeStack> handle;

        Stack(WaitFreeObject.Helping helping) {
            this.ptr = WaitFreeStack.create(LincheckWorkers.thread(), LincheckWorkers.reclaimer(), LincheckWorkers.HOME,
                    HANDLES, ELEMENTS, helping).ptr();
            this.handle = ThreadLocal.withInitial(
                    () -> WaitFreeStack.attach(LincheckWorkers.thread(), LincheckWorkers.reclaimer(), ptr, helping));
        }

        /** @return whether {@code v} was pushed (false: full) */
        @Operation
        public boolean push(@Param(gen = LongGen.class, conf = "1:9") long v) {
            return handle.get().push(v);
        }

        /** @return the top element, removed, or null when empty */
        @Operation
        public Long pop() {
            WaitFreeStack s = handle.get();
            return s.pop() ? s.value() : null;
        }
    }

    /** The stack as built: {@link WaitFreeObject.Helping#SEQUENCED}. */
    public static final class SequencedStack extends Stack {
        public SequencedStack() {
            super(WaitFreeObject.Helping.SEQUENCED);
        }
    }

    /** Broken: {@link WaitFreeObject.Helping#UNSEQUENCED}. */
    public static final class UnsequencedStack extends Stack {
        public UnsequencedStack() {
            super(WaitFreeObject.Helping.UNSEQUENCED);
        }
    }

    /** The sequential bounded stack Lincheck compares with. */
    public static final class SequentialStack {
        private final ArrayDeque<Long> elements = new ArrayDeque<>();

        /** @return whether {@code v} was pushed (false: full) */
        public boolean push(long v) {
            if (elements.size() == ELEMENTS) {
                return false;
            }
            elements.push(v);
            return true;
        }

        /** @return the top element, removed, or null when empty */
        public Long pop() {
            return elements.pollFirst();
        }
    }

    @Override
    Class<?> object() {
        return SequencedStack.class;
    }

    @Override
    Class<?> brokenTwin() {
        return UnsequencedStack.class;
    }

    @Override
    Class<?> sequential() {
        return SequentialStack.class;
    }

    @Override
    int invocationsPerIteration() {
        return 50;
    }
}
