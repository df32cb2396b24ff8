package io.remus.bench.fabric;

import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Cost of the fabric SPI's data path on the simulated fabric with no injected latency: fill a
 * reused {@link WorkRequests} list, post it on a {@link QueuePair} from node 0 to node 1, and poll
 * the {@link CompletionQueue} until the signalled completion arrives. This is the layer below
 * {@code ComputeThread}: the difference between the two is what the compute thread adds.
 *
 * <p>Each method is one post and the polls that take its one signalled completion; a batch posts 8
 * work requests with only the last signalled. A completion that is not a success, or none within
 * {@value #SPIN_LIMIT} polls, fails the benchmark. The data path should allocate nothing: run with
 * {@code -prof gc}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FabricPostPollBenchmark {
    static final long SPIN_LIMIT = 100_000_000L;
    private static final int BATCH = 8;

    private SimFabric fabric;
    private QueuePair qp;
    private CompletionQueue cq;
    private final WorkRequests requests = new WorkRequests(BATCH);
    private final Completions completions = new Completions(BATCH);
    private long localAddress;
    private int lkey;
    private long remoteAddress;
    private int rkey;

    /** Opens two simulated nodes, registers memory on both and connects node 0 to node 1. */
    @Setup(Level.Trial)
    public void setUp() {
        fabric = new SimFabric(SimOptions.defaults());
        FabricNode a = fabric.open(0);
        FabricNode b = fabric.open(1);
        b.publish(b.allocate(4096));
        RemoteRegion region = fabric.publishedRegions(1).get(0);
        RegisteredMemory local = a.allocate(4096);
        cq = a.createCompletionQueue(64);
        qp = a.connect(1, cq, 16, Duration.ofMinutes(1));
        localAddress = local.address();
        lkey = local.lkey();
        remoteAddress = region.address();
        rkey = region.rkey();
    }

    /** Closes the fabric, and with it the nodes, queues and registrations. */
    @TearDown(Level.Trial)
    public void tearDown() {
        fabric.close();
    }

    /** @return the id of the completion of one signalled 8-byte READ */
    @Benchmark
    public long read8() {
        requests.clear();
        requests.addRead(1, localAddress, 8, lkey, remoteAddress, rkey, WorkRequests.SIGNALED);
        return postAndAwait();
    }

    /** @return the id of the completion of one signalled 8-byte WRITE */
    @Benchmark
    public long write8() {
        requests.clear();
        requests.addWrite(2, localAddress, 8, lkey, remoteAddress + 8, rkey, WorkRequests.SIGNALED);
        return postAndAwait();
    }

    /** @return the id of the completion of one signalled compare-and-swap */
    @Benchmark
    public long compareAndSwap() {
        requests.clear();
        requests.addCompareAndSwap(3, localAddress + 16, lkey, remoteAddress + 16, rkey, 0, 0, WorkRequests.SIGNALED);
        return postAndAwait();
    }

    /** @return the id of the completion of one signalled fetch-and-add */
    @Benchmark
    public long fetchAndAdd() {
        requests.clear();
        requests.addFetchAndAdd(4, localAddress + 24, lkey, remoteAddress + 24, rkey, 1, WorkRequests.SIGNALED);
        return postAndAwait();
    }

    /** @return the id of the completion of 8 READs of 8 bytes posted at once, the last one signalled */
    @Benchmark
    public long batchOf8Reads() {
        requests.clear();
        for (int i = 0; i < BATCH; i++) {
            int flags = i == BATCH - 1 ? WorkRequests.SIGNALED : 0;
            requests.addRead(10 + i, localAddress + 64 + 8L * i, 8, lkey, remoteAddress + 64 + 8L * i, rkey, flags);
        }
        return postAndAwait();
    }

    private long postAndAwait() {
        qp.post(requests);
        int n;
        long spins = 0;
        while ((n = cq.poll(completions)) == 0) {
            if (++spins == SPIN_LIMIT) {
                throw new IllegalStateException("no completion after " + SPIN_LIMIT + " polls");
            }
        }
        if (n != 1 || completions.status(0) != CompletionStatus.SUCCESS) {
            throw new IllegalStateException("expected one successful completion, got " + n + ", the first " + completions.status(0));
        }
        return completions.wrId(0);
    }
}
