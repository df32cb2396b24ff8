package io.remus.verbs.testing;

import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;
import org.junit.jupiter.api.Assumptions;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The RDMA device a test runs against, from the environment variable {@value #DEVICE_ENV}.
 *
 * <p>Unset: there is no device, and device tests are skipped with {@link #SKIP_REASON}. Set to a
 * name libibverbs does not list: the test bed is broken, and device tests fail.
 */
public final class DeviceTests {
    /** The JUnit tag of tests that need a real RDMA device. */
    public static final String TAG = "device";
    /**
     * The JUnit tag of device tests that CI's Soft-RoCE run leaves out to keep within its time: the tool runs
     * that start JVMs in the emulated guest for minutes, whose library paths other device tests cover.
     * {@code SOFTROCE_WITH_SLOW=1 softroce/run-tests} runs them too.
     */
    public static final String SLOW_TAG = "slow";
    /** The environment variable naming the device, e.g. {@code rxe0} or {@code mlx5_0}. */
    public static final String DEVICE_ENV = "REMUS_TEST_DEVICE";
    /** Why a device test is skipped where {@value #DEVICE_ENV} is unset. */
    public static final String SKIP_REASON =
            "no RDMA device: set " + DEVICE_ENV + "=<name>, see softroce/README.md";

    private DeviceTests() {
    }

    /** @return the configured device name, or empty where {@value #DEVICE_ENV} is unset or blank */
    public static Optional<String> configuredDevice() {
        return configuredDevice(System.getenv());
    }

    /**
     * @param environment the environment to read
     * @return the device name it configures, or empty where {@value #DEVICE_ENV} is unset or blank
     */
    static Optional<String> configuredDevice(Map<String, String> environment) {
        String name = environment.get(DEVICE_ENV);
        return name == null || name.isBlank() ? Optional.empty() : Optional.of(name.strip());
    }

    /**
     * The device this test runs against, checked to exist.
     *
     * @return the device name
     * @throws org.opentest4j.TestAbortedException (the test is skipped) where no device is configured
     * @throws AssertionError where the configured device is not among libibverbs' devices
     */
    public static String deviceName() {
        Optional<String> device = configuredDevice();
        Assumptions.assumeTrue(device.isPresent(), SKIP_REASON);
        requirePresent(device.get(), Device.list().stream().map(DeviceInfo::name).toList());
        return device.get();
    }

    /**
     * @param device  the configured device name
     * @param present the devices libibverbs lists
     * @throws AssertionError where {@code device} is not among {@code present}
     */
    static void requirePresent(String device, List<String> present) {
        if (!present.contains(device)) {
            throw new AssertionError(DEVICE_ENV + "=" + device + " but libibverbs lists "
                    + (present.isEmpty() ? "no devices" : "only " + present)
                    + ": the device must exist where it is configured");
        }
    }
}
