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
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.remus.ds.index.IndexKilledFollowerMain.AFTER;
import static io.remus.ds.index.IndexKilledFollowerMain.CLIENT;
import static io.remus.ds.index.IndexKilledFollowerMain.KEYS;
import static io.remus.ds.index.IndexKilledFollowerMain.LEADER;
import static io.remus.ds.index.IndexKilledFollowerMain.NODES;
import static io.remus.ds.index.IndexKilledFollowerMain.SURVIVOR;
import static io.remus.ds.index.IndexKilledFollowerMain.VICTIM;
import static io.remus.ds.testing.ChildProcesses.killMidOperation;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The replicated index across four processes on one rxe device ({@link IndexKilledFollowerMain}): the shard's
 * leader, two followers that are also clients, and a client process, running a journaled put/get/delete workload
 * over a few keys; the test kills one follower with {@code SIGKILL} while its client is in the middle of an
 * operation ({@link ChildProcesses#killMidOperation}). Checks, on counts and contents:
 * <ul>
 *   <li>the live clients keep completing operations: each completes {@value IndexKilledFollowerMain#AFTER}
 *       operations invoked after the kill, none failing and none left pending;</li>
 *   <li>every key's history, merged from all journals with the killed client's pending operation and the final
 *       read of every key, is linearizable against {@link MapSpec} (remus-check);</li>
 *   <li>no operation applied twice or lost: the leader applied exactly the sequence numbers its clients
 *       completed (the killed client's pending one at most once), each once, and appended nothing else;</li>
 *   <li>the survivors' states are equal (map and session table), and their map is what the final reads, part of
 *       the checked history, returned;</li>
 *   <li>the living follower stayed attached, and no WRITE was refused as fenced; the killed process's journal shows
 *       no event after its kill.</li>
 * </ul>
 * Waits are in minutes: an emulated guest is 20 to 100 times slower than a host.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class IndexKilledFollowerOnVerbsTest {
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final int MAX_STOPS = 200;
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(8);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(60)));

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldStayLinearizableAndApplyEachOperationOnceWhenAFollowerIsKilledMidWorkload(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(IndexKilledFollowerMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), dir.toString()));
            }
            ChildProcesses.Killed killed = killMidOperation(children, dir, dir.resolve(IndexKilledFollowerMain.IN_FLIGHT), 1,
                    READY_BOUND, MAX_STOPS, CHILD_TIMEOUT);
            List<String> outputs = killed.outputs();
            Map<String, String> leader = line(outputs.get(LEADER), "LEADER ");
            Map<String, String> survivor = line(outputs.get(SURVIVOR), "CLIENT ");
            Map<String, String> client = line(outputs.get(CLIENT), "CLIENT ");
            Map<String, String> follower = line(outputs.get(SURVIVOR), "FOLLOWER ");
            Map<String, String> sweep = line(outputs.get(CLIENT), "SWEEP");
            System.out.println(leader + "\n" + survivor + "\n" + client + "\n" + follower + "\n" + sweep);

            List<Path> journals = Stream.concat(Stream.of(SURVIVOR, CLIENT, VICTIM).map(n -> "map-" + n + ".journal"),
                    Stream.of("map-sweep.journal")).map(dir::resolve).toList();
            List<Operation> history = HistoryJournal.merge(journals);
            List<Operation> ofVictim = history.stream().filter(o -> o.process() == VICTIM).toList();
            long victimPending = ofVictim.stream().filter(Operation::isPending).count();
            long victimDone = ofVictim.size() - victimPending;
            System.out.println(history.size() + " operations, the killed client's: " + ofVictim.size() + ", "
                    + victimPending + " pending");

            for (int live : new int[] {SURVIVOR, CLIENT}) {
                List<Operation> mine = history.stream().filter(o -> o.process() == live).toList();
                assertTrue(mine.stream().noneMatch(Operation::isPending), "node " + live + " left no operation pending");
                long after = mine.stream().filter(o -> o.invokedAt() > killed.killedAt()).count();
                assertTrue(after >= AFTER, "node " + live + " completed " + after + " operations after the kill");
            }
            assertEquals(1, victimPending, "the killed client, in flight when killed, left one pending operation");
            for (Operation o : ofVictim) {
                assertTrue(o.invokedAt() <= killed.killedAt() && (o.isPending() || o.respondedAt() <= killed.killedAt()),
                        "no event of the killed client after its kill: " + o);
            }

            CheckResult result = CHECKER.checkByKey(history, new MapSpec());
            System.out.println("per-key histories: " + result.verdict() + " after " + result.configurations() + " configurations");
            assertEquals(Verdict.LINEARIZABLE, result.verdict(), "per-key histories: " + result);

            long survivorOps = num(survivor, "sequence");
            long clientOps = num(client, "sequence");
            long victimSeq = num(leader, "seq" + (1000 + VICTIM));
            assertEquals(survivorOps, num(leader, "seq" + (1000 + SURVIVOR)), "the survivor's operations, each applied");
            assertEquals(clientOps, num(leader, "seq" + (1000 + CLIENT)), "the client process's operations, each applied");
            assertEquals(KEYS, num(leader, "seq" + IndexKilledFollowerMain.SWEEP_CLIENT), "the final reads, each applied");
            assertTrue(victimSeq == victimDone || victimSeq == victimDone + 1, "the killed client's " + victimDone
                    + " completed operations applied, its pending one at most once: last sequence applied " + victimSeq);
            long applied = num(leader, "applied");
            assertEquals(survivorOps + clientOps + victimSeq + KEYS, applied, "every applied command is one operation, once");
            assertEquals(applied + num(leader, "duplicates"), num(leader, "appends"), "every append applied or a duplicate");
            assertEquals(applied, num(follower, "applied"), "the survivor applied what the leader applied");
            assertEquals(0, num(leader, "fencedWrites"), "no WRITE was refused as fenced");
            assertEquals("true", leader.get("survivorAttached"), "the living follower stayed attached");

            String leaderState = Files.readString(dir.resolve("state-" + LEADER));
            assertEquals(leaderState, Files.readString(dir.resolve("state-" + SURVIVOR)), "the survivors' states");
            assertEquals(expectedMap(sweep), mapPart(leaderState), "the survivors' map is what the final reads returned");
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    /** {@return the map part of {@link IndexStateMachine#describe()}: its session entries left out} */
    static String mapPart(String describe) {
        return describe.replaceAll(", c:[^,}]*", "").replaceAll("\\{c:[^,}]*(, )?", "{");
    }

    /** {@return what {@link #mapPart} shows for the values of the {@code SWEEP} line ({@code keyK=WORD} or {@code -})} */
    static String expectedMap(Map<String, String> sweep) {
        TreeMap<String, String> out = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        for (long k = 1; k <= KEYS; k++) {
            String v = sweep.get("key" + k);
            assertTrue(v != null, "no key" + k + " in " + sweep);
            if (!v.equals("-")) {
                out.put("k:" + hex.formatHex(IndexKilledFollowerMain.key(k)),
                        hex.formatHex(ByteBuffer.allocate(8).putLong(Long.parseLong(v)).array()));
            }
        }
        return out.toString();
    }

    /** {@return the pairs of the first line of {@code output} that starts with {@code prefix}} */
    static Map<String, String> line(String output, String prefix) {
        return ChildProcesses.fields(output.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseGet(() -> fail("no " + prefix.strip() + " line in:\n" + output)));
    }
}
