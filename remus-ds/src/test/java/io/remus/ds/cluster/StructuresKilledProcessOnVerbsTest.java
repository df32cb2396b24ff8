package io.remus.ds.cluster;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.HistoryJournal;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.check.spec.SetSpec;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.cluster.StructuresKilledProcessMain.Structure;
import io.remus.ds.object.BoundedContainerSpec;
import io.remus.ds.testing.ChildProcesses;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.remus.ds.testing.ChildProcesses.killMidOperation;
import static io.remus.ds.testing.ChildProcesses.fields;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The structures on rxe when one of three processes ({@link StructuresKilledProcessMain}) is killed with
 * {@code SIGKILL} in the middle of an operation: the test stops the victim ({@code SIGSTOP}) until its
 * in-flight marks show an operation caught between its journaled invocation and its response, then kills
 * the stopped process, so the operation never returns. The two live processes then complete
 * {@value StructuresKilledProcessMain#AFTER} more operations each on every structure (every call within
 * {@link StructuresKilledProcessMain#CALL_BOUND}, a typed timeout counting as no completion), their epoch
 * reclaimers advance the global epoch past the dead process's slot (its lease), and node 0 sweeps every
 * structure (contains or get of every key, both queues drained).
 *
 * <p>Checks, over the merged journals ({@link HistoryJournal}: the victim's survive the kill, its
 * unanswered invocations read as pending operations): every structure's history is linearizable (the sets
 * key by key against {@link SetSpec}, the map against {@link MapSpec}, the queue whole against
 * {@link BoundedContainerSpec}, FIFO); the victim's journals hold a pending operation of each thread its
 * in-flight marks showed in flight, and no event after the kill; the queue gave no value twice, none never
 * offered, and the sweep drained it empty ({@link io.remus.ds.queue.MpmcCrashTolerantQueue}: a poll poisons
 * a claim the victim left unpublished, and a dead consumer's entry is freed by the next lap's producer), with
 * every value a completed offer added out except at most one per pending poll of the victim (which may have
 * claimed one and died). When the victim died with an offer pending, the queue's history is checked with full
 * answers allowed early (an offer may have counted the poisoned claim). The same holds for
 * {@link io.remus.ds.queue.MpmcScqQueue}, whose polls mark a ticket the victim took and never published, and
 * whose full answers are always allowed early (cells held by calls in flight, and one kept by the victim). A lazy-list lock the victim died
 * holding stays held ({@link io.remus.ds.set.LazyListSet}): calls that need it end in
 * {@link io.remus.alock.LockTimeoutException} at their deadline, journaled as voided, and are reported.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class StructuresKilledProcessOnVerbsTest {
    private static final int NODES = 3;
    private static final int VICTIM = NODES - 1;
    /** The sweep's journals: one process number past the nodes'. */
    private static final int SWEEP = NODES;
    private static final Duration READY_BOUND = Duration.ofMinutes(6);
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(6);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldKeepEveryStructureLinearizableAndUsableWhenAProcessIsKilledInTheMiddleOfAnOperation(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(StructuresKilledProcessMain.class, fabric.argument(), Integer.toString(i), Integer.toString(NODES),
                        Integer.toString(port), dir.toString()));
            }
            ChildProcesses.Killed killed = killMidOperation(children, dir, dir.resolve(StructuresKilledProcessMain.IN_FLIGHT),
                    StructuresKilledProcessMain.WORKERS, READY_BOUND, MAX_STOPS, CHILD_TIMEOUT);
            Set<Integer> inFlight = killed.inFlight();
            long killedAt = killed.killedAt();
            List<String> outputs = killed.outputs();
            String sweep = outputs.getFirst().lines().filter(l -> l.startsWith("SWEEP ")).findFirst()
                    .orElseGet(() -> fail("node 0 reported no sweep:\n" + outputs.getFirst()));
            List<Executable> checks = new ArrayList<>();
            checks.add(() -> checkWorkers(outputs));
            addHistoryChecks(checks, dir, inFlight, killedAt, fields(sweep).get("queue"), fields(sweep).get("scqQueue"));
            assertAll(checks);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    @Test
    void shouldCatchAQueueHistoryThatLostAValueOrGaveOneTwice() {
        long a = DataStructuresClusterTest.queueValue(0, 0, 0);
        long b = DataStructuresClusterTest.queueValue(2, 1, 0);
        List<Operation> fine = List.of(op(0, 0, BoundedContainerSpec.PUT, new long[]{a}, new long[]{1}, 1, 2),
                op(2, 1, BoundedContainerSpec.PUT, new long[]{b}, null, 1, Operation.PENDING),
                op(2, 0, BoundedContainerSpec.TAKE, new long[0], null, 3, Operation.PENDING),
                op(1, 0, BoundedContainerSpec.TAKE, new long[0], new long[]{b}, 4, 5));
        assertNull(queueFailure(fine, "empty"), "a pending take may have taken a; b of a pending offer came out once");
        List<Operation> lost = List.of(fine.get(0), fine.get(1), fine.get(3));
        assertTrue(String.valueOf(queueFailure(lost, "empty")).contains(a + " was added but never came out"),
                String.valueOf(queueFailure(lost, "empty")));
        assertNull(queueFailure(lost, "stuck"), "a blocked queue may still hold it");
        List<Operation> twice = List.of(fine.get(0), op(1, 0, BoundedContainerSpec.TAKE, new long[0], new long[]{a}, 3, 4),
                op(1, 1, BoundedContainerSpec.TAKE, new long[0], new long[]{a}, 3, 4));
        assertTrue(String.valueOf(queueFailure(twice, "empty")).contains(a + " came out 2 times"), String.valueOf(queueFailure(twice, "empty")));
    }

    private static Operation op(int process, int thread, String kind, long[] args, long[] result, long invoked, long responded) {
        return new Operation(-1, process, thread, kind, args, result, invoked, responded);
    }

    private static void checkWorkers(List<String> outputs) {
        for (int node = 0; node < VICTIM; node++) {
            List<Map<String, String>> workers = outputs.get(node).lines().filter(l -> l.startsWith("WORKER ")).map(ChildProcesses::fields)
                    .toList();
            assertEquals(StructuresKilledProcessMain.WORKERS, workers.size(), "node " + node + ":\n" + outputs.get(node));
            for (Map<String, String> w : workers) {
                assertTrue(num(w, "afterKill") >= (long) Structure.values().length * StructuresKilledProcessMain.AFTER,
                        "each live thread completed its calls on every structure after the kill: " + w);
                assertTrue(num(w, "advancesAfterKill") >= 1, "the live reclaimer advanced the epoch past the dead process's slot: " + w);
            }
        }
    }

    private static void addHistoryChecks(List<Executable> checks, Path dir, Set<Integer> inFlight, long killedAt, String drained,
                                         String scqDrained) {
        List<Operation> victimOps = new ArrayList<>();
        for (Structure s : Structure.values()) {
            List<Operation> history = HistoryJournal.merge(IntStream.rangeClosed(0, SWEEP).mapToObj(n -> dir.resolve(s.journal(n))).toList());
            List<Operation> ofVictim = history.stream().filter(o -> o.process() == VICTIM).toList();
            victimOps.addAll(ofVictim);
            long pending = ofVictim.stream().filter(Operation::isPending).count();
            long pendingOffers = ofVictim.stream().filter(o -> o.isPending() && o.kind().equals(BoundedContainerSpec.PUT)).count();
            checks.add(() -> {
                CheckResult result = switch (s) {
                    case LOCK_FREE_LIST, LAZY_LIST -> CHECKER.checkByKey(history, new SetSpec());
                    case HASH_MAP -> CHECKER.checkByKey(history, new MapSpec());
                    // A poll poisons a dead producer's claim; an offer may have counted that claim full before.
                    case QUEUE -> CHECKER.check(history, new BoundedContainerSpec(true, StructuresKilledProcessMain.CAPACITY, pendingOffers > 0));
                    // Full comes early whenever calls in flight hold cells; a dead caller may keep one for good.
                    case SCQ_QUEUE -> CHECKER.check(history, new BoundedContainerSpec(true, StructuresKilledProcessMain.CAPACITY, true));
                };
                System.out.println(s + ": " + history.size() + " operations, " + pending + " pending of the victim, " + result.verdict()
                        + " after " + result.configurations() + " configurations");
                assertEquals(Verdict.LINEARIZABLE, result.verdict(), s + ": " + result);
            });
            if (s == Structure.QUEUE || s == Structure.SCQ_QUEUE) {
                String swept = s == Structure.QUEUE ? drained : scqDrained;
                checks.add(() -> {
                    assertEquals("empty", swept, s + ": the sweep drained the queue, past any ticket the victim left");
                    assertNull(queueFailure(history, swept), s.toString());
                });
            }
        }
        checks.add(() -> {
            for (int thread : inFlight) {
                assertTrue(victimOps.stream().anyMatch(o -> o.thread() == thread && o.isPending()),
                        "the victim's thread " + thread + ", in flight when killed, left a pending operation: " + victimOps);
            }
            for (Operation o : victimOps) {
                assertTrue(o.invokedAt() <= killedAt && (o.isPending() || o.respondedAt() <= killedAt), "no event of the victim after its kill: " + o);
            }
        });
    }

    /**
     * The queue's values: none came out twice or without being offered (by a completed or a pending offer);
     * when {@code drained} is {@code empty}, every value a completed offer added came out, except at most one
     * per pending take.
     *
     * @return null when so, else what is wrong
     */
    static String queueFailure(List<Operation> history, String drained) {
        Set<Long> added = new HashSet<>();
        Set<Long> offered = new HashSet<>();
        Map<Long, Integer> out = new HashMap<>();
        long pendingTakes = 0;
        for (Operation op : history) {
            if (op.kind().equals(BoundedContainerSpec.PUT)) {
                offered.add(op.arguments()[0]);
                if (!op.isPending() && op.result()[0] == 1) {
                    added.add(op.arguments()[0]);
                }
            } else if (op.isPending()) {
                pendingTakes++;
            } else if (op.result().length == 1) {
                out.merge(op.result()[0], 1, Integer::sum);
            }
        }
        for (Map.Entry<Long, Integer> e : out.entrySet()) {
            if (e.getValue() > 1) {
                return e.getKey() + " came out " + e.getValue() + " times";
            }
            if (!offered.contains(e.getKey())) {
                return e.getKey() + " came out but was never offered";
            }
        }
        if (!drained.equals("empty")) {
            return null;
        }
        List<Long> missing = added.stream().filter(v -> !out.containsKey(v)).sorted().toList();
        return missing.size() <= pendingTakes ? null
                : missing.getFirst() + " was added but never came out (" + missing.size() + " such, " + pendingTakes + " pending takes)";
    }
}
