package io.remus.alock.table;

import io.remus.alock.kind.LockKind;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** {@link LockTableTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this process). */
@Tag(DeviceTests.TAG)
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LockTableOnVerbsTest extends LockTableTest {
    static Stream<Arguments> fabricsAndKinds() {
        return Fabrics.verbs().flatMap(f -> Stream.of(LockKind.values()).map(k -> Arguments.of(f, k)));
    }
}
