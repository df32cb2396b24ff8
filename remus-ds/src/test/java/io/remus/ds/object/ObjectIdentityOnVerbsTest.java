package io.remus.ds.object;

import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.provider.Arguments;

import java.util.stream.Stream;

/**
 * {@link ObjectIdentityTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this process),
 * run in the Soft-RoCE suite.
 */
@Tag(DeviceTests.TAG)
class ObjectIdentityOnVerbsTest extends ObjectIdentityTest {
    static Stream<Arguments> cases() {
        return cases(Fabrics.verbs());
    }
}
