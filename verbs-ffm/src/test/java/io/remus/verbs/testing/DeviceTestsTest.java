package io.remus.verbs.testing;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeviceTestsTest {
    @Test
    void shouldBeAbsentWhenVariableIsUnsetOrBlank() {
        assertEquals(Optional.empty(), DeviceTests.configuredDevice(Map.of()));
        assertEquals(Optional.empty(), DeviceTests.configuredDevice(Map.of(DeviceTests.DEVICE_ENV, " ")));
    }

    @Test
    void shouldReadDeviceWhenVariableIsSet() {
        assertEquals(Optional.of("rxe0"), DeviceTests.configuredDevice(Map.of(DeviceTests.DEVICE_ENV, "rxe0")));
    }

    @Test
    void shouldFailNotSkipWhenConfiguredDeviceIsMissing() {
        AssertionError e = assertThrows(AssertionError.class, () -> DeviceTests.requirePresent("rxe0", List.of("mlx5_0")));
        assertTrue(e.getMessage().contains("rxe0") && e.getMessage().contains("mlx5_0"), e::getMessage);
    }

    @Test
    void shouldSayNoDevicesWhenListIsEmpty() {
        AssertionError e = assertThrows(AssertionError.class, () -> DeviceTests.requirePresent("rxe0", List.of()));
        assertTrue(e.getMessage().contains("no devices"), e::getMessage);
    }

    @Test
    void shouldPassWhenConfiguredDeviceIsListed() {
        assertDoesNotThrow(() -> DeviceTests.requirePresent("rxe0", List.of("rxe0")));
    }

    @Test
    void shouldNameTheVariableAndReadmeWhenSkipping() {
        assertTrue(DeviceTests.SKIP_REASON.contains(DeviceTests.DEVICE_ENV));
        assertTrue(DeviceTests.SKIP_REASON.contains("softroce/README.md"));
    }
}
