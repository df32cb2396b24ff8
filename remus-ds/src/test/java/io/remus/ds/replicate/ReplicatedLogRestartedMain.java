package io.remus.ds.replicate;

import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Plane;
import io.remus.core.testing.ProcessFabric;
import io.remus.ds.testing.ChildMain;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.doneCount;
import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.recording;
import static io.remus.ds.replicate.ReplicatedLogKilledFollowerMain.thread;
import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link ReplicatedLogRestartedOnVerbsTest}: node {@code nodeId} of three processes on one device,
 * every one a memory and a compute node and a member of the replica group {0, 1, 2}, in its first life or, for node
 * {@value #RESTARTED}, in its second: a new process with the same node id and new memory. Each member runs its
 * {@link LogReplica} (log {@value #NAME}, {@value #SLOTS} slots) and its {@link ReplicaAgent} on a thread of its own
 * that polls the agent (at most once per {@value #AGENT_PAUSE_MILLIS} ms) and applies committed entries, checking
 * each ({@link NumberedEntries#check}) and appending its value to a file ({@link ReplicatedLogKilledFollowerMain#recording}):
 * {@code applied-<nodeId>} in a first life, {@value #REJOINED_APPLIED} in node {@value #RESTARTED}'s second.
 *
 * <p><b>First leader.</b> Node {@value #OLD_LEADER}, elected first (the lowest node), takes the group over
 * ({@link LogLeader#takeOver}, on empty logs) on another thread and appends entry after entry
 * ({@link NumberedEntries#entry}), pausing {@value #PAUSE_MILLIS} ms between appends and printing a line
 * {@code COMMITTED <index>} as each append returns (a majority holds it). After {@value #BEFORE_CAP} appends it stops
 * appending and flushes the commit count ({@link LogLeader#flushCommit}) every {@value #POLL_MILLIS} ms, so that a
 * follower applies the last entries and a WRITE still reaches every attached follower. At most once per
 * {@value #POLL_MILLIS} ms it calls {@link LogLeader#reattach} for each detached follower: a takeover attaches only the
 * members whose grant it waited for, and a member that starts late grants late. It leaves node {@value #RESTARTED}
 * alone from the file {@value #KILLING} (the test creates it just before the kill) until the file
 * {@value #REJOIN_MADE} exists, while the node is dead: on verbs a READ of a dead node waits for the transport. The
 * first reattach of node {@value #RESTARTED} after {@value #REJOIN_MADE} that returns true (the new log, found by name
 * once a WRITE or READ found its node restarted, caught up and its recovering bit cleared) prints a {@code REATTACHED}
 * line of {@code key=value} pairs, flushes the commit count and writes the count of entries appended so far (every one
 * committed: each append returned) to the file {@value #REATTACHED}. The test kills it with {@code SIGKILL}.
 *
 * <p><b>Restarted member.</b> Node {@value #RESTARTED}'s first life creates the file {@value #READY} once it has
 * applied {@value #READY_APPLIED} entries, and applies until the test kills it. Its second life joins the cluster
 * again, makes its log anew ({@link LogReplica#rejoin}: learns the promised term from the two others, marks the log
 * recovering), opens its agent (which grants the elected leader that term once), creates {@value #REJOIN_MADE}, and
 * applies; once its log is no longer {@linkplain LogReplica#recovering() recovering} and it has applied the count in
 * {@value #REATTACHED}, it writes its applied count to the file {@value #REJOINED}.
 *
 * <p><b>Second leader.</b> Node {@value #NEW_LEADER}'s second thread waits for the file {@value #KILLED} and for its
 * own agent to elect it (the survivors' agents suspect node {@value #OLD_LEADER}), takes the group over (recovering
 * from itself and node {@value #RESTARTED}, whose log is a source again), reattaches node {@value #RESTARTED} (true at
 * once when the takeover attached it), appends {@value #AFTER} more entries numbered on from the recovered log's end,
 * flushes the commit count, writes it to the file {@code leader-done} and prints a {@code LEADER} line. Nodes
 * {@value #NEW_LEADER} and {@value #RESTARTED} (second life) apply until they applied that count and print a
 * {@code MEMBER} line. The log never wraps ({@value #BEFORE_CAP} + {@value #AFTER} entries fit its {@value #SLOTS}
 * slots), so a restarted member is caught up from the leader's log, never from a snapshot. Leaving fails (the dead
 * node never announces its shutdown); the failure is printed as a {@code CLOSE} line and expected.
 *
 * <p>Arguments: {@code fabric nodeId size basePort directory suspectAfter life}, {@code life} {@value #FIRST} or
 * {@value #REJOIN}. Suspicion as in {@link ReplicatedLogKilledLeaderMain}: after {@code suspectAfter} of an agent's
 * heartbeat READs in a row saw the same heartbeat, or at once when a READ fails; a false suspicion before the kill is
 * harmless, since node {@value #NEW_LEADER} asks for the group only after {@value #KILLED} appears, and an agent
 * switches its grant only when the node it elects asks.
 */
public final class ReplicatedLogRestartedMain {
    /** The log's name in every member's directory. */
    static final String NAME = "restarted-member-log";
    /** The first leader, which the test kills last. */
    static final int OLD_LEADER = 0;
    /** The leader the survivors elect after the first leader's kill. */
    static final int NEW_LEADER = 1;
    /** The member the test kills and starts again with new memory. */
    static final int RESTARTED = 2;
    /** A process's first life. */
    static final String FIRST = "first";
    /** Node {@value #RESTARTED}'s second life: {@link LogReplica#rejoin}. */
    static final String REJOIN = "rejoin";
    /** The log's slots: more than every entry the leaders append. */
    static final int SLOTS = 4096;
    /** Entries node {@value #RESTARTED} applies in its first life before it creates {@value #READY}. */
    static final int READY_APPLIED = 20;
    /** The most entries the first leader appends. */
    static final int BEFORE_CAP = 3800;
    /** Entries the new leader appends after its takeover. */
    static final int AFTER = 200;
    /** The first leader's pause between appends. */
    static final long PAUSE_MILLIS = 2;
    /** The least time between two polls of a member's agent. */
    static final long AGENT_PAUSE_MILLIS = 2;
    /** The file node {@value #RESTARTED} creates in its first life once it applied {@value #READY_APPLIED} entries. */
    static final String READY = "ready";
    /** The file the test creates just before it kills node {@value #RESTARTED}'s first life. */
    static final String KILLING = "killing";
    /** The file node {@value #RESTARTED}'s second life creates once its log is made and its agent opened. */
    static final String REJOIN_MADE = "rejoin-made";
    /** The file the first leader writes its appended count to once it caught node {@value #RESTARTED} up. */
    static final String REATTACHED = "reattached";
    /** The file node {@value #RESTARTED}'s second life writes its applied count to once it caught up. */
    static final String REJOINED = "rejoined";
    /** The file the test creates once it killed the first leader. */
    static final String KILLED = "killed";
    /** Node {@value #RESTARTED}'s second life's file of applied values. */
    static final String REJOINED_APPLIED = "applied-2-rejoined";
    /** Each append's, reattach's and flush's timeout. */
    static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);
    /** Each takeover's timeout, and the rejoin's for the others' promised terms. */
    static final Duration TAKEOVER_TIMEOUT = Duration.ofMinutes(5);
    /** The longest a process runs its threads. */
    static final Duration RUN_BOUND = Duration.ofMinutes(14);
    /** The time between two looks of a waiting thread. */
    static final long POLL_MILLIS = 20;
    /** The time between two of a member's {@code state} progress lines. */
    static final long STATE_MILLIS = 2000;
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration SHUTDOWN = Duration.ofSeconds(5);

    private ReplicatedLogRestartedMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory, suspectAfter, life */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        int suspectAfter = Integer.parseInt(args[5]);
        boolean rejoin = args[6].equals(REJOIN);
        if (rejoin && nodeId != RESTARTED) {
            throw new IllegalArgumentException("only node " + RESTARTED + " rejoins, not node " + nodeId);
        }
        ClusterConfig config = ReplicatedLogKilledLeaderMain.config(nodeId, fabric.hosts(size), basePort);
        progress("joining node=" + nodeId + " life=" + args[6]);
        RemusCluster cluster = fabric.builder(config, CONNECT).shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId + " incarnation=" + Long.toHexString(cluster.node().fabricNode().incarnation()));
        Roles roles = new Roles(cluster, ReplicaGroup.of(0, 1, 2), nodeId, rejoin, dir, suspectAfter);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Thread> threads = new ArrayList<>();
            threads.add(thread("member@node" + nodeId, failures, () -> lines.add(roles.member())));
            if (nodeId == OLD_LEADER) {
                threads.add(thread("leader@node" + nodeId, failures, roles::leadUntilKilled));
            } else if (nodeId == NEW_LEADER) {
                threads.add(thread("leader@node" + nodeId, failures, () -> lines.add(roles.takeOver())));
            }
            threads.forEach(Thread::start);
            watch(threads, new AtomicLongArray(0), failures, RUN_BOUND, RUN_BOUND);
        } finally {
            try {
                cluster.close();
            } catch (RemusException e) {
                lines.add("CLOSE " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        lines.forEach(System.out::println);
        System.out.flush();
        System.exit(0);
    }

    /** A process's parts, sharing its member's state with its leader thread. */
    private static final class Roles {
        private final RemusCluster cluster;
        private final ReplicaGroup group;
        private final int nodeId;
        private final boolean rejoin;
        private final Path dir;
        private final int suspectAfter;
        private final CountDownLatch opened = new CountDownLatch(1);
        private final AtomicInteger elected = new AtomicInteger(-1);

        Roles(RemusCluster cluster, ReplicaGroup group, int nodeId, boolean rejoin, Path dir, int suspectAfter) {
            this.cluster = cluster;
            this.group = group;
            this.nodeId = nodeId;
            this.rejoin = rejoin;
            this.dir = dir;
            this.suspectAfter = suspectAfter;
        }

        /**
         * The member: creates (or, rejoining, makes anew) its replica and opens its agent, then polls the agent and
         * applies; a first life of node {@value #OLD_LEADER} or {@value #RESTARTED} until killed, the others until
         * they applied the new leader's final commit count.
         */
        String member() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            Path file = dir.resolve(rejoin ? REJOINED_APPLIED : "applied-" + nodeId);
            try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION);
                 FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                StateMachine machine = recording(nodeId, out);
                LogReplica r = rejoin
                        ? LogReplica.rejoin(cluster.node(), t, group, NAME, SLOTS, NumberedEntries.MAX_BYTES, 0, machine,
                                TAKEOVER_TIMEOUT)
                        : LogReplica.create(cluster.node(), t, group, NAME, SLOTS, NumberedEntries.MAX_BYTES, machine);
                if (rejoin) {
                    progress("rejoined promised=" + r.promised() + " recovering=" + r.recovering());
                }
                try (ReplicaAgent agent = ReplicaAgent.open(r, NAME, suspectAfter, CONNECT)) {
                    progress("member opened node=" + nodeId);
                    elected.set(agent.poll());
                    opened.countDown();
                    if (rejoin) {
                        Files.createFile(dir.resolve(REJOIN_MADE));
                    }
                    boolean ready = false;
                    boolean caughtUp = false;
                    long wasRecovering = r.recovering() ? 1 : 0;
                    long nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AGENT_PAUSE_MILLIS);
                    long wanted = -1;
                    long nextState = System.nanoTime();
                    while (wanted < 0 || r.applied() < wanted) {
                        long now = System.nanoTime();
                        if (now - nextState >= 0) {
                            progress("state node=" + nodeId + " applied=" + r.applied() + " received=" + r.received()
                                    + " commitSeen=" + r.commitSeen() + " incompleteSlots=" + r.incompleteSlots()
                                    + " recovering=" + r.recovering() + " elected=" + agent.leader() + " grantedTo="
                                    + r.grantedTo() + " promised=" + r.promised());
                            nextState = now + TimeUnit.MILLISECONDS.toNanos(STATE_MILLIS);
                        }
                        if (now - deadline > 0) {
                            throw new AssertionError("node " + nodeId + " applied " + r.applied() + " entries (wanted "
                                    + wanted + ") within " + RUN_BOUND);
                        }
                        if (now - nextPoll >= 0) {
                            int leader = agent.poll();
                            if (elected.getAndSet(leader) != leader) {
                                progress("node " + nodeId + " elects node " + leader);
                            }
                            nextPoll = now + TimeUnit.MILLISECONDS.toNanos(AGENT_PAUSE_MILLIS);
                        }
                        int n = r.applyCommitted();
                        if (nodeId == RESTARTED && !rejoin && !ready && r.applied() >= READY_APPLIED) {
                            Files.createFile(dir.resolve(READY));
                            ready = true;
                            progress("ready applied=" + r.applied());
                        }
                        if (rejoin && !caughtUp && !r.recovering()) {
                            long reattachedAt = count(dir.resolve(REATTACHED));
                            if (reattachedAt >= 0 && r.applied() >= reattachedAt) {
                                write(dir.resolve(REJOINED), r.applied());
                                caughtUp = true;
                                progress("caught up applied=" + r.applied() + " reattachedAt=" + reattachedAt);
                            }
                        }
                        if (wanted < 0 && (nodeId == NEW_LEADER || rejoin)) {
                            wanted = doneCount(dir);
                        }
                        if (n == 0) {
                            Thread.sleep(0, 100_000);
                        }
                    }
                    return "MEMBER node=" + nodeId + " life=" + (rejoin ? REJOIN : FIRST) + " applied=" + r.applied()
                            + " recovering=" + r.recovering() + " wasRecovering=" + wasRecovering + " elected="
                            + agent.leader() + " suspectsOld=" + agent.isSuspected(OLD_LEADER) + " promised="
                            + r.promised() + " grantedTo=" + r.grantedTo() + " grantSwitches=" + agent.grantSwitches()
                            + " lookups=" + agent.lookups() + " polls=" + agent.polls() + " failedReads="
                            + agent.failedReads() + " incompleteSlots=" + r.incompleteSlots();
                }
            }
        }

        /**
         * The first leader: takes over the empty logs and appends, one {@code COMMITTED} line each, reattaching node
         * {@value #RESTARTED} once its second life made its log, until killed.
         */
        void leadUntilKilled() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            awaitOpened();
            try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION)) {
                LogLeader leader = LogLeader.takeOver(t, group, NAME, TAKEOVER_TIMEOUT);
                progress("first leader term=" + leader.term() + " appended=" + leader.appended());
                Path made = dir.resolve(REJOIN_MADE);
                Path killing = dir.resolve(KILLING);
                boolean reattached = false;
                int tries = 0;
                long nextTry = System.nanoTime();
                long index = 0;
                while (true) {
                    long now = System.nanoTime();
                    if (now - deadline > 0) {
                        throw new AssertionError("the first leader appended " + index + " entries and was not killed "
                                + "within " + RUN_BOUND);
                    }
                    if (now - nextTry >= 0) {
                        nextTry = now + TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS);
                        if (!leader.isAttached(NEW_LEADER)) {
                            leader.reattach(NEW_LEADER, CALL_TIMEOUT);
                        }
                        boolean dead = Files.exists(killing) && !Files.exists(made);
                        if (!leader.isAttached(RESTARTED) && !dead) {
                            boolean second = Files.exists(made);
                            tries += second ? 1 : 0;
                            if (leader.reattach(RESTARTED, CALL_TIMEOUT) && second && !reattached) {
                                reattached = true;
                                report("REATTACHED tries=" + tries + " appended=" + leader.appended() + " committed="
                                        + leader.committed() + " recoveriesCleared=" + leader.recoveriesCleared()
                                        + " logsLookedUpAgain=" + leader.logsLookedUpAgain() + " catchUpWrites="
                                        + leader.catchUpWrites() + " detachedDown=" + leader.detachedDown()
                                        + " detachedLagging=" + leader.detachedLagging() + " fencedWrites="
                                        + leader.fencedWrites());
                                leader.flushCommit(CALL_TIMEOUT);
                                write(dir.resolve(REATTACHED), leader.appended());
                            }
                        }
                    }
                    if (index >= BEFORE_CAP) {
                        leader.flushCommit(CALL_TIMEOUT);
                        Thread.sleep(POLL_MILLIS);
                        continue;
                    }
                    long at = leader.append(NumberedEntries.entry(index), CALL_TIMEOUT);
                    if (at != index) {
                        throw new AssertionError("append " + index + " returned index " + at);
                    }
                    report("COMMITTED " + index);
                    index++;
                    if (index == BEFORE_CAP) {
                        progress("appended the cap of " + BEFORE_CAP);
                    }
                    Thread.sleep(PAUSE_MILLIS);
                }
            }
        }

        /**
         * The new leader: after the first leader's kill and its own election, takes over, reattaches node
         * {@value #RESTARTED}, appends {@value #AFTER} entries, flushes the commit count and reports.
         */
        String takeOver() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + RUN_BOUND.toNanos();
            try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION)) {
                awaitOpened();
                ChildMain.awaitFile(dir.resolve(KILLED), RUN_BOUND);
                progress("kill seen");
                while (elected.get() != NEW_LEADER) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("node " + NEW_LEADER + "'s agent elected node " + elected.get() + " for "
                                + RUN_BOUND);
                    }
                    Thread.sleep(POLL_MILLIS);
                }
                LogLeader leader = LogLeader.takeOver(t, group, NAME, TAKEOVER_TIMEOUT);
                long recovered = leader.appended();
                progress("took over term=" + leader.term() + " recovered=" + recovered);
                boolean reattached = leader.reattach(RESTARTED, CALL_TIMEOUT);
                for (long index = recovered; index < recovered + AFTER; index++) {
                    long at = leader.append(NumberedEntries.entry(index), CALL_TIMEOUT);
                    if (at != index) {
                        throw new AssertionError("append " + index + " returned index " + at);
                    }
                }
                long committed = leader.flushCommit(CALL_TIMEOUT);
                Path tmp = dir.resolve("leader-done.tmp");
                Files.writeString(tmp, Long.toString(committed));
                Files.move(tmp, dir.resolve("leader-done"), StandardCopyOption.ATOMIC_MOVE);
                progress("committed=" + committed);
                String report = "LEADER term=" + leader.term() + " recovered=" + recovered + " rewriteWrites="
                        + leader.rewriteWrites() + " reattached=" + reattached + " appended=" + leader.appended()
                        + " committed=" + committed + " oldAttached=" + leader.isAttached(OLD_LEADER)
                        + " restartedAttached=" + leader.isAttached(RESTARTED) + " recoveriesCleared="
                        + leader.recoveriesCleared() + " fencedWrites=" + leader.fencedWrites() + " deposed="
                        + leader.isDeposed();
                leader.close();
                return report;
            }
        }

        private void awaitOpened() throws InterruptedException {
            if (!opened.await(CONNECT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the member's replica and agent were not opened within " + CONNECT);
            }
        }
    }

    /** Prints {@code line} at once, so that it is in the output of a process killed right after. */
    private static void report(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** Writes {@code value} to {@code file} whole: to a temporary file first, then moved over it. */
    private static void write(Path file, long value) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, Long.toString(value));
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    /** {@return the count in {@code file}, or -1 while there is none} */
    static long count(Path file) throws IOException {
        return Files.exists(file) ? Long.parseLong(Files.readString(file).strip()) : -1;
    }
}
