package io.remus.ds.replicate;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.testing.ClusterProcess;
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
 * A child JVM of {@link ReplicatedLogKilledLeaderOnVerbsTest}: node {@code nodeId} of three processes on one device,
 * every one a memory and a compute node and a member of the replica group {0, 1, 2}. Each creates its
 * {@link LogReplica} (log {@value #NAME}, {@value #SLOTS} slots) and its {@link ReplicaAgent} on a thread of its own
 * that polls the agent (at most once per {@value #AGENT_PAUSE_MILLIS} ms) and applies committed entries, checking
 * each ({@link NumberedEntries#check}) and appending its value to the file {@code applied-<nodeId>}
 * ({@link ReplicatedLogKilledFollowerMain#recording}).
 *
 * <p>Node {@value #OLD_LEADER}, elected first (the lowest node), takes the group over ({@link LogLeader#takeOver}, on
 * empty logs) on another thread and appends entry after entry ({@link NumberedEntries#entry}), pausing
 * {@value #PAUSE_MILLIS} ms between appends and printing a line {@code COMMITTED <index>} as each append returns
 * (a majority holds it); after {@value #READY_COMMITTED} it creates the file {@code ready}; after
 * {@value #BEFORE_CAP} it waits. The test kills it with {@code SIGKILL}, while it appends, and then creates the file
 * {@code killed}.
 *
 * <p>Node {@value #NEW_LEADER}'s second thread waits for {@code killed} and for its own agent to elect it (the
 * survivors' agents suspect node {@value #OLD_LEADER}), takes the group over (recovering from itself and node
 * {@value #FOLLOWER}), reattaches node {@value #FOLLOWER} ({@link LogLeader#reattach}; true at once when the
 * takeover attached it), appends {@value #AFTER} more entries, numbered on from the recovered log's end, flushes the
 * commit count, writes it to the file {@code leader-done}, and prints a {@code LEADER} line of {@code key=value}
 * pairs. Nodes {@value #NEW_LEADER} and {@value #FOLLOWER} apply until they applied that count and print a
 * {@code MEMBER} line. The log never wraps ({@value #BEFORE_CAP} + {@value #AFTER} entries fit its {@value #SLOTS}
 * slots). Leaving fails (the dead node never announces its shutdown); the failure is printed as a {@code CLOSE}
 * line and expected. Arguments: {@code fabric nodeId size basePort directory}.
 *
 * <p><b>Suspicion.</b> A member's agent suspects another after {@value #SUSPECT_AFTER} of its heartbeat READs in
 * a row saw the same heartbeat, or at once when a READ fails. A member posts at most one READ of each other member
 * per poll, and polls at most every {@value #AGENT_PAUSE_MILLIS} ms (a sleep, on a guest as on a host), so
 * suspicion by count needs the suspect's heartbeat to stand still for at least {@value #SUSPECT_AFTER} x
 * {@value #AGENT_PAUSE_MILLIS} ms = 20 s of wall-clock time; a live leader's agent thread polls every
 * {@value #AGENT_PAUSE_MILLIS} ms plus a few microseconds of work (at most a few milliseconds in a guest 100 times
 * slower), so only a stall of 20 s (a guest descheduling the process that long) would make it suspected. On the
 * shared-memory fabric the killed leader's memory stays, so its READs succeed and suspicion by count is what
 * detects it (about 20 s after the kill); on verbs its READs fail and it is suspected at the first failure. A
 * false suspicion before the kill would be harmless anyway: node {@value #NEW_LEADER} asks for the group only
 * after {@code killed} appears, and an agent switches its grant only when the node it elects asks.
 */
public final class ReplicatedLogKilledLeaderMain {
    /** The log's name in every member's directory. */
    static final String NAME = "killed-leader-log";
    /** The first leader, which the test kills. */
    static final int OLD_LEADER = 0;
    /** The leader the survivors elect after the kill. */
    static final int NEW_LEADER = 1;
    /** The other survivor. */
    static final int FOLLOWER = 2;
    /** The log's slots: more than every entry the leaders append. */
    static final int SLOTS = 2048;
    /** Entries the first leader commits before it creates {@code ready}. */
    static final int READY_COMMITTED = 20;
    /** The most entries the first leader appends. */
    static final int BEFORE_CAP = 1500;
    /** Entries the new leader appends after its takeover. */
    static final int AFTER = 200;
    /** The first leader's pause between appends. */
    static final long PAUSE_MILLIS = 2;
    /** The least time between two polls of a member's agent. */
    static final long AGENT_PAUSE_MILLIS = 2;
    /** Heartbeat READs in a row without change before an agent suspects a member (see the class comment). */
    static final int SUSPECT_AFTER = 10_000;
    /** Each append's and flush's timeout. */
    static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);
    /** Each takeover's timeout: for the promises of a majority, and for the recovered entries to commit. */
    static final Duration TAKEOVER_TIMEOUT = Duration.ofMinutes(5);
    /** The longest a process runs its threads. */
    static final Duration RUN_BOUND = Duration.ofMinutes(14);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final long POLL_MILLIS = 20;

    private ReplicatedLogKilledLeaderMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        ClusterConfig config = config(nodeId, fabric.hosts(size), basePort);
        run(nodeId, dir, fabric.builder(config, CONNECT));
    }

    /**
     * @param nodeId   this process's node
     * @param hosts    every node's host ({@link ClusterProcess#builder})
     * @param basePort node 0's port
     * @return the configuration every process of this run joins with: 1 MiB segments, 60 s operation timeout
     */
    static ClusterConfig config(int nodeId, List<String> hosts, int basePort) {
        int size = hosts.size();
        return ClusterProcess.builder(nodeId, hosts, basePort)
                .memoryNodes(new NodeRange(0, size - 1)).segmentSize(1 << 20).threadsPerNode(4).opsInFlightPerThread(64)
                .operationTimeout(Duration.ofSeconds(60)).build();
    }

    /**
     * Joins with {@code builder} and plays node {@code nodeId}'s part (the class comment), with its files in
     * {@code dir}; prints the node's report lines and ends the process.
     */
    static void run(int nodeId, Path dir, RemusCluster.Builder builder) throws Exception {
        progress("joining node=" + nodeId);
        RemusCluster cluster = builder.shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId);
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch opened = new CountDownLatch(1);
        AtomicInteger elected = new AtomicInteger(-1);
        try {
            List<Thread> threads = new ArrayList<>();
            threads.add(thread("member@node" + nodeId, failures,
                    () -> lines.add(member(cluster, group, nodeId, dir, opened, elected))));
            if (nodeId == OLD_LEADER) {
                threads.add(thread("leader@node" + nodeId, failures,
                        () -> leadUntilKilled(cluster, group, dir, opened)));
            } else if (nodeId == NEW_LEADER) {
                threads.add(thread("leader@node" + nodeId, failures,
                        () -> lines.add(takeOver(cluster, group, dir, opened, elected))));
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

    /**
     * The member: creates its replica and agent, then polls the agent and applies; the first leader's member until
     * the kill, the survivors until they applied the new leader's final commit count.
     */
    private static String member(RemusCluster cluster, ReplicaGroup group, int nodeId, Path dir, CountDownLatch opened,
                                 AtomicInteger elected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION);
             FileChannel out = FileChannel.open(dir.resolve("applied-" + nodeId), StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.WRITE)) {
            LogReplica r = LogReplica.create(cluster.node(), t, group, NAME, SLOTS, NumberedEntries.MAX_BYTES,
                    recording(nodeId, out));
            try (ReplicaAgent agent = ReplicaAgent.open(r, NAME, SUSPECT_AFTER, CONNECT)) {
                progress("member opened node=" + nodeId);
                elected.set(agent.poll());
                opened.countDown();
                long nextPoll = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(AGENT_PAUSE_MILLIS);
                long wanted = -1;
                while (wanted < 0 || r.applied() < wanted) {
                    long now = System.nanoTime();
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
                    if (wanted < 0 && nodeId != OLD_LEADER) {
                        wanted = doneCount(dir);
                    }
                    if (n == 0) {
                        Thread.sleep(0, 100_000);
                    }
                }
                return "MEMBER node=" + nodeId + " applied=" + r.applied() + " elected=" + agent.leader()
                        + " suspectsOld=" + agent.isSuspected(OLD_LEADER) + " promised=" + r.promised() + " grantedTo="
                        + r.grantedTo() + " grantSwitches=" + agent.grantSwitches() + " polls=" + agent.polls()
                        + " reads=" + agent.reads() + " failedReads=" + agent.failedReads() + " incompleteSlots="
                        + r.incompleteSlots();
            }
        }
    }

    /** The first leader: takes over the empty logs and appends, one {@code COMMITTED} line each, until killed. */
    private static void leadUntilKilled(RemusCluster cluster, ReplicaGroup group, Path dir, CountDownLatch opened)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        awaitLatch(opened);
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION)) {
            LogLeader leader = LogLeader.takeOver(t, group, NAME, TAKEOVER_TIMEOUT);
            progress("first leader term=" + leader.term() + " appended=" + leader.appended());
            long index = 0;
            while (true) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("the first leader appended " + index + " entries and was not killed within "
                            + RUN_BOUND);
                }
                if (index >= BEFORE_CAP) {
                    Thread.sleep(POLL_MILLIS);
                    continue;
                }
                long at = leader.append(NumberedEntries.entry(index), CALL_TIMEOUT);
                if (at != index) {
                    throw new AssertionError("append " + index + " returned index " + at);
                }
                synchronized (System.out) {
                    System.out.println("COMMITTED " + index);
                    System.out.flush();
                }
                index++;
                if (index == READY_COMMITTED) {
                    Files.createFile(dir.resolve("ready"));
                }
                Thread.sleep(PAUSE_MILLIS);
            }
        }
    }

    /**
     * The new leader: after the kill and its own election, takes over, reattaches the follower, appends
     * {@value #AFTER} entries, flushes the commit count and reports.
     */
    private static String takeOver(RemusCluster cluster, ReplicaGroup group, Path dir, CountDownLatch opened,
                                   AtomicInteger elected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION)) {
            awaitLatch(opened);
            ChildMain.awaitFile(dir.resolve("killed"), RUN_BOUND);
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
            boolean reattached = leader.reattach(FOLLOWER, CALL_TIMEOUT);
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
                    + " committed=" + committed + " oldAttached=" + leader.isAttached(OLD_LEADER) + " followerAttached="
                    + leader.isAttached(FOLLOWER) + " fencedWrites=" + leader.fencedWrites() + " deposed="
                    + leader.isDeposed();
            leader.close();
            return report;
        }
    }

    private static void awaitLatch(CountDownLatch latch) throws InterruptedException {
        if (!latch.await(CONNECT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the member's replica and agent were not opened within " + CONNECT);
        }
    }
}
