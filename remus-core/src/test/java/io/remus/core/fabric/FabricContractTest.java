package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.CompletionPolls;
import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FabricContractTest {
    static java.util.stream.Stream<org.junit.jupiter.api.Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static int pollUntil(CompletionQueue cq, Completions out, int wanted) {
        int got = CompletionPolls.pollSome(cq, out, Duration.ofSeconds(5));
        assertEquals(wanted, got);
        return got;
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldMoveBytesAndApplyAtomicsWhenPostedToPeer(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            b.publish(remote);
            RemoteRegion region = fabric.publishedRegions(1).get(0);
            assertEquals(remote.rkey(), region.rkey());
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair qp = a.connect(1, cq, 16, Duration.ofMinutes(1));
            Completions out = new Completions(8);
            WorkRequests wrs = new WorkRequests(4);

            local.segment().set(ValueLayout.JAVA_LONG, 0, 41L);
            wrs.addWrite(1, local.address(), 8, local.lkey(), region.address() + 64, region.rkey(), 0);
            wrs.addFetchAndAdd(2, local.address() + 8, local.lkey(), region.address() + 64, region.rkey(), 1, 0);
            wrs.addCompareAndSwap(3, local.address() + 16, local.lkey(), region.address() + 64, region.rkey(), 42, 100, 0);
            wrs.addRead(4, local.address() + 24, 8, local.lkey(), region.address() + 64, region.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            pollUntil(cq, out, 1);

            assertEquals(4, out.wrId(0));
            assertEquals(CompletionStatus.SUCCESS, out.status(0));
            assertEquals(41L, local.segment().get(ValueLayout.JAVA_LONG, 8));
            assertEquals(42L, local.segment().get(ValueLayout.JAVA_LONG, 16));
            assertEquals(100L, local.segment().get(ValueLayout.JAVA_LONG, 24));
            assertEquals(100L, remote.segment().get(ValueLayout.JAVA_LONG, 64));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldPublishAllRegistrationsAtOnceAndNoneWhenOneIsRefused(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory first = b.allocate(4096);
            RegisteredMemory second = b.allocate(8192);
            RegisteredMemory foreign = a.allocate(4096);
            BadArgumentException refused = assertThrows(BadArgumentException.class,
                    () -> b.publishAll(List.of(first, foreign, second)));
            assertTrue(refused.getMessage().contains("node 1"), refused.getMessage());
            assertEquals(List.of(), fabric.publishedRegions(1), "a refused publication publishes none of its registrations");
            b.publishAll(List.of());
            assertEquals(List.of(), fabric.publishedRegions(1));
            b.publishAll(List.of(first, second));
            assertEquals(List.of(new RemoteRegion(1, first.address(), 4096, first.rkey()),
                    new RemoteRegion(1, second.address(), 8192, second.rkey())), fabric.publishedRegions(1));
            RegisteredMemory third = b.allocate(4096);
            b.publish(third);
            assertEquals(3, fabric.publishedRegions(1).size());
            assertEquals(third.rkey(), fabric.publishedRegions(1).get(2).rkey(), "a later publication comes after");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteWithRemoteAccessErrorWhenRkeyWrongOrOutOfBounds(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair qp = a.connect(1, cq, 16, Duration.ofMinutes(1));
            Completions out = new Completions(8);
            WorkRequests wrs = new WorkRequests(4);

            wrs.addRead(7, local.address(), 8, local.lkey(), remote.address(), remote.rkey() + 1000, 0);
            qp.post(wrs);
            pollUntil(cq, out, 1);
            assertEquals(7, out.wrId(0));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, out.status(0));
            assertTrue(qp.inError());

            wrs.clear();
            wrs.addRead(8, local.address(), 8, local.lkey(), remote.address(), remote.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            pollUntil(cq, out, 1);
            assertEquals(CompletionStatus.FLUSHED, out.status(0));

            qp.reset();
            assertFalse(qp.inError());
            wrs.clear();
            wrs.addRead(9, local.address(), 16, local.lkey(), remote.address() + 4088, remote.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            pollUntil(cq, out, 1);
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, out.status(0));

            qp.reset();
            wrs.clear();
            wrs.addWrite(10, local.address(), 8, local.lkey() + 1000, remote.address(), remote.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            pollUntil(cq, out, 1);
            assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, out.status(0), "a local buffer the lkey does not cover");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldCompleteWithRetryExceededWhenPeerStopsAnswering(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults().withTransportTimeoutNanos(20_000_000L))) {
            FabricNode a = fabric.open(0);
            FabricNode b = fabric.open(1);
            RegisteredMemory remote = b.allocate(4096);
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair qp = a.connect(1, cq, 16, Duration.ofMinutes(1));
            Completions out = new Completions(8);
            WorkRequests wrs = new WorkRequests(1);
            Assumptions.assumeTrue(fabric instanceof io.remus.core.sim.SimFabric, "fault injection needs the simulator");
            io.remus.core.sim.SimFabric sim = (io.remus.core.sim.SimFabric) fabric;
            sim.stopAnswering(1);
            wrs.addRead(5, local.address(), 8, local.lkey(), remote.address(), remote.rkey(), WorkRequests.SIGNALED);
            qp.post(wrs);
            pollUntil(cq, out, 1);
            assertEquals(CompletionStatus.RETRY_EXCEEDED, out.status(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRejectWhenSendQueueOverflowsOrSegmentNotNative(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults().withExecutionLatencyNanos(1_000_000_000L))) {
            FabricNode a = fabric.open(0);
            RegisteredMemory local = a.allocate(4096);
            CompletionQueue cq = a.createCompletionQueue(64);
            QueuePair qp = a.connect(0, cq, 2, Duration.ofMinutes(1));
            WorkRequests wrs = new WorkRequests(3);
            for (int i = 0; i < 3; i++) {
                wrs.addRead(i, local.address(), 8, local.lkey(), local.address() + 8, local.rkey(), 0);
            }
            assertThrows(BadArgumentException.class, () -> qp.post(wrs));
            assertThrows(BadArgumentException.class, () -> a.register(java.lang.foreign.MemorySegment.ofArray(new byte[64])));
            assertThrows(BadArgumentException.class, () -> fabric.open(0));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRejectAQueuePairWithoutAPositiveWaitTimeout(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            CompletionQueue cq = a.createCompletionQueue(8);
            assertThrows(BadArgumentException.class, () -> a.connect(0, cq, 2, Duration.ZERO));
            assertThrows(BadArgumentException.class, () -> a.connect(0, cq, 2, Duration.ofSeconds(-1)));
            assertThrows(NullPointerException.class, () -> a.connect(0, cq, 2, null));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseToRegisterMemoryPastTheAddressSpaceOfAPointer(Function<SimOptions, Fabric> make) {
        try (Fabric fabric = make.apply(SimOptions.defaults())) {
            FabricNode a = fabric.open(0);
            long top = 1L << io.remus.core.memory.RemotePtr.ADDRESS_BITS;
            for (long[] range : new long[][] {{top - 4096, 8192}, {top, 4096}, {0x7fff_ffff_f000L, Long.MAX_VALUE - 4096}}) {
                java.lang.foreign.MemorySegment fake = java.lang.foreign.MemorySegment.ofAddress(range[0]).reinterpret(range[1]);
                BadArgumentException e = assertThrows(BadArgumentException.class, () -> a.register(fake));
                assertTrue(e.getMessage().contains(Long.toHexString(range[0])), e.getMessage());
            }
            RegisteredMemory fine = a.allocate(4096);
            assertEquals(4096, fine.length());
        }
    }
}
