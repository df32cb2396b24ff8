package io.remus.ds.index;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.HistoryJournal;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.testing.ChildProcesses;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.remus.ds.index.IndexKilledFollowerOnVerbsTest.expectedMap;
import static io.remus.ds.index.IndexKilledFollowerOnVerbsTest.line;
import static io.remus.ds.index.IndexKilledFollowerOnVerbsTest.mapPart;
import static io.remus.ds.index.IndexKilledLeaderMain.AFTER;
import static io.remus.ds.index.IndexKilledLeaderMain.CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.FOLLOWER;
import static io.remus.ds.index.IndexKilledLeaderMain.NEW_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.NODES;
import static io.remus.ds.index.IndexKilledLeaderMain.OLD_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.OTHER_CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.SWEEP_CLIENT;
import static io.remus.ds.testing.ChildProcesses.killMidOperation;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leader change of the replicated index across five processes on one rxe device ({@link IndexKilledLeaderMain}):
 * three servers of the index's one shard with fail-over on, the first of which (node 0) the group elects and which
 * takes the shard over, and two client processes running a journaled put/get/delete workload over a few keys; the
 * test kills node 0 with {@code SIGKILL} while it serves a request ({@link ChildProcesses#killMidOperation}: between
 * the request's append and the end of its reply). The survivors' agents suspect it and elect node 1, which takes
 * the shard over; the clients find it by themselves. Checks, on counts and contents:
 * <ul>
 *   <li>the clients keep completing operations: each completes {@value IndexKilledLeaderMain#AFTER} operations
 *       invoked after the kill, none failing and none left pending (the operations in flight at the dead leader
 *       among them, completed through the new one);</li>
 *   <li>every key's history, merged from both clients' journals with the final read of every key, is linearizable
 *       against {@link MapSpec} (remus-check), so no acknowledged write is lost;</li>
 *   <li>no operation applied twice or lost: the new leader's session table holds each client's last sequence, and
 *       its state machine applied exactly as many commands as the clients completed operations, and every entry of
 *       the log is one of those commands or a duplicate that changed nothing;</li>
 *   <li>node 1 took the shard over once, in a term above node 0's, leads at the end with no WRITE refused; both
 *       survivors suspect node 0 and elect node 1; node 2 never led;</li>
 *   <li>the survivors applied the same entries and their states are equal (map and session table), and their map
 *       is what the final reads, part of the checked history, returned.</li>
 * </ul>
 * Waits are in minutes: an emulated guest is 20 to 100 times slower than a host.
 */
@Timeout(value = 1200, unit = TimeUnit.SECONDS)
class IndexKilledLeaderOnVerbsTest {
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));
    private static final Pattern OLD_TERM = Pattern.compile("PROGRESS leading node=0 term=(\\d+)");

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldFailOverAndApplyEachOperationOnceWhenTheLeaderIsKilledMidRequest(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(IndexKilledLeaderMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), dir.toString()));
            }
            ChildProcesses.Killed killed = killMidOperation(children, OLD_LEADER, dir,
                    dir.resolve(IndexKilledLeaderMain.IN_FLIGHT), 1, READY_BOUND, MAX_STOPS, CHILD_TIMEOUT);
            List<String> outputs = killed.outputs();
            Matcher oldTerm = OLD_TERM.matcher(outputs.get(OLD_LEADER));
            assertTrue(oldTerm.find(), "node 0 printed its term:\n" + outputs.get(OLD_LEADER));
            Map<String, String> leader = line(outputs.get(NEW_LEADER), "LEADER ");
            Map<String, String> follower = line(outputs.get(FOLLOWER), "FOLLOWER ");
            Map<String, String> client = line(outputs.get(CLIENT), "CLIENT ");
            Map<String, String> other = line(outputs.get(OTHER_CLIENT), "CLIENT ");
            Map<String, String> sweep = line(outputs.get(CLIENT), "SWEEP");
            System.out.println(leader + "\n" + follower + "\n" + client + "\n" + other + "\n" + sweep);

            List<Path> journals = Stream.of("map-" + CLIENT + ".journal", "map-" + OTHER_CLIENT + ".journal",
                    "map-sweep.journal").map(dir::resolve).toList();
            List<Operation> history = HistoryJournal.merge(journals);
            long acrossKill = history.stream().filter(o -> o.invokedAt() < killed.killedAt() && !o.isPending()
                    && o.respondedAt() > killed.killedAt()).count();
            System.out.println(history.size() + " operations, " + acrossKill + " invoked before the kill and answered after it");
            for (int live : new int[] {CLIENT, OTHER_CLIENT}) {
                List<Operation> mine = history.stream().filter(o -> o.process() == live).toList();
                assertTrue(mine.stream().noneMatch(Operation::isPending), "node " + live + " left no operation pending");
                long after = mine.stream().filter(o -> o.invokedAt() > killed.killedAt()).count();
                assertTrue(after >= AFTER, "node " + live + " completed " + after + " operations after the kill");
            }

            CheckResult result = CHECKER.checkByKey(history, new MapSpec());
            System.out.println("per-key histories: " + result.verdict() + " after " + result.configurations() + " configurations");
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "per-key histories: " + result);

            long clientOps = num(client, "sequence");
            long otherOps = num(other, "sequence");
            assertEquals(clientOps, num(leader, "seq" + (1000 + CLIENT)), "node " + CLIENT + "'s operations, each applied");
            assertEquals(otherOps, num(leader, "seq" + (1000 + OTHER_CLIENT)),
                    "node " + OTHER_CLIENT + "'s operations, each applied");
            assertEquals(IndexKilledFollowerMain.KEYS, num(leader, "seq" + SWEEP_CLIENT), "the final reads, each applied");
            long applied = num(leader, "applied");
            assertEquals(clientOps + otherOps + IndexKilledFollowerMain.KEYS, applied,
                    "every applied command is one operation, once");
            assertEquals(0, num(leader, "malformed"), "no malformed entry");
            assertEquals(applied + num(leader, "duplicates"), num(leader, "entries"),
                    "every entry of the log is a command applied or a duplicate");

            assertEquals(1, num(leader, "takeovers"), "node " + NEW_LEADER + " took the shard over once");
            assertTrue(num(leader, "term") > Long.parseLong(oldTerm.group(1)), "node " + NEW_LEADER + "'s term "
                    + leader.get("term") + " is above node 0's " + oldTerm.group(1));
            assertEquals(0, num(leader, "fencedWrites"), "no WRITE of the new leader was refused");
            for (Map<String, String> survivor : List.of(leader, follower)) {
                assertEquals("true", survivor.get("suspectsOld"), "a survivor suspects node 0: " + survivor);
                assertEquals(NEW_LEADER, num(survivor, "elected"), "a survivor elects node " + NEW_LEADER + ": " + survivor);
            }
            assertEquals("false", follower.get("leads"), "node " + FOLLOWER + " does not lead");
            assertEquals(0, num(follower, "takeovers"), "node " + FOLLOWER + " never took the shard over");

            assertEquals(num(leader, "entries"), num(follower, "entries"), "the survivors applied the same entries");
            assertEquals(applied, num(follower, "applied"), "the follower applied what the new leader applied");
            String leaderState = Files.readString(dir.resolve("state-" + NEW_LEADER));
            assertEquals(leaderState, Files.readString(dir.resolve("state-" + FOLLOWER)), "the survivors' states");
            assertEquals(expectedMap(sweep), mapPart(leaderState), "the survivors' map is what the final reads returned");
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
