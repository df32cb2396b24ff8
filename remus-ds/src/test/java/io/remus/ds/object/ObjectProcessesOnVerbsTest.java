package io.remus.ds.object;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.HistoryClock;
import io.remus.check.HistoryFiles;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Specification;
import io.remus.check.Verdict;
import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.MaxRegisterSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.object.ObjectProcessMain.Target;
import io.remus.ds.testing.ChildProcesses;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.remus.ds.testing.ChildProcesses.awaitFile;
import static io.remus.ds.testing.ChildProcesses.fields;
import static io.remus.ds.testing.ChildProcesses.num;
import static io.remus.ds.testing.ChildProcesses.signal;
import static io.remus.ds.testing.ChildProcesses.state;
import static io.remus.ds.testing.ChildProcesses.stopWithAnOperationInFlight;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The wait-free objects on rxe, used by three processes at once ({@link ObjectProcessMain}, objects on
 * node 0): one of them is stopped with {@code SIGSTOP} in the middle of one of its operations (the test
 * stops and resumes it until its in-flight marks show an operation caught between invocation and
 * response), and while it
 * stays stopped the other two keep completing operations on every object, each call within the object's
 * stated per-call bound (compute-thread counters, as the simulator's bound tests); after {@code SIGCONT}
 * its operations complete. Each process records its own history per object; merged, every object's
 * history checks as linearizable with remus-check's checker ({@link CounterSpec}, {@link MaxRegisterSpec},
 * {@link RegisterSpec} and {@link BoundedContainerSpec}), every value put into the queue and the stack
 * came out or stayed there exactly once, and the merged histories show the stop: no event of the stopped
 * process while it was stopped, an operation of it spanning the stop, and each live process's operations
 * completed wholly within it.
 *
 * <p>The reclaimers run with the library's defaults but for a short lease ({@link ObjectProcessMain#LEASE}): no
 * byte limit, so the live processes' progress shows the objects' wait-freedom with the defaults, a stopped
 * process delaying nobody.
 *
 * <p>The bound is checked on the live processes' calls of a thread whose reclaimer's lease held (calls shorter than the
 * lease, {@link ObjectProcessMain#LEASE}) and during which its reclaimer ran no pass: the bounds are
 * stated besides the reclaimer's own work and for a thread that keeps its lease. The rest are counted.
 * The victim holds no memory (see {@link ObjectProcessMain}), so its guards cost RDMA operations of their
 * own, which its counters cannot tell from the objects': its calls are measured and reported, not
 * asserted.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class ObjectProcessesOnVerbsTest {
    private static final int NODES = 3;
    private static final int VICTIM = NODES - 1;
    private static final Duration READY_BOUND = Duration.ofMinutes(6);
    private static final Duration LIVE_BOUND = Duration.ofMinutes(2);
    /** The shortest stop: long enough that the victim's lease runs out and the live reclaimers pass it. */
    private static final Duration MIN_STOPPED = ObjectProcessMain.LEASE.multipliedBy(3);
    /** Stops to try for one that catches the victim in the middle of an operation. */
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(4);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldCheckAsLinearizableAndKeepTheOthersWithinTheirBoundWhileOneProcessIsStopped(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        long stoppedAt;
        long resumedAt;
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(ObjectProcessMain.class, fabric.argument(), Integer.toString(i), Integer.toString(NODES),
                        Integer.toString(port), dir.toString()));
            }
            ChildJvm victim = children.get(VICTIM);
            awaitFile(dir.resolve("ready"), READY_BOUND, children);
            stopWithAnOperationInFlight(victim, dir.resolve(ObjectProcessMain.IN_FLIGHT), ObjectProcessMain.WORKERS, MAX_STOPS);
            stoppedAt = HistoryClock.EPOCH_MICROS.now();
            long stoppedNanos = System.nanoTime();
            Files.createFile(dir.resolve("frozen"));
            for (int i = 0; i < VICTIM; i++) {
                awaitFile(dir.resolve("live-" + i), LIVE_BOUND, children);
            }
            long left = MIN_STOPPED.toNanos() - (System.nanoTime() - stoppedNanos);
            if (left > 0) {
                TimeUnit.NANOSECONDS.sleep(left);
            }
            assertEquals('T', state(victim), "the victim stayed stopped while the others ran");
            resumedAt = HistoryClock.EPOCH_MICROS.now();
            signal("CONT", victim.pid());
            Files.createFile(dir.resolve("resumed"));
            System.out.printf("victim stopped for %.1f s%n", (resumedAt - stoppedAt) / 1e6);
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < NODES; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                outputs.add(r.output());
            }
            List<Executable> checks = new ArrayList<>();
            checks.add(() -> checkWorkers(outputs));
            addHistoryChecks(checks, dir, outputs.getFirst(), stoppedAt, resumedAt);
            assertAll(checks);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private static void checkWorkers(List<String> outputs) {
        for (int node = 0; node < NODES; node++) {
            List<Map<String, String>> workers = outputs.get(node).lines().filter(l -> l.startsWith("WORKER ")).peek(System.out::println)
                    .map(ChildProcesses::fields).toList();
            assertEquals(ObjectProcessMain.WORKERS, workers.size(), "node " + node + ":\n" + outputs.get(node));
            for (Map<String, String> w : workers) {
                if (node != VICTIM) {
                    assertEquals(0, num(w, "violations"), "every measured call kept its object's bound: " + w);
                    assertTrue(num(w, "checked") >= num(w, "ops") / 2, "at least half the calls were measured against the bound: " + w);
                    assertEquals(ObjectProcessMain.WHILE_FROZEN, num(w, "whileFrozen"), w.toString());
                    assertTrue(num(w, "checkedWhileFrozen") >= ObjectProcessMain.WHILE_FROZEN / 2,
                            "at least half the calls made while the victim was stopped were measured against the bound: " + w);
                }
            }
        }
    }

    private static void addHistoryChecks(List<Executable> checks, Path dir, String nodeZeroOutput, long stoppedAt, long resumedAt) {
        Map<Target, Specification<?>> specs = Map.of(Target.COUNTER, new CounterSpec(), Target.MAX_REGISTER, new MaxRegisterSpec(),
                Target.REGISTER, new RegisterSpec(2),
                Target.QUEUE, new BoundedContainerSpec(true, ObjectProcessMain.ELEMENTS),
                Target.STACK, new BoundedContainerSpec(false, ObjectProcessMain.ELEMENTS));
        Map<String, String> contents = fields(nodeZeroOutput.lines().filter(l -> l.startsWith("CONTENTS ")).findFirst()
                .orElseGet(() -> fail("no CONTENTS line from node 0:\n" + nodeZeroOutput)));
        List<Operation> all = new ArrayList<>();
        for (Target target : Target.values()) {
            List<Operation> history = HistoryFiles.merge(IntStream.range(0, NODES).mapToObj(n -> dir.resolve(target.file(n))).toList());
            all.addAll(history);
            checks.add(() -> {
                CheckResult result = CHECKER.check(history, specs.get(target));
                System.out.println(target + ": " + history.size() + " operations, " + result.verdict() + " after "
                        + result.configurations() + " configurations");
                assertEquals(Verdict.LINEARIZABLE, result.verdict(), target + ": " + result);
            });
            if (target == Target.QUEUE || target == Target.STACK) {
                String remaining = contents.get(target.name().toLowerCase());
                checks.add(() -> assertExactlyOnce(target, history, remaining));
            }
        }
        checks.add(() -> checkStop(all, stoppedAt, resumedAt));
    }

    /** Every value a put added came out of a take or is in the final contents, exactly once. */
    private static void assertExactlyOnce(Target target, List<Operation> history, String remaining) {
        Map<Long, Integer> in = new HashMap<>();
        Map<Long, Integer> out = new HashMap<>();
        for (Operation op : history) {
            if (op.kind().equals(BoundedContainerSpec.PUT) && op.result()[0] == 1) {
                in.merge(op.arguments()[0], 1, Integer::sum);
            } else if (op.kind().equals(BoundedContainerSpec.TAKE) && op.result().length == 1) {
                out.merge(op.result()[0], 1, Integer::sum);
            }
        }
        if (!remaining.isEmpty()) {
            for (String v : remaining.split(",")) {
                out.merge(Long.parseLong(v), 1, Integer::sum);
            }
        }
        assertEquals(in, out, target + ": every value put once came out (taken or remaining) exactly once");
    }

    /**
     * The merged histories show the stop: every operation completed; none of the victim's events fell
     * inside the stop, and one of its operations spans it; each live process completed at least
     * {@code WORKERS x WHILE_FROZEN} operations wholly inside it.
     */
    private static void checkStop(List<Operation> all, long stoppedAt, long resumedAt) {
        int[] inside = new int[NODES];
        int spanning = 0;
        for (Operation op : all) {
            assertTrue(!op.isPending(), "every operation completed: " + op);
            if (op.process() == VICTIM) {
                assertTrue(op.invokedAt() <= stoppedAt || op.invokedAt() >= resumedAt, "the victim invoked nothing while stopped: " + op);
                assertTrue(op.respondedAt() <= stoppedAt || op.respondedAt() >= resumedAt, "the victim completed nothing while stopped: " + op);
                if (op.invokedAt() <= stoppedAt && op.respondedAt() >= resumedAt) {
                    spanning++;
                }
            } else if (op.invokedAt() > stoppedAt && op.respondedAt() < resumedAt) {
                inside[op.process()]++;
            }
        }
        System.out.println("while the victim was stopped: " + spanning + " of its operations in flight, live processes completed "
                + inside[0] + " and " + inside[1] + " operations");
        assertTrue(spanning >= 1, "the victim was stopped in the middle of an operation, which completed once it resumed");
        for (int node = 0; node < VICTIM; node++) {
            assertTrue(inside[node] >= ObjectProcessMain.WORKERS * ObjectProcessMain.WHILE_FROZEN,
                    "node " + node + " completed " + inside[node] + " operations while the victim was stopped");
        }
    }
}
