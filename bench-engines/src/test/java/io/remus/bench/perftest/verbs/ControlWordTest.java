package io.remus.bench.perftest.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bench's control words, sealed against a CPU read of a half-written RDMA WRITE. */
class ControlWordTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 23, 255, 1 << 20, Integer.MAX_VALUE, VerbsSide.DONE, Integer.MIN_VALUE})
    void shouldReadBackWhatWasSealed(long value) {
        assertEquals(value, VerbsSide.unsealed(VerbsSide.sealed(value)));
    }

    @Test
    void shouldNotTakeANeverWrittenWordForAValue() {
        assertEquals(VerbsSide.TORN, VerbsSide.unsealed(0L));
    }

    /** Every state a forward copy of one sealed word over another passes through reads as the old value, the new, or torn. */
    @Test
    void shouldNeverReadAThirdValueWhileAWordIsCopiedOverAnother() {
        long[] values = {1, 2, 3, 23, 255, 256, VerbsSide.DONE, 0x0102, 0x0201};
        for (long from : values) {
            for (long to : values) {
                long old = VerbsSide.sealed(from);
                long next = VerbsSide.sealed(to);
                for (int bytes = 0; bytes <= 8; bytes++) {
                    long written = bytes == 8 ? -1L : (1L << (8 * bytes)) - 1;
                    long seen = (next & written) | (old & ~written);
                    long read = VerbsSide.unsealed(seen);
                    assertTrue(read == from || read == to || read == VerbsSide.TORN,
                            from + " -> " + to + " after " + bytes + " bytes read as " + read);
                }
            }
        }
        long halfDone = (VerbsSide.sealed(VerbsSide.DONE) & 0xffff_ffffL) | (VerbsSide.sealed(1) & 0xffff_ffff_0000_0000L);
        assertEquals(VerbsSide.TORN, VerbsSide.unsealed(halfDone), "the low half of 'done' over 1: torn, not a size");
    }

    @Test
    void shouldRefuseAValueThatDoesNotFitInThirtyTwoBits() {
        assertThrows(IllegalArgumentException.class, () -> VerbsSide.sealed(1L << 32));
    }
}
