package io.remus.verbs.testing.smoke;

import io.remus.verbs.testing.DeviceNames;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The configured device is visible through the raw layer. */
class DeviceListSmokeTest {
    @DeviceTest
    void shouldListConfiguredDeviceWhenDeviceIsConfigured() {
        String device = DeviceTests.deviceName();
        List<String> names = DeviceNames.list();
        assertTrue(names.contains(device), () -> device + " not in " + names);
    }
}
