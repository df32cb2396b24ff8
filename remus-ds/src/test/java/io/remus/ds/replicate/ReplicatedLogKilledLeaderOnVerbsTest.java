package io.remus.ds.replicate;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static io.remus.ds.replicate.ReplicatedLogKilledFollowerOnVerbsTest.line;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.AFTER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.FOLLOWER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.NEW_LEADER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.OLD_LEADER;
import static io.remus.ds.replicate.ReplicatedLogKilledLeaderMain.READY_COMMITTED;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leader change of the replicated log across three processes on one rxe device
 * ({@link ReplicatedLogKilledLeaderMain}): node 0 is elected and appends, and the test kills it with
 * {@code SIGKILL} once it has committed {@value ReplicatedLogKilledLeaderMain#READY_COMMITTED} entries, while it
 * appends. The survivors' agents suspect it and elect node 1, which takes over (recovering from a majority: itself
 * and node 2), reattaches node 2 and commits {@value ReplicatedLogKilledLeaderMain#AFTER} more entries. Checks, on
 * counts and contents: the killed leader's {@code COMMITTED} lines are 0, 1, 2, ... in order; the new leader
 * recovered at least as many entries, committed exactly {@value ReplicatedLogKilledLeaderMain#AFTER} more, kept
 * node 2 attached and the dead node detached, and no WRITE of it was refused; both survivors applied exactly the
 * sequence of entries 0 to its commit count, each once (so every entry the killed leader reported committed once,
 * at its index); both suspect node 0, elect node 1, promised node 1's term and switched their grant exactly twice
 * (to node 0's term, then to node 1's); the killed leader's own member applied a prefix of that sequence, each
 * entry once. Waits are in minutes: an emulated guest is 20 to 100 times slower than a host; suspicion is tuned to
 * need a heartbeat standing still for 20 s (see {@link ReplicatedLogKilledLeaderMain}).
 */
@Timeout(value = 1200, unit = TimeUnit.SECONDS)
class ReplicatedLogKilledLeaderOnVerbsTest {
    private static final int NODES = 3;
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    @DeviceTest
    void shouldElectTheNextLeaderWhichKeepsEveryCommittedEntryWhenTheLeaderIsKilledMidWorkload(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(ReplicatedLogKilledLeaderMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), dir.toString()));
            }
            ChildProcesses.awaitFile(dir.resolve("ready"), READY_BOUND, children);
            ChildJvm old = children.get(OLD_LEADER);
            ChildJvm.Result dead = ChildProcesses.kill(old, "the first leader");
            Files.createFile(dir.resolve("killed"));
            List<Long> oldCommitted = dead.output().lines().filter(l -> l.startsWith("COMMITTED "))
                    .map(l -> Long.parseLong(l.substring("COMMITTED ".length()).strip())).toList();
            System.out.println("the killed leader reported " + oldCommitted.size() + " entries committed");
            assertTrue(oldCommitted.size() >= READY_COMMITTED, "the killed leader committed " + oldCommitted.size());
            for (int i = 0; i < oldCommitted.size(); i++) {
                assertEquals(i, oldCommitted.get(i), "the killed leader's " + i + "th committed entry");
            }
            List<String> outputs = new ArrayList<>();
            for (int i = NEW_LEADER; i <= FOLLOWER; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                System.out.println("---- node " + i + "\n" + r.output());
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
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
            assertEquals("true", leader.get("reattached"), "node " + FOLLOWER + " is attached after reattach");
            assertEquals("true", leader.get("followerAttached"), "node " + FOLLOWER + " stayed attached");
            assertEquals("false", leader.get("oldAttached"), "the dead node is not attached");
            List<Long> sequence = new ArrayList<>();
            for (long i = 0; i < committed; i++) {
                sequence.add(NumberedEntries.value(i));
            }
            for (int node = NEW_LEADER; node <= FOLLOWER; node++) {
                Map<String, String> member = line(outputs.get(node - NEW_LEADER), "MEMBER ");
                System.out.println(member);
                List<Long> applied = ReplicatedLogKilledFollowerMain.applied(dir, node);
                assertEquals(committed, applied.size(), "entries node " + node + " applied");
                assertEquals(applied.size(), new HashSet<>(applied).size(), "node " + node + " applied no entry twice");
                assertEquals(sequence, applied, "node " + node + " applied the committed sequence");
                assertEquals(committed, num(member, "applied"), "node " + node + "'s report");
                assertEquals("true", member.get("suspectsOld"), "node " + node + " suspects the killed leader");
                assertEquals(NEW_LEADER, num(member, "elected"), "node " + node + " elects node " + NEW_LEADER);
                assertEquals(NEW_LEADER, num(member, "grantedTo"), "node " + node + " grants node " + NEW_LEADER);
                assertEquals(num(leader, "term"), num(member, "promised"), "node " + node + " promised the new term");
                assertEquals(2, num(member, "grantSwitches"), "node " + node + " switched to node 0's term, then node 1's");
            }
            List<Long> ofOld = ReplicatedLogKilledFollowerMain.applied(dir, OLD_LEADER);
            System.out.println("the killed leader's member applied " + ofOld.size() + " entries");
            assertEquals(ofOld.size(), new HashSet<>(ofOld).size(), "the killed leader's member applied no entry twice");
            assertEquals(sequence.subList(0, Math.min(ofOld.size(), sequence.size())), ofOld,
                    "the killed leader's member applied a prefix of the committed sequence");
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
