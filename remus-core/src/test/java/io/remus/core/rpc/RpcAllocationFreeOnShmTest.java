package io.remus.core.rpc;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Named;

import java.util.function.Function;
import java.util.stream.Stream;

/** {@link RpcAllocationFreeTest} on the shared-memory fabric (all nodes in this process, their memory in files of a fresh directory). */
class RpcAllocationFreeOnShmTest extends RpcAllocationFreeTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.shm();
    }
}
