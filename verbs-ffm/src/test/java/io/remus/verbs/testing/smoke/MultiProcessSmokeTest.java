package io.remus.verbs.testing.smoke;

import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several JVMs in one guest each see the one device (the multi-process setup works). */
class MultiProcessSmokeTest {
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(5);

    @DeviceTest
    void shouldSeeDeviceFromTwoChildJvmsWhenStartedTogether() throws InterruptedException {
        String device = DeviceTests.deviceName();
        try (ChildJvm first = ChildJvm.start(ListDevicesMain.class, device);
             ChildJvm second = ChildJvm.start(ListDevicesMain.class, device)) {
            for (ChildJvm child : new ChildJvm[] {first, second}) {
                ChildJvm.Result result = child.await(CHILD_TIMEOUT);
                assertTrue(result.succeeded(), () -> child + " failed: " + result);
                assertTrue(result.output().contains("device: " + device), () -> child + " printed " + result.output());
            }
        }
    }
}
