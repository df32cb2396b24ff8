package io.remus.core;

import io.remus.core.fabric.Fabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;

import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@link AtomicityTest} on the verbs fabric (device {@code REMUS_TEST_DEVICE}, all nodes in this
 * process).
 */
@Tag(DeviceTests.TAG)
class AtomicityOnVerbsTest extends AtomicityTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.verbs();
    }

    /**
     * 4 KiB, several packets at Soft-RoCE's MTU: the responder copies one packet's payload at a time, so a reader
     * racing it has the time between two packets to see two versions. A 64-byte write is one copy of a few
     * instructions, which in the emulated guest a reader catches only when the emulator switches vCPUs inside it:
     * no tear in 20,000 such writes happened once in eight device runs.
     */
    @Override
    int tearingWriteLength() {
        return 4096;
    }

    /**
     * Not run on verbs: on Soft-RoCE the window is a few instructions of the responder's, between its load and its
     * store under a spin lock; the simulator's atomics yield inside it. The rxe source (atomic_reply, rxe_resp.c)
     * stores either way; the spin lock's rare acquire timeouts over rxe, while it released by RDMA WRITE, fit it
     * (RdmaSpinLock).
     */
    @Override
    void shouldLoseSomeWriteWhenWritesRaceFailingNicCompareAndSwaps(Function<SimOptions, Fabric> make) throws Exception {
    }

    /** Not run on verbs: the loss rate on Soft-RoCE is low; io.remus.core.verbs.VerbsAtomicityTest runs a robust variant. */
    @Override
    void shouldLoseUpdatesInSomeRunWhenCpuAtomicsRaceNicFetchAndAdd(Function<SimOptions, Fabric> make) throws Exception {
    }
}
