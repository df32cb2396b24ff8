package io.remus.bench.verbs;

import io.remus.verbs.Access;
import io.remus.verbs.CompletionQueue;
import io.remus.verbs.ConnectedQueuePair;
import io.remus.verbs.Context;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.MemoryRegion;
import io.remus.verbs.ProtectionDomain;
import io.remus.verbs.SendBatch;
import io.remus.verbs.WorkCompletions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cost of the verbs data path on a real device: build a {@link SendBatch} holding one signalled
 * 8-byte RDMA READ (or 8 of them, the last signalled), post it on a reliable-connected queue pair
 * connected to itself (loopback), and poll the {@link CompletionQueue} into reused
 * {@link WorkCompletions} until the completion arrives. The time includes the device's own
 * latency (on Soft-RoCE, the kernel's rxe loopback), so it is an upper bound on the Java cost;
 * the allocation rate ({@code -prof gc}) is the Java cost alone and should be 0 B/op.
 *
 * <p>The device is the one named by {@code REMUS_TEST_DEVICE}, else the first one
 * {@link Device#list()} reports. Without a device, {@link #setUp()} throws an
 * {@link IllegalStateException} saying so, and JMH reports this benchmark as failed and goes on
 * with the others. A completion that is not a success, or none within {@value #SPIN_LIMIT}
 * polls, fails the benchmark.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class VerbsPostPollBenchmark {
    static final String DEVICE_ENV = "REMUS_TEST_DEVICE";
    static final long SPIN_LIMIT = 100_000_000L;
    private static final int BATCH = 8;
    private static final long REGION_BYTES = 4096;
    private static final long REMOTE_OFFSET = 2048;

    private Arena arena;
    private Context context;
    private ProtectionDomain pd;
    private MemoryRegion region;
    private CompletionQueue cq;
    private ConnectedQueuePair qp;
    private SendBatch batch;
    private WorkCompletions completions;
    private long remoteAddress;
    private int remoteKey;

    /**
     * Opens the device and builds the loopback queue pair.
     *
     * @throws IllegalStateException if this host has no RDMA device
     */
    @Setup(Level.Trial)
    public void setUp() {
        String name = deviceName();
        context = Context.open(name);
        pd = context.allocateProtectionDomain();
        arena = Arena.ofShared();
        region = pd.registerMemory(arena.allocate(REGION_BYTES, 4096), Access.all());
        cq = context.createCompletionQueue(64);
        qp = pd.queuePair().completionQueue(cq).maxSendWorkRequests(32).build().connectToSelf();
        batch = qp.sendBatch(BATCH);
        completions = new WorkCompletions(BATCH);
        remoteAddress = region.address() + REMOTE_OFFSET;
        remoteKey = region.remoteKey();
    }

    /** Closes the queue pair, queue, region, domain and context, children first. */
    @TearDown(Level.Trial)
    public void tearDown() {
        if (completions != null) {
            completions.close();
        }
        if (qp != null) {
            qp.close();
        }
        if (cq != null) {
            cq.close();
        }
        if (region != null) {
            region.close();
        }
        if (arena != null) {
            arena.close();
        }
        if (pd != null) {
            pd.close();
        }
        if (context != null) {
            context.close();
        }
    }

    /** @return the id of the completion of one signalled 8-byte RDMA READ */
    @Benchmark
    public long read8() {
        batch.read(1, region, 0, 8, remoteAddress, remoteKey, true).post();
        return awaitOne();
    }

    /** @return the id of the completion of 8 RDMA READs of 8 bytes posted at once, the last one signalled */
    @Benchmark
    public long batchOf8Reads() {
        SendBatch b = batch;
        for (int i = 0; i < BATCH; i++) {
            b.read(10 + i, region, 8L * i, 8, remoteAddress + 8L * i, remoteKey, i == BATCH - 1);
        }
        b.post();
        return awaitOne();
    }

    private long awaitOne() {
        int n;
        long spins = 0;
        while ((n = cq.poll(completions)) == 0) {
            if (++spins == SPIN_LIMIT) {
                throw new IllegalStateException("no completion after " + SPIN_LIMIT + " polls");
            }
        }
        completions.throwIfFailed(0);
        if (n != 1) {
            throw new IllegalStateException("expected one completion, got " + n);
        }
        return completions.workRequestId(0);
    }

    static String deviceName() {
        String named = System.getenv(DEVICE_ENV);
        if (named != null && !named.isBlank()) {
            return named;
        }
        List<DeviceInfo> devices = Device.list();
        if (devices.isEmpty()) {
            throw new IllegalStateException("no RDMA device on this host: VerbsPostPollBenchmark needs one "
                    + "(set " + DEVICE_ENV + ", or run it in the Soft-RoCE guest; see bench/README.md)");
        }
        return devices.get(0).name();
    }
}
