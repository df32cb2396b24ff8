package io.remus.verbs.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that plays one node's role in a multi-host run on real RDMA devices: tagged
 * {@value ClusterTests#TAG}, skipped with the reason outside a cluster or without a device,
 * failed where the configured device does not exist. Every node runs the same test method;
 * it reads its role from {@link ClusterTests#node()} (node 0 listens). Guests boot at different
 * speeds: connection setup must retry until a generous deadline.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Test
@Tag(ClusterTests.TAG)
@ExtendWith({ClusterCondition.class, DeviceCondition.class})
public @interface ClusterTest {
}
