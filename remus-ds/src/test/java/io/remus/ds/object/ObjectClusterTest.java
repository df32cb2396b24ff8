package io.remus.ds.object;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.Verdict;
import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.MaxRegisterSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.ds.object.ObjectProcessMain.Target;
import io.remus.ds.reclaim.EpochOptions;
import io.remus.ds.reclaim.EpochReclaimer;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.testing.ClusterHistories;
import io.remus.ds.testing.ClusterWorkers;
import io.remus.ds.testing.Contention;
import io.remus.verbs.testing.ClusterNode;
import io.remus.verbs.testing.ClusterTest;
import io.remus.verbs.testing.ClusterTests;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The wait-free objects shared by hosts: each guest of {@code softroce/run-cluster N} plays node
 * {@code REMUS_CLUSTER_NODE} of N. Node 0 creates one of each object ({@link Target}), homed round
 * robin on the nodes, so every host operates on objects of every host. Every node runs
 * {@value #WORKERS} threads of {@value #OPS} seeded random operations each, recording one history per
 * object with its host's clock ({@link HistoryClock#EPOCH_MICROS}).
 *
 * <p>The hosts' clocks are not synchronised (each guest set its own from an emulated RTC), so the
 * histories go through {@link ClusterHistories}: each node bounds its clock's offset to node 0's by
 * RDMA round trips before and after the run and sends its histories with the bound to node 0 over
 * RDMA; node 0 merges each object's histories, widened by the bounds, checks them with remus-check's
 * checker, checks that every value put into the queue and the stack came out or stayed there exactly
 * once, and publishes its verdict, which every other node reads and asserts too.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class ObjectClusterTest {
    private static final int PORT = 18800;
    private static final int WORKERS = 2;
    private static final int OPS = 80;
    private static final int ELEMENTS = 4;
    private static final int REGISTER_BYTES = 16;
    private static final int TARGETS = Target.values().length;
    private static final Duration CONNECT = Duration.ofMinutes(8);
    private static final Duration RUN_BOUND = Duration.ofMinutes(5);
    private static final EpochOptions EPOCH = EpochOptions.defaults().withLease(Duration.ofSeconds(10)).withBytes(4096, 16384)
            .withLimitWait(Duration.ofSeconds(30));
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    @ClusterTest
    void shouldCheckAsLinearizableWhenEveryHostOperatesOnObjectsOfEveryHost() throws Exception {
        ClusterNode node = ClusterTests.node();
        ClusterConfig config = ClusterProcess.builder(node.index(), node.addresses(), PORT).segmentSize(1 << 20)
                .threadsPerNode(WORKERS + 2).operationTimeout(Duration.ofSeconds(60)).build();
        VerbsFabricOptions options = VerbsFabricOptions.cluster(DeviceTests.deviceName(), config, CONNECT);
        Path dir = Files.createTempDirectory("object-cluster");
        String outcome = ClusterProcess.run(options, config, CONNECT, (n, main) -> run(n, main, node.size(), dir));
        System.out.println(outcome);
    }

    private static List<String> names() {
        return Arrays.stream(Target.values()).map(t -> t.name().toLowerCase()).toList();
    }

    private static String run(RemusNode clusterNode, ComputeThread main, int size, Path dir) throws Exception {
        int self = main.nodeId();
        ClusterBarrier barrier = ClusterBarrier.ofComputeNodes(main, RUN_BOUND);
        Root root = new Root(main);
        WaitFreeQueue queue = null;
        WaitFreeStack stack = null;
        long directoryBytes = 8L * TARGETS + ClusterHistories.bytes(size, TARGETS);
        if (self == 0) {
            NeverReclaimer never = new NeverReclaimer(main);
            int handles = size * WORKERS + 1;
            queue = WaitFreeQueue.create(main, never, home(Target.QUEUE, size), handles, ELEMENTS);
            stack = WaitFreeStack.create(main, never, home(Target.STACK, size), handles, ELEMENTS);
            long[] ptrs = {RemoteCounter.create(main, home(Target.COUNTER, size), 0).ptr(),
                RemoteMaxRegister.create(main, home(Target.MAX_REGISTER, size), handles, 0).ptr(),
                RemoteRegister.create(main, never, home(Target.REGISTER, size), new byte[REGISTER_BYTES]).ptr(), queue.ptr(), stack.ptr()};
            long directory = main.allocator().allocate(directoryBytes, 0);
            for (long off = 0; off < directoryBytes; off += 8) {
                main.write(directory + off, off < 8L * TARGETS ? ptrs[(int) (off / 8)] : 0);
            }
            root.set(directory);
        }
        barrier.await();
        long directory = root.get();
        long[] ptrs = new long[TARGETS];
        for (int i = 0; i < TARGETS; i++) {
            ptrs[i] = main.read(directory + 8L * i);
        }
        ClusterHistories cluster = new ClusterHistories(main, directory + 8L * TARGETS, size, names(), RUN_BOUND, dir);
        cluster.clockPhase(0);
        barrier.await();
        Map<Target, History> histories = new EnumMap<>(Target.class);
        for (Target target : Target.values()) {
            histories.put(target, new History(HistoryClock.EPOCH_MICROS, self));
        }
        ClusterWorkers.run(clusterNode, WORKERS, barrier, RUN_BOUND,
                (ct, index, start) -> work(ct, self * WORKERS + index, index, ptrs, histories, start));
        barrier.await();
        cluster.clockPhase(1);
        Map<String, History> byName = new LinkedHashMap<>();
        histories.forEach((t, h) -> byName.put(t.name().toLowerCase(), h));
        Map<String, List<Operation>> merged = cluster.gather(byName);
        if (self != 0) {
            if (!cluster.awaitVerdict()) {
                throw new AssertionError("node 0 found the merged histories wrong (see its output)");
            }
            return "node " + self + ": node 0 checked the merged histories as linearizable";
        }
        List<String> failures;
        try {
            failures = check(merged, Map.of(Target.QUEUE, queue.contents(), Target.STACK, stack.contents()));
            cluster.printSpans(merged.values().stream().flatMap(List::stream).toList());
        } catch (RuntimeException | Error e) {
            cluster.publish(false);
            throw e;
        }
        cluster.publish(failures.isEmpty());
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures));
        }
        return "node 0: every object's merged history of " + size + " hosts is linearizable";
    }

    private static int home(Target target, int size) {
        return target.ordinal() % size;
    }

    /** One thread's seeded random operations on every object, recorded. */
    private static void work(ComputeThread t, int gid, int index, long[] ptrs, Map<Target, History> histories,
                             ClusterWorkers.Start start) throws InterruptedException {
        EpochReclaimer reclaimer = new EpochReclaimer(t, t.allocator(), EPOCH);
        RemoteCounter counter = RemoteCounter.attach(t, ptrs[Target.COUNTER.ordinal()]);
        RemoteMaxRegister max = RemoteMaxRegister.attach(t, ptrs[Target.MAX_REGISTER.ordinal()]);
        RemoteRegister register = RemoteRegister.attach(t, reclaimer, ptrs[Target.REGISTER.ordinal()]);
        WaitFreeContainer queue = WaitFreeContainer.of(WaitFreeQueue.attach(t, reclaimer, ptrs[Target.QUEUE.ordinal()]));
        WaitFreeContainer stack = WaitFreeContainer.of(WaitFreeStack.attach(t, reclaimer, ptrs[Target.STACK.ordinal()]));
        Map<Target, History.Recorder> recorders = new EnumMap<>(Target.class);
        for (Target target : Target.values()) {
            recorders.put(target, histories.get(target).recorder(index));
        }
        MemorySegment value = MemorySegment.ofArray(new byte[REGISTER_BYTES]);
        SplittableRandom rnd = new SplittableRandom(7_919L * (gid + 1));
        for (long ptr : ptrs) {
            t.read(ptr);
        }
        start.attachedAwaitStart();
        for (int i = 0; i < OPS; i++) {
            Contention.maybeYield();
            Target target = Target.values()[rnd.nextInt(TARGETS)];
            History.Recorder r = recorders.get(target);
            boolean update = rnd.nextBoolean();
            switch (target) {
                case COUNTER -> {
                    if (update) {
                        long delta = 1 + rnd.nextInt(3);
                        int op = r.invoke(CounterSpec.FETCH_AND_ADD, delta);
                        r.respond(op, counter.fetchAndAdd(delta));
                    } else {
                        int op = r.invoke(CounterSpec.READ);
                        r.respond(op, counter.read());
                    }
                }
                case MAX_REGISTER -> {
                    if (update) {
                        long v = (4L * i + rnd.nextInt(12)) * 64 + gid + 1;
                        int op = r.invoke(MaxRegisterSpec.WRITE_MAX, v);
                        max.writeMax(v);
                        r.respond(op);
                    } else {
                        int op = r.invoke(MaxRegisterSpec.READ);
                        r.respond(op, max.read());
                    }
                }
                case REGISTER -> {
                    if (update) {
                        long first = ((gid + 1L) << 32) | (i + 1);
                        value.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, first);
                        value.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, ~first);
                        int op = r.invoke(RegisterSpec.WRITE, first, ~first);
                        register.write(value);
                        r.respond(op);
                    } else {
                        int op = r.invoke(RegisterSpec.READ);
                        register.read(value);
                        r.respond(op, value.get(ValueLayout.JAVA_LONG_UNALIGNED, 0), value.get(ValueLayout.JAVA_LONG_UNALIGNED, 8));
                    }
                }
                case QUEUE, STACK -> {
                    WaitFreeContainer box = target == Target.QUEUE ? queue : stack;
                    if (update) {
                        long v = (gid + 1L) * 1_000_000L + i;
                        int op = r.invoke(BoundedContainerSpec.PUT, v);
                        r.respond(op, box.put(v) ? 1 : 0);
                    } else {
                        int op = r.invoke(BoundedContainerSpec.TAKE);
                        if (box.take()) {
                            r.respond(op, box.taken());
                        } else {
                            r.respond(op);
                        }
                    }
                }
                default -> throw new IllegalStateException(target.toString());
            }
        }
        reclaimer.close();
    }

    /** Node 0's checks of the merged histories; the failures, none when all passed. */
    private static List<String> check(Map<String, List<Operation>> merged, Map<Target, long[]> contents) {
        Map<Target, Specification<?>> specs = Map.of(Target.COUNTER, new CounterSpec(), Target.MAX_REGISTER, new MaxRegisterSpec(),
                Target.REGISTER, new RegisterSpec(2),
                Target.QUEUE, new BoundedContainerSpec(true, ELEMENTS), Target.STACK, new BoundedContainerSpec(false, ELEMENTS));
        List<String> failures = new ArrayList<>();
        for (Target target : Target.values()) {
            List<Operation> history = merged.get(target.name().toLowerCase());
            CheckResult result = CHECKER.check(history, specs.get(target));
            System.out.println(target + ": " + history.size() + " operations, " + ClusterHistories.crossHostOverlaps(history)
                    + " pairs of different hosts overlapping in time, " + result.verdict() + " after " + result.configurations()
                    + " configurations");
            if (result.verdict() != Verdict.LINEARIZABLE) {
                failures.add(target + ": " + result);
            }
            if (contents.containsKey(target)) {
                String e = exactlyOnce(history, contents.get(target));
                if (e != null) {
                    failures.add(target + ": " + e);
                }
            }
        }
        return failures;
    }

    /** Every value a put added came out of a take or is in the final contents, exactly once; null when so. */
    private static String exactlyOnce(List<Operation> history, long[] remaining) {
        Map<Long, Integer> in = new HashMap<>();
        Map<Long, Integer> out = new HashMap<>();
        for (Operation op : history) {
            if (op.kind().equals(BoundedContainerSpec.PUT) && op.result()[0] == 1) {
                in.merge(op.arguments()[0], 1, Integer::sum);
            } else if (op.kind().equals(BoundedContainerSpec.TAKE) && op.result().length == 1) {
                out.merge(op.result()[0], 1, Integer::sum);
            }
        }
        Arrays.stream(remaining).forEach(v -> out.merge(v, 1, Integer::sum));
        return in.equals(out) ? null : "values put " + in + " but taken or remaining " + out;
    }
}
