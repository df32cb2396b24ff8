package io.remus.alock;

import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@link QueueLockTimeoutTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process): queue-lock waiters that time out leave the queue on a real device, where the abandoning and
 * handing-over compare-and-swaps meet on the NIC.
 */
@Tag(DeviceTests.TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class QueueLockTimeoutOnVerbsTest extends QueueLockTimeoutTest {
    static Stream<Arguments> fabricsKindsAndNodes() {
        return QueueLockTimeoutTest.fabricsKindsAndNodes(Fabrics.verbs());
    }

    static Stream<Arguments> fabricsAndKinds() {
        return QueueLockTimeoutTest.fabricsAndKinds(Fabrics.verbs());
    }
}
