package io.remus.verbs.testing;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The JUnit extension behind {@link DeviceTest}: disables the test with
 * {@link DeviceTests#SKIP_REASON} where no device is configured, and fails it before it runs
 * where the configured device does not exist.
 */
public final class DeviceCondition implements ExecutionCondition, BeforeEachCallback {
    /** Creates the extension (JUnit instantiates it). */
    public DeviceCondition() {
    }

    /** Enabled only where {@value DeviceTests#DEVICE_ENV} is set. */
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return DeviceTests.configuredDevice()
                .map(name -> ConditionEvaluationResult.enabled(DeviceTests.DEVICE_ENV + "=" + name))
                .orElseGet(() -> ConditionEvaluationResult.disabled(DeviceTests.SKIP_REASON));
    }

    /** Fails the test where the configured device is not among libibverbs' devices. */
    @Override
    public void beforeEach(ExtensionContext context) {
        DeviceTests.deviceName();
    }
}
