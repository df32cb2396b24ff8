package io.remus.verbs.testing.smoke;

import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The configured device is among those {@link Device#list()} reports. */
class DeviceListSmokeTest {
    @DeviceTest
    void shouldListConfiguredDeviceWhenDeviceIsConfigured() {
        String device = DeviceTests.deviceName();
        List<String> names = Device.list().stream().map(DeviceInfo::name).toList();
        assertTrue(names.contains(device), () -> device + " not in " + names);
    }
}
