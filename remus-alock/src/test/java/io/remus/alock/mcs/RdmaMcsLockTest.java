package io.remus.alock.mcs;

import io.remus.alock.LockContractTest;
import io.remus.alock.kind.LockKind;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The MCS lock's {@link LockContractTest}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RdmaMcsLockTest extends LockContractTest {
    @Override
    protected Stream<LockKind> kinds() {
        return Stream.of(LockKind.MCS);
    }
}
