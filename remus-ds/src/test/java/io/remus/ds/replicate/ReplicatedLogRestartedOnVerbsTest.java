package io.remus.ds.replicate;

import io.remus.core.testing.ProcessFabric;
import io.remus.ds.testing.ChildProcesses;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.remus.ds.replicate.ReplicatedLogKilledFollowerOnVerbsTest.line;
import static io.remus.ds.replicate.ReplicatedLogRestartedMain.AFTER;
import static io.remus.ds.replicate.ReplicatedLogRestartedMain.NEW_LEADER;
import static io.remus.ds.replicate.ReplicatedLogRestartedMain.OLD_LEADER;
import static io.remus.ds.replicate.ReplicatedLogRestartedMain.READY_APPLIED;
import static io.remus.ds.replicate.ReplicatedLogRestartedMain.RESTARTED;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A member of the replicated log killed and restarted as a new process with new memory, then the leader killed,
 * across three processes on one rxe device ({@link ReplicatedLogRestartedMain}), agents on. Node 0 is elected and
 * appends; the test kills node 2 with {@code SIGKILL} once it has applied {@value ReplicatedLogRestartedMain#READY_APPLIED}
 * entries, while node 0 appends, and starts node 2 again at once: a new process with the same node id, which joins the
 * cluster again and makes its log anew ({@link LogReplica#rejoin}). Node 0's leader finds the new log by name and
 * catches it up ({@link LogLeader#reattach}); once node 2's log is no longer recovering and it applied every entry
 * committed up to then, the test kills node 0, while it appends. The survivors' agents suspect it and elect node 1,
 * which takes over with node 2's log as a source and commits {@value ReplicatedLogRestartedMain#AFTER} more entries.
 *
 * <p>Checks, on counts and contents: the killed leader's {@code COMMITTED} lines are 0, 1, 2, ... in order; it
 * reattached node 2 after looking its log up again and cleared its recovering bit once, with no WRITE refused;
 * node 2's second life applied at least every entry committed up to that reattach before the kill; the new leader
 * recovered at least every entry the killed one reported committed, committed exactly
 * {@value ReplicatedLogRestartedMain#AFTER} more, kept node 2 attached and the dead node detached, and no WRITE of it
 * was refused; both survivors (node 1, and node 2's second life) applied exactly the sequence of entries 0 to its
 * commit count, each once, so every entry the killed leader reported committed once at its index, and the same
 * sequence; node 2's log is no longer recovering, and both survivors promised node 1's term, granted node 1 and
 * switched their grant exactly twice (to node 0's term, then to node 1's); the killed processes (node 0, node 2's
 * first life) applied prefixes of that sequence, each entry once. Waits are in minutes: an emulated guest is 20 to 100
 * times slower than a host.
 */
@Timeout(value = 1800, unit = TimeUnit.SECONDS)
@Tag(DeviceTests.SLOW_TAG) // about 7.5 min in a TCG guest; CI runs the same scenario on shared memory (ReplicatedLogRestartedOnShmTest)
class ReplicatedLogRestartedOnVerbsTest {
    private static final int NODES = 3;
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final Duration REJOINED_BOUND = Duration.ofMinutes(7);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    /**
     * @return heartbeat READs in a row without change before an agent suspects a member: on verbs a dead member's
     *         READs fail, so this count only guards a live leader against a guest's long stalls (20 s, as
     *         {@link ReplicatedLogKilledLeaderMain#SUSPECT_AFTER})
     */
    int suspectAfter() {
        return ReplicatedLogKilledLeaderMain.SUSPECT_AFTER;
    }

    @DeviceTest
    void shouldRejoinARestartedMemberWithNewMemoryAndLoseNoCommittedEntryWhenTheLeaderIsKilledAfter(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(start(fabric, i, port, dir, ReplicatedLogRestartedMain.FIRST));
            }
            awaitFile(dir.resolve(ReplicatedLogRestartedMain.READY), READY_BOUND, children);
            Files.createFile(dir.resolve(ReplicatedLogRestartedMain.KILLING));
            ChildJvm.Result firstLife = ChildProcesses.kill(children.get(RESTARTED), "node " + RESTARTED + "'s first life");
            children.add(start(fabric, RESTARTED, port, dir, ReplicatedLogRestartedMain.REJOIN));
            ChildJvm second = children.getLast();
            awaitFile(dir.resolve(ReplicatedLogRestartedMain.REJOINED), REJOINED_BOUND,
                    List.of(children.get(OLD_LEADER), children.get(NEW_LEADER), second));
            ChildJvm.Result dead = ChildProcesses.kill(children.get(OLD_LEADER), "the first leader");
            Files.createFile(dir.resolve(ReplicatedLogRestartedMain.KILLED));
            System.out.println("---- node " + RESTARTED + "'s first life\n" + firstLife.output());
            System.out.println("---- node " + OLD_LEADER + " (killed)\n" + dead.output());

            List<Long> oldCommitted = dead.output().lines().filter(l -> l.startsWith("COMMITTED "))
                    .map(l -> Long.parseLong(l.substring("COMMITTED ".length()).strip())).toList();
            System.out.println("the killed leader reported " + oldCommitted.size() + " entries committed");
            for (int i = 0; i < oldCommitted.size(); i++) {
                assertEquals(i, oldCommitted.get(i), "the killed leader's " + i + "th committed entry");
            }
            Map<String, String> reattach = line(dead.output(), "REATTACHED ");
            System.out.println(reattach);
            assertEquals(1, num(reattach, "recoveriesCleared"), "the first leader cleared node 2's recovering bit once");
            assertTrue(num(reattach, "logsLookedUpAgain") >= 1, "the first leader looked node 2's new log up by name");
            assertEquals(0, num(reattach, "fencedWrites"), "no WRITE of the first leader was refused");
            long reattachedAt = ReplicatedLogRestartedMain.count(dir.resolve(ReplicatedLogRestartedMain.REATTACHED));
            long rejoinedApplied = ReplicatedLogRestartedMain.count(dir.resolve(ReplicatedLogRestartedMain.REJOINED));
            assertTrue(oldCommitted.size() >= reattachedAt, "the killed leader reported " + oldCommitted.size()
                    + " committed, at least the " + reattachedAt + " appended when it reattached node 2");
            assertTrue(rejoinedApplied >= reattachedAt, "node 2's second life applied " + rejoinedApplied
                    + " entries before the kill, at least the " + reattachedAt + " committed when it was reattached");

            List<String> outputs = new ArrayList<>();
            for (ChildJvm child : List.of(children.get(NEW_LEADER), second)) {
                ChildJvm.Result r = child.await(CHILD_TIMEOUT);
                System.out.println("---- " + child + "\n" + r.output());
                assertTrue(r.succeeded(), child + " failed:\n" + r.output());
                outputs.add(r.output());
            }
            Map<String, String> leader = line(outputs.get(0), "LEADER ");
            System.out.println(leader);
            long recovered = num(leader, "recovered");
            long committed = num(leader, "committed");
            assertTrue(recovered >= oldCommitted.size(), "the new leader recovered " + recovered + " entries, at least the "
                    + oldCommitted.size() + " the killed one reported committed");
            assertEquals(recovered + AFTER, committed, "the new leader committed " + AFTER + " entries after its takeover");
            assertEquals(num(leader, "appended"), committed, "every appended entry committed");
            assertEquals(0, num(leader, "fencedWrites"), "no WRITE of the new leader was refused");
            assertEquals("false", leader.get("deposed"), "the new leader was not deposed");
            assertEquals("true", leader.get("reattached"), "node " + RESTARTED + " is attached after reattach");
            assertEquals("true", leader.get("restartedAttached"), "node " + RESTARTED + " stayed attached");
            assertEquals("false", leader.get("oldAttached"), "the dead node is not attached");
            assertEquals(0, num(leader, "recoveriesCleared"), "node " + RESTARTED + "'s log was no longer recovering");

            List<Long> sequence = new ArrayList<>();
            for (long i = 0; i < committed; i++) {
                sequence.add(NumberedEntries.value(i));
            }
            List<Long> ofNewLeader = ReplicatedLogKilledFollowerMain.applied(dir, NEW_LEADER);
            List<Long> ofRejoined = applied(dir, ReplicatedLogRestartedMain.REJOINED_APPLIED);
            for (int k = 0; k < 2; k++) {
                String who = k == 0 ? "node " + NEW_LEADER : "node " + RESTARTED + "'s second life";
                List<Long> applied = k == 0 ? ofNewLeader : ofRejoined;
                Map<String, String> member = line(outputs.get(k), "MEMBER ");
                System.out.println(member);
                assertEquals(committed, applied.size(), "entries " + who + " applied");
                assertEquals(applied.size(), new HashSet<>(applied).size(), who + " applied no entry twice");
                assertEquals(sequence, applied, who + " applied the committed sequence");
                assertEquals(committed, num(member, "applied"), who + "'s report");
                assertEquals("false", member.get("recovering"), who + "'s log is not recovering");
                assertEquals("true", member.get("suspectsOld"), who + " suspects the killed leader");
                assertEquals(NEW_LEADER, num(member, "elected"), who + " elects node " + NEW_LEADER);
                assertEquals(NEW_LEADER, num(member, "grantedTo"), who + " grants node " + NEW_LEADER);
                assertEquals(num(leader, "term"), num(member, "promised"), who + " promised the new term");
                assertEquals(2, num(member, "grantSwitches"), who + " switched to node 0's term, then node 1's");
            }
            assertEquals(1, num(line(outputs.get(1), "MEMBER "), "wasRecovering"), "node 2's rejoined log began recovering");
            assertEquals(ofNewLeader, ofRejoined, "both survivors applied the same sequence");
            for (int i = 0; i < oldCommitted.size(); i++) {
                assertEquals(NumberedEntries.value(i), ofRejoined.get(i), "entry " + i + " the killed leader reported "
                        + "committed, as node 2's second life applied it");
            }

            List<Long> ofFirstLife = ReplicatedLogKilledFollowerMain.applied(dir, RESTARTED);
            System.out.println("node 2's first life applied " + ofFirstLife.size() + " entries");
            assertTrue(ofFirstLife.size() >= READY_APPLIED, "node 2's first life applied " + ofFirstLife.size());
            List<Long> ofOld = ReplicatedLogKilledFollowerMain.applied(dir, OLD_LEADER);
            System.out.println("the killed leader's member applied " + ofOld.size() + " entries");
            for (List<Long> killed : List.of(ofFirstLife, ofOld)) {
                assertEquals(killed.size(), new HashSet<>(killed).size(), "a killed member applied no entry twice");
                assertEquals(sequence.subList(0, Math.min(killed.size(), sequence.size())), killed,
                        "a killed member applied a prefix of the committed sequence");
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    /**
     * {@link ChildProcesses#awaitFile}, failing at once (with every child's output) when one of {@code live} exited
     * before the file appeared.
     */
    private static void awaitFile(Path file, Duration bound, List<ChildJvm> live) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!Files.exists(file) && System.nanoTime() - deadline < 0) {
            for (ChildJvm child : live) {
                if (!ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false) && !Files.exists(file)) {
                    ChildProcesses.awaitFile(file, Duration.ZERO, live);
                }
            }
            Thread.sleep(20);
        }
        ChildProcesses.awaitFile(file, Duration.ZERO, live);
    }

    private ChildJvm start(ProcessFabric fabric, int node, int port, Path dir, String life) {
        return ChildJvm.start(ReplicatedLogRestartedMain.class, fabric.argument(), Integer.toString(node),
                Integer.toString(NODES), Integer.toString(port), dir.toString(), Integer.toString(suspectAfter()), life);
    }

    /** {@return the values in the file {@code name} of {@code dir}, as {@link ReplicatedLogKilledFollowerMain#applied}} */
    private static List<Long> applied(Path dir, String name) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(dir.resolve(name)))
                .order(java.nio.ByteOrder.nativeOrder());
        List<Long> values = new ArrayList<>();
        while (b.remaining() >= 8) {
            values.add(b.getLong());
        }
        return values;
    }
}
