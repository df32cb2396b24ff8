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

import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.AFTER;
import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.LEADER;
import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.READY_APPLIED;
import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.SURVIVOR;
import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.VICTIM;
import static io.remus.ds.testing.ChildProcesses.num;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The replicated log across three processes on one rxe device ({@link ReplicatedLogKilledFollowerMain}): a leader
 * process appends while two follower processes apply, and the test kills one follower with {@code SIGKILL} once it
 * has applied {@value ReplicatedLogKilledFollowerMain#READY_APPLIED} entries, while the leader is appending. The
 * leader keeps committing with the other follower, a majority of three with itself: {@value
 * ReplicatedLogKilledFollowerMain#AFTER} more appends commit after the kill. Checks, on counts and contents: the
 * leader committed every entry it appended; the surviving follower and the leader's own member applied exactly the
 * committed sequence, each entry once; the killed follower applied a prefix of it, each entry once, at least {@value
 * ReplicatedLogKilledFollowerMain#READY_APPLIED} entries; no WRITE was refused as fenced; and, where the dead
 * process's memory goes with it ({@link #deadMemoryGoes()}: on verbs), the leader detached the dead follower and
 * kept the living one. Waits are in minutes: an emulated guest is 20 to 100 times slower than a host.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
@Tag(DeviceTests.SLOW_TAG) // CI's device suite kills a follower under the index (IndexKilledFollowerOnVerbsTest)
class ReplicatedLogKilledFollowerOnVerbsTest {
    private static final int NODES = 3;
    private static final Duration READY_BOUND = Duration.ofMinutes(7);
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(8);

    /** @return the fabric the children join: the verbs fabric on {@code REMUS_TEST_DEVICE} */
    ProcessFabric fabric() {
        return ProcessFabric.verbs(DeviceTests.deviceName());
    }

    /** @return whether a killed process's registered memory goes with it, so that WRITEs to it fail: on verbs */
    boolean deadMemoryGoes() {
        return true;
    }

    @DeviceTest
    void shouldKeepCommittingWithTheLivingFollowerWhenTheOtherIsKilledMidWorkload(@TempDir Path dir)
            throws InterruptedException, IOException {
        ProcessFabric fabric = fabric();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                children.add(ChildJvm.start(ReplicatedLogKilledFollowerMain.class, fabric.argument(), Integer.toString(i),
                        Integer.toString(NODES), Integer.toString(port), dir.toString()));
            }
            ChildProcesses.awaitFile(dir.resolve("ready"), READY_BOUND, children);
            ChildJvm victim = children.get(VICTIM);
            ChildJvm.Result dead = ChildProcesses.kill(victim, "the victim");
            Files.createFile(dir.resolve("killed"));
            List<String> outputs = new ArrayList<>();
            for (int i = 0; i < VICTIM; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                System.out.println("---- node " + i + "\n" + r.output());
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                outputs.add(r.output());
            }
            Map<String, String> leader = line(outputs.get(LEADER), "LEADER ");
            System.out.println(leader);
            long committed = num(leader, "committed");
            long atKill = num(leader, "appendedAtKill");
            assertEquals(num(leader, "appended"), committed, "every appended entry committed");
            assertEquals(atKill + AFTER, committed, "the leader committed " + AFTER + " entries after the kill");
            assertEquals(0, num(leader, "fencedWrites"), "no WRITE was refused as fenced");
            assertEquals("true", leader.get("survivorAttached"), "the living follower stayed attached");
            if (deadMemoryGoes()) {
                assertEquals("false", leader.get("victimAttached"), "the dead follower was detached");
                assertEquals(1, num(leader, "detachedDown") + num(leader, "detachedLagging"), "followers detached");
            }
            List<Long> sequence = new ArrayList<>();
            for (long i = 0; i < committed; i++) {
                sequence.add(NumberedEntries.value(i));
            }
            for (int node : new int[] {LEADER, SURVIVOR}) {
                List<Long> applied = ReplicatedLogKilledFollowerMain.applied(dir, node);
                assertEquals(committed, applied.size(), "entries node " + node + " applied");
                assertEquals(sequence, applied, "node " + node + " applied the committed sequence");
                assertEquals(committed, num(line(outputs.get(node), "FOLLOWER "), "applied"), "node " + node + "'s report");
            }
            List<Long> ofVictim = ReplicatedLogKilledFollowerMain.applied(dir, VICTIM);
            System.out.println("the killed follower applied " + ofVictim.size() + " entries");
            assertTrue(ofVictim.size() >= READY_APPLIED, "the killed follower applied " + ofVictim.size() + " before its kill");
            assertEquals(ofVictim.size(), new HashSet<>(ofVictim).size(), "the killed follower applied no entry twice");
            assertEquals(sequence.subList(0, Math.min(ofVictim.size(), sequence.size())), ofVictim,
                    "the killed follower applied a prefix of the committed sequence");
        } finally {
            children.forEach(ChildJvm::close);
        }
    }

    /** {@return the pairs of the first line of {@code output} that starts with {@code prefix}} */
    static Map<String, String> line(String output, String prefix) {
        return ChildProcesses.fields(output.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseGet(() -> fail("no " + prefix.strip() + " line in:\n" + output)));
    }
}
