package io.remus.verbs;

import io.remus.verbs.testing.DeviceTests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * A loopback queue pair on the test device with one registered 4 KiB region, for device tests;
 * closes everything in reverse order.
 */
final class LoopbackFixture implements AutoCloseable {
    static final long TIMEOUT_NANOS = Duration.ofSeconds(30).toNanos();
    static final int REGION = 4096;

    final Context context;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final Arena arena = Arena.ofShared();
    final MemorySegment memory;
    final MemoryRegion mr;
    final QueuePairBuilder builder;
    ConnectedQueuePair qp;
    final WorkCompletions completions = new WorkCompletions(16);

    LoopbackFixture() {
        context = Context.open(DeviceTests.deviceName());
        pd = context.allocateProtectionDomain();
        cq = context.createCompletionQueue(256);
        memory = arena.allocate(REGION, 64);
        mr = pd.registerMemory(memory, Access.all());
        builder = pd.queuePair().completionQueue(cq).maxSendWorkRequests(64).maxReceiveWorkRequests(64)
                .maxSendScatterGather(2).maxReceiveScatterGather(2).maxInlineData(64);
        qp = builder.build().connectToSelf();
    }

    /** Replaces the queue pair with a freshly built and connected one. */
    void recreateQueuePair() {
        qp.close();
        qp = builder.build().connectToSelf();
    }

    /** Polls until one completion arrives and returns its index 0 (fails on timeout). */
    int awaitOne() {
        cq.pollUntilAny(completions, TIMEOUT_NANOS);
        return 0;
    }

    /** Polls until {@code n} completions arrived, throwing for the first failed one. */
    void awaitSuccesses(int n) {
        int seen = 0;
        while (seen < n) {
            int got = cq.pollUntilAny(completions, TIMEOUT_NANOS);
            for (int i = 0; i < got; i++) {
                completions.throwIfFailed(i);
            }
            seen += got;
        }
    }

    @Override
    public void close() {
        completions.close();
        qp.close();
        mr.close();
        arena.close();
        cq.close();
        pd.close();
        context.close();
    }
}
