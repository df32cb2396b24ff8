package io.remus.core;

import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link PeerAccessTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, both nodes in this process):
 * the switch is {@code ibv_modify_qp} with {@code IBV_QP_ACCESS_FLAGS} on the memory node's serving queue
 * pairs of the compute node, and a refused WRITE completes with {@code IBV_WC_REM_ACCESS_ERR}.
 */
@Tag(DeviceTests.TAG)
class PeerAccessOnVerbsTest extends PeerAccessTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /**
     * Soft-RoCE answers a request its queue pair's access flags refuse with an invalid-request NAK
     * ({@code check_op_valid} in {@code rxe_resp.c}): {@code IBV_WC_REM_INV_REQ_ERR}.
     */
    @Override
    Set<CompletionStatus> refusals() {
        return Set.of(CompletionStatus.REMOTE_ACCESS_ERROR, CompletionStatus.REMOTE_INVALID_REQUEST);
    }

    /** Verbs returns when {@code ibv_modify_qp} does; a WRITE the device was executing then is the device's. */
    @Override
    boolean switchWaitsForExecutingWrites() {
        return false;
    }
}
