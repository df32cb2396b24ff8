package io.remus.ds.delegate;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.HistoryJournal;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.CounterSpec;
import io.remus.core.testing.ProcessFabric;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.remus.ds.testing.ChildProcesses.killMidOperation;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Delegation on rxe when one of three processes ({@link TrusteeKilledProcessMain}), a trustee's and two
 * clients', is killed with {@code SIGKILL} while one of its clients is in the middle of a call: the test stops
 * the victim ({@code SIGSTOP}) until its in-flight marks show a call between its journaled invocation and its
 * response, then kills it. Checks:
 * <ul>
 *   <li>the live trustees keep serving: each live client completes {@value TrusteeKilledProcessMain#AFTER}
 *       calls on each of them after the kill, none failing (the dead clients' requests in their slots and
 *       their responses to a dead node do not stop them);</li>
 *   <li>every call of a live client to the dead trustee after the kill ends in a typed error within the
 *       call's bound ({@link TrusteeKilledProcessMain#CALL_BOUND}, or the child fails);</li>
 *   <li>every counter's history, the dead trustee's included, merged from all journals ({@link HistoryJournal}:
 *       the victim's survive the kill, its unanswered calls read as pending) is linearizable against
 *       {@link CounterSpec}: no fetch-and-add applied twice or lost, a dead client's in-flight one applied at
 *       most once;</li>
 *   <li>the victim's journals show a pending call of each client its marks showed in flight, and no event
 *       after the kill.</li>
 * </ul>
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class TrusteeKilledProcessOnVerbsTest {
    private static final int NODES = 3;
    private static final int VICTIM = NODES - 1;
    /** The sweep's journals: one process number past the nodes'. */
    private static final int SWEEP = NODES;
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(6);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldKeepTheLiveTrusteesServingAndFailCallsToTheDeadOneTypedWhenAProcessIsKilledMidCall(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(TrusteeKilledProcessMain.class, fabric.argument(), Integer.toString(i), Integer.toString(NODES),
                        Integer.toString(port), dir.toString()));
            }
            ChildProcesses.Killed killed = killMidOperation(children, dir, dir.resolve(TrusteeKilledProcessMain.IN_FLIGHT),
                    TrusteeKilledProcessMain.WORKERS, READY_BOUND, MAX_STOPS, CHILD_TIMEOUT);
            Set<Integer> inFlight = killed.inFlight();
            long killedAt = killed.killedAt();
            List<String> outputs = killed.outputs();
            String sweep = outputs.getFirst().lines().filter(l -> l.startsWith("SWEEP ")).findFirst()
                    .orElseGet(() -> fail("node 0 reported no sweep:\n" + outputs.getFirst()));
            System.out.println(sweep);
            List<Executable> checks = new ArrayList<>();
            checks.add(() -> checkClients(outputs));
            List<Operation> victimOps = new ArrayList<>();
            for (int t = 0; t < NODES; t++) {
                int trustee = t;
                List<Operation> history = HistoryJournal.merge(IntStream.rangeClosed(0, SWEEP)
                        .mapToObj(n -> dir.resolve(TrusteeKilledProcessMain.journal(trustee, n))).filter(Files::exists).toList());
                victimOps.addAll(history.stream().filter(o -> o.process() == VICTIM).toList());
                long pending = history.stream().filter(Operation::isPending).count();
                checks.add(() -> {
                    CheckResult result = CHECKER.check(history, new CounterSpec());
                    System.out.println("counter of trustee " + trustee + ": " + history.size() + " calls, " + pending + " pending, "
                            + result.verdict() + " after " + result.configurations() + " configurations");
                    assertEquals(Verdict.LINEARIZABLE, result.verdict(), "counter of trustee " + trustee + ": " + result);
                });
            }
            checks.add(() -> {
                for (int client : inFlight) {
                    assertTrue(victimOps.stream().anyMatch(o -> o.thread() % TrusteeKilledProcessMain.WORKERS == client && o.isPending()),
                            "the victim's client " + client + ", in flight when killed, left a pending call: " + victimOps);
                }
                for (Operation o : victimOps) {
                    assertTrue(o.invokedAt() <= killedAt && (o.isPending() || o.respondedAt() <= killedAt),
                            "no event of the victim after its kill: " + o);
                }
            });
            assertAll(checks);
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    private static void checkClients(List<String> outputs) {
        for (int node = 0; node < VICTIM; node++) {
            List<Map<String, String>> clients = outputs.get(node).lines().filter(l -> l.startsWith("WORKER "))
                    .map(ChildProcesses::fields).toList();
            assertEquals(TrusteeKilledProcessMain.WORKERS, clients.size(), "node " + node + ":\n" + outputs.get(node));
            for (Map<String, String> c : clients) {
                assertEquals((long) (NODES - 1) * TrusteeKilledProcessMain.AFTER, num(c, "afterKill"),
                        "each live client completed its calls on every live trustee after the kill: " + c);
                assertEquals(TrusteeKilledProcessMain.DEAD_CALLS, num(c, "deadTyped"),
                        "each call to the dead trustee ended in a typed error: " + c);
            }
        }
    }
}
