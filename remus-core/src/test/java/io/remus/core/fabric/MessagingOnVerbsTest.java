package io.remus.core.fabric;

import io.remus.core.error.CompletionStatus;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link MessagingTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process).
 */
@Tag(DeviceTests.TAG)
class MessagingOnVerbsTest extends MessagingTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /**
     * Soft-RoCE finds an oversize SEND only while copying it into the receive buffer and reports that as a
     * malformed work request (its responder's class A error: a local QP operation error for the receive, which
     * the fabric reports as {@link CompletionStatus#REMOTE_OPERATION_ERROR}, and a remote operation error NAK
     * for the send), not the specification's length statuses. The test asserts only that both fail.
     */
    @Override
    boolean lengthErrorsAsTheSpecNamesThem() {
        return false;
    }
}
