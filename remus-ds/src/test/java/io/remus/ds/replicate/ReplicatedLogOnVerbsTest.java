package io.remus.ds.replicate;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.Opcode;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.verbs.VerbsFabric;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The replicated log on the verbs fabric (device {@code REMUS_TEST_DEVICE}): three members, each a node of this
 * JVM on the one device, each applying on a platform thread of its own while the leader, member 0, appends on
 * another. Appends that wrap the log reach every member, which all apply the same sequence; a leader whose
 * followers switched their grant away is fenced: its append fails typed, both refusals are counted, and no
 * member applies the refused entry. Run in the Soft-RoCE suite, where an operation costs 20 to 100 times what
 * it costs on a host, so every wait is bounded in minutes; the assertions are on counts and contents only.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class ReplicatedLogOnVerbsTest {
    static final String NAME = "verbs-log";
    /** Every wait's bound: generous for an emulated guest. */
    static final Duration WAIT = Duration.ofMinutes(3);
    private static final ReplicaGroup GROUP = ReplicaGroup.of(0, 1, 2);
    /** How long an applier that found nothing to apply parks: it leaves the guest's few processors to the others. */
    private static final long IDLE_NANOS = 20_000;

    /** {@return the fabric the three nodes share: the verbs fabric on {@code REMUS_TEST_DEVICE}} */
    Function<SimOptions, Fabric> fabric() {
        return options -> VerbsFabric.open(DeviceTests.deviceName());
    }

    private TestCluster cluster() {
        return new TestCluster(fabric(), SimOptions.defaults(), GROUP.size(), b -> b.opsInFlightPerThread(64), WAIT);
    }

    /**
     * 40 appends on a log of 8 slots, every one a WRITE to each of the two followers, then a commit flush: every
     * member applies the 40 entries, in order, and no follower is detached. Before each append that reuses a slot,
     * the leader's thread waits until every member has applied the entry the slot held, so that the leader's
     * detaching of lagging followers, which the simulator's tests cover, does not depend on how the guest
     * schedules the appliers.
     */
    @DeviceTest
    void shouldApplyTheSameSequenceOnEveryMemberWhenAppendsWrapTheLog() throws InterruptedException {
        int slots = 8;
        int entries = 40;
        try (TestCluster c = cluster(); Members m = new Members(c, GROUP, slots)) {
            m.start();
            m.awaitCreated();
            long[] counts = new long[3];
            m.runOn(0, t -> {
                try (LogLeader leader = LogLeader.open(t, GROUP, NAME, 1, WAIT)) {
                    for (long i = 0; i < entries; i++) {
                        if (i >= slots) {
                            m.awaitAppliedByAll(i - slots + 1);
                        }
                        long writes = t.postedOperations(Opcode.WRITE);
                        assertEquals(i, leader.append(NumberedEntries.entry(i), WAIT));
                        assertEquals(GROUP.size() - 1, t.postedOperations(Opcode.WRITE) - writes, "WRITEs of append " + i);
                        assertTrue(leader.committed() >= i + 1, "append " + i + " returned committed");
                    }
                    assertEquals(entries, leader.flushCommit(WAIT));
                    counts[0] = leader.committed();
                    counts[1] = leader.detachedLagging();
                    counts[2] = leader.detachedDown();
                }
            });
            m.awaitAppliedByAll(entries);
            m.stop();
            assertEquals(entries, counts[0], "entries committed");
            assertEquals(0, counts[1] + counts[2], "followers detached");
            for (int k = 0; k < GROUP.size(); k++) {
                assertEquals(values(entries), m.applied(k), "entries applied by node " + GROUP.member(k));
            }
        }
    }

    /**
     * Ten entries commit and every member applies them; then both followers switch their grant to node 1, and the
     * leader's next append fails with {@link LeaderFencedException}: both WRITEs refused and counted, the leader
     * deposed and posting nothing more. No member applies the refused entry, not even the leader's own, whose log
     * holds it whole: no commit count covers it.
     */
    @DeviceTest
    void shouldFenceTheLeaderWhenItsFollowersSwitchTheirGrantAway() throws InterruptedException {
        int entries = 10;
        try (TestCluster c = cluster(); Members m = new Members(c, GROUP, 64)) {
            m.start();
            m.awaitCreated();
            long[] counts = new long[4];
            int[] refusing = new int[1];
            m.runOn(0, t -> {
                LogLeader leader = LogLeader.open(t, GROUP, NAME, 1, WAIT);
                for (long i = 0; i < entries; i++) {
                    assertEquals(i, leader.append(NumberedEntries.entry(i), WAIT));
                }
                assertEquals(entries, leader.flushCommit(WAIT));
                m.awaitAppliedByAll(entries);
                m.switchGrant(1, 1);
                m.switchGrant(2, 1);
                LeaderFencedException e = assertThrows(LeaderFencedException.class,
                        () -> leader.append(NumberedEntries.entry(entries), WAIT));
                refusing[0] = e.refusingNode();
                assertTrue(leader.isDeposed());
                long writes = t.postedOperations(Opcode.WRITE);
                assertThrows(LeaderFencedException.class, () -> leader.append(NumberedEntries.entry(entries + 1), WAIT));
                assertThrows(LeaderFencedException.class, () -> leader.flushCommit(WAIT));
                assertEquals(writes, t.postedOperations(Opcode.WRITE), "a deposed leader posts nothing");
                leader.close();
                counts[0] = leader.fencedWrites();
                counts[1] = leader.committed();
                counts[2] = leader.appended();
            });
            m.awaitMorePolls(100);
            m.stop();
            assertTrue(refusing[0] == 1 || refusing[0] == 2, "the refusing node: " + refusing[0]);
            assertEquals(2, counts[0], "the WRITEs both followers refused, counted");
            assertEquals(entries, counts[1], "entries committed");
            assertEquals(entries + 1, counts[2], "entries appended, the refused one included");
            assertEquals(entries + 1, m.received(0), "the leader's own log holds the refused entry whole");
            for (int k = 0; k < GROUP.size(); k++) {
                assertEquals(values(entries), m.applied(k), "entries applied by node " + GROUP.member(k));
                if (k > 0) {
                    assertEquals(entries, m.received(k), "node " + GROUP.member(k) + " never received the refused entry");
                }
            }
        }
    }

    private static List<Long> values(int n) {
        List<Long> v = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            v.add(NumberedEntries.value(i));
        }
        return v;
    }

    /** Work of the leader's thread. */
    interface LeaderBody {
        void run(ComputeThread t) throws Exception;
    }

    /**
     * One platform thread per member, each with its own compute thread: it creates the member's {@link LogReplica}
     * and applies committed entries until stopped, switching its grant when asked, and publishes what it applied.
     */
    static final class Members implements AutoCloseable {
        private final TestCluster cluster;
        private final ReplicaGroup group;
        private final int slots;
        private final List<List<Long>> applied = new ArrayList<>();
        private final AtomicLongArray appliedCount;
        private final AtomicLongArray receivedCount;
        private final AtomicLongArray polls;
        private final AtomicIntegerArray created;
        private final AtomicIntegerArray grantTo;
        private final AtomicIntegerArray granted;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final List<Thread> threads = new ArrayList<>();

        Members(TestCluster cluster, ReplicaGroup group, int slots) {
            this.cluster = cluster;
            this.group = group;
            this.slots = slots;
            int n = group.size();
            appliedCount = new AtomicLongArray(n);
            receivedCount = new AtomicLongArray(n);
            polls = new AtomicLongArray(n);
            created = new AtomicIntegerArray(n);
            grantTo = new AtomicIntegerArray(n);
            granted = new AtomicIntegerArray(n);
            for (int k = 0; k < n; k++) {
                applied.add(new ArrayList<>());
                grantTo.set(k, -1);
                granted.set(k, -1);
            }
        }

        void start() {
            for (int k = 0; k < group.size(); k++) {
                int member = k;
                int node = group.member(k);
                Thread th = new Thread(() -> {
                    try (ComputeThread t = cluster.thread(node, Plane.REPLICATION)) {
                        List<Long> mine = applied.get(member);
                        LogReplica r = LogReplica.create(cluster.node(node), t, group, NAME, slots, NumberedEntries.MAX_BYTES,
                                (index, e) -> mine.add(NumberedEntries.check(node, index, e, mine.size())));
                        created.set(member, 1);
                        while (!stop.get()) {
                            int g = grantTo.get(member);
                            if (g >= 0) {
                                r.grantWriteTo(g);
                                grantTo.set(member, -1);
                                granted.set(member, g);
                            }
                            int n = r.applyCommitted();
                            receivedCount.set(member, r.received());
                            appliedCount.set(member, r.applied());
                            polls.incrementAndGet(member);
                            if (n == 0) {
                                LockSupport.parkNanos(IDLE_NANOS);
                            }
                        }
                        r.applyCommitted();
                        receivedCount.set(member, r.received());
                        appliedCount.set(member, r.applied());
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "replica@node" + node);
                th.setDaemon(true);
                threads.add(th);
                th.start();
            }
        }

        /** Waits until every member has created its log. */
        void awaitCreated() throws InterruptedException {
            for (int k = 0; k < group.size(); k++) {
                int member = k;
                await(() -> created.get(member) == 1, "node " + group.member(k) + " to create its log");
            }
        }

        /** Waits until every member has applied {@code count} entries. */
        void awaitAppliedByAll(long count) throws InterruptedException {
            for (int k = 0; k < group.size(); k++) {
                int member = k;
                await(() -> appliedCount.get(member) >= count, "node " + group.member(k) + " to apply " + count + " entries");
            }
        }

        /** Asks member {@code k} to grant write access to {@code leader} and waits until it has. */
        void switchGrant(int k, int leader) throws InterruptedException {
            grantTo.set(k, leader);
            await(() -> granted.get(k) == leader, "node " + group.member(k) + " to grant write access to node " + leader);
        }

        /** Waits until every member has looked at its log {@code more} more times. */
        void awaitMorePolls(long more) throws InterruptedException {
            for (int k = 0; k < group.size(); k++) {
                int member = k;
                long target = polls.get(k) + more;
                await(() -> polls.get(member) >= target, "node " + group.member(k) + " to look at its log " + more + " more times");
            }
        }

        /** Runs {@code body} on a new thread with a compute thread of {@code node} and waits for it, rethrowing its failure. */
        void runOn(int node, LeaderBody body) throws InterruptedException {
            AtomicReference<Throwable> ended = new AtomicReference<>();
            Thread th = new Thread(() -> {
                try (ComputeThread t = cluster.thread(node, Plane.REPLICATION)) {
                    body.run(t);
                } catch (Throwable e) {
                    ended.set(e);
                }
            }, "leader@node" + node);
            th.setDaemon(true);
            th.start();
            th.join(WAIT.multipliedBy(3).toMillis());
            if (th.isAlive()) {
                throw new AssertionError("the leader's thread did not finish within " + WAIT.multipliedBy(3));
            }
            if (ended.get() != null) {
                throw new AssertionError("the leader's thread failed", ended.get());
            }
        }

        /** Stops the members' threads and joins them; rethrows a member's failure. */
        void stop() throws InterruptedException {
            stop.set(true);
            for (Thread th : threads) {
                th.join(WAIT.toMillis());
                if (th.isAlive()) {
                    throw new AssertionError(th.getName() + " did not stop within " + WAIT);
                }
            }
            if (failure.get() != null) {
                throw new AssertionError("a member failed", failure.get());
            }
        }

        /** {@return the values member {@code k} applied, in order (read after {@link #stop()})} */
        List<Long> applied(int k) {
            return applied.get(k);
        }

        /** {@return how many entries member {@code k} took whole from its log} */
        long received(int k) {
            return receivedCount.get(k);
        }

        private void await(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (!done.getAsBoolean()) {
                if (failure.get() != null) {
                    throw new AssertionError("a member failed while waiting for " + what, failure.get());
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("waited " + WAIT + " for " + what);
                }
                Thread.sleep(1);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread th : threads) {
                th.join(WAIT.toMillis());
            }
        }
    }
}
