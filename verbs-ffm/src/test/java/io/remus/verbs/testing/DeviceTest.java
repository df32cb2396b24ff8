package io.remus.verbs.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that needs the real RDMA device named by {@code REMUS_TEST_DEVICE}: tagged
 * {@value DeviceTests#TAG}, skipped with the reason where no device is configured, failed where
 * the configured device does not exist. Get the name with {@link DeviceTests#deviceName()}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Test
@Tag(DeviceTests.TAG)
@ExtendWith(DeviceCondition.class)
public @interface DeviceTest {
}
