package io.remus.core.memory;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SizeClassesTest {
    @Test
    void shouldPickSmallestHoldingPowerOfTwoWhenSizeIsValid() {
        assertEquals(8, SizeClasses.size(SizeClasses.classOf(1)));
        assertEquals(8, SizeClasses.size(SizeClasses.classOf(8)));
        assertEquals(16, SizeClasses.size(SizeClasses.classOf(9)));
        assertEquals(64, SizeClasses.size(SizeClasses.classOf(64)));
        assertEquals(128, SizeClasses.size(SizeClasses.classOf(65)));
        assertEquals(SizeClasses.MAX, SizeClasses.size(SizeClasses.classOf(SizeClasses.MAX)));
        assertEquals(SizeClasses.COUNT - 1, SizeClasses.classOf(SizeClasses.MAX));
    }

    @Test
    void shouldRejectWhenSizeIsZeroNegativeOrTooLarge() {
        assertThrows(BadArgumentException.class, () -> SizeClasses.classOf(0));
        assertThrows(BadArgumentException.class, () -> SizeClasses.classOf(-8));
        assertThrows(BadArgumentException.class, () -> SizeClasses.classOf(SizeClasses.MAX + 1));
    }
}
