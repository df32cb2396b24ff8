package io.remus.ds.replicate;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.RemusCluster;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.NodeRange;
import io.remus.core.error.RemusException;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static io.remus.ds.testing.ChildMain.progress;
import static io.remus.ds.testing.ChildMain.watch;

/**
 * A child JVM of {@link ReplicatedLogKilledFollowerOnVerbsTest}: node {@code nodeId} of three processes on one
 * device, every one a memory and a compute node and a member of the replica group {0, 1, 2}. Each creates its
 * {@link LogReplica} (log {@value #NAME}, {@value #SLOTS} slots of entries up to {@link NumberedEntries#MAX_BYTES}
 * bytes) on a thread of its own that applies committed entries, checking each ({@link NumberedEntries#check}), and
 * appends each applied entry's value to the file {@code applied-<nodeId>} (eight native-order bytes a value, one
 * write each, so what a killed process applied stays in the file).
 *
 * <p>Node {@value #LEADER} also opens the {@link LogLeader} on another thread and appends entry after entry
 * ({@link NumberedEntries#entry}), pausing {@value #PAUSE_MILLIS} ms between appends, until the file {@code killed}
 * appears (at most {@value #BEFORE_CAP} appends before it, then it waits); then it appends {@value #AFTER} more
 * without pause, flushes the commit count ({@link LogLeader#flushCommit}), writes the count to the file
 * {@code leader-done}, closes the leader and prints a {@code LEADER} line of {@code key=value} pairs. The log never
 * wraps ({@value #BEFORE_CAP} + {@value #AFTER} entries fit its {@value #SLOTS} slots), so a follower is detached
 * only when its WRITEs fail or its window of unacknowledged WRITEs fills, never for an applier the guest scheduled
 * late.
 *
 * <p>Node {@value #VICTIM} creates the file {@code ready} once it has applied {@value #READY_APPLIED} entries and
 * applies until the test kills it. Node {@value #SURVIVOR}, and the leader's own member, apply until they have
 * applied the count in {@code leader-done}, then print a {@code FOLLOWER} line. Leaving fails (the dead node never
 * announces its shutdown); the failure is printed as a {@code CLOSE} line and expected. Arguments:
 * {@code fabric nodeId size basePort directory}.
 */
public final class ReplicatedLogKilledFollowerMain {
    /** The log's name in every member's directory. */
    static final String NAME = "killed-follower-log";
    /** The leader's node. */
    static final int LEADER = 0;
    /** The follower that lives. */
    static final int SURVIVOR = 1;
    /** The follower the test kills. */
    static final int VICTIM = 2;
    /** The log's slots: more than every entry the leader appends. */
    static final int SLOTS = 2048;
    /** Entries the victim applies before it creates {@code ready}. */
    static final int READY_APPLIED = 20;
    /** The most entries the leader appends before the kill. */
    static final int BEFORE_CAP = 1500;
    /** Entries the leader appends after the kill. */
    static final int AFTER = 200;
    /** The leader's pause between appends before the kill. */
    static final long PAUSE_MILLIS = 2;
    /** Each append's and flush's timeout. */
    static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);
    /** The longest a process runs its threads. */
    static final Duration RUN_BOUND = Duration.ofMinutes(10);
    private static final Duration CONNECT = Duration.ofMinutes(4);
    private static final Duration SHUTDOWN = Duration.ofSeconds(15);
    private static final long POLL_MILLIS = 20;

    private ReplicatedLogKilledFollowerMain() {
    }

    /** @param args fabric ({@link ProcessFabric#parse}), node id, size, base port, directory */
    public static void main(String[] args) throws Exception {
        ProcessFabric fabric = ProcessFabric.parse(args[0]);
        int nodeId = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        int basePort = Integer.parseInt(args[3]);
        Path dir = Path.of(args[4]);
        progress("joining node=" + nodeId);
        ClusterConfig config = ClusterProcess.builder(nodeId, fabric.hosts(size), basePort)
                .memoryNodes(new NodeRange(0, size - 1)).segmentSize(1 << 20).threadsPerNode(4).opsInFlightPerThread(64)
                .operationTimeout(Duration.ofSeconds(60)).build();
        RemusCluster cluster = fabric.builder(config, CONNECT).shutdownTimeout(SHUTDOWN).join();
        progress("joined node=" + nodeId);
        ReplicaGroup group = ReplicaGroup.of(0, 1, 2);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicLong target = new AtomicLong(-1);
        try {
            List<Thread> threads = new ArrayList<>();
            threads.add(thread("replica@node" + nodeId, failures,
                    () -> lines.add(applyUntilDone(cluster, group, nodeId, dir, target))));
            if (nodeId == LEADER) {
                threads.add(thread("leader@node" + nodeId, failures, () -> lines.add(lead(cluster, group, dir, target))));
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
     * {@return a daemon thread named {@code name} that runs {@code work}; what it throws is printed and added to
     *          {@code failures}}
     */
    static Thread thread(String name, List<Throwable> failures, Work work) {
        Thread t = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable e) {
                failures.add(e);
                synchronized (System.out) {
                    e.printStackTrace(System.out);
                    System.out.flush();
                }
            }
        }, name);
        t.setDaemon(true);
        return t;
    }

    /**
     * The member's applier: creates its replica, applies, and records each value; the victim creates {@code ready}
     * and applies until killed, the others until they applied the leader's final commit count.
     */
    private static String applyUntilDone(RemusCluster cluster, ReplicaGroup group, int nodeId, Path dir, AtomicLong target)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION);
             FileChannel out = FileChannel.open(dir.resolve("applied-" + nodeId), StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.WRITE)) {
            LogReplica r = LogReplica.create(cluster.node(), t, group, NAME, SLOTS, NumberedEntries.MAX_BYTES,
                    recording(nodeId, out));
            progress("replica created node=" + nodeId);
            boolean ready = false;
            long wanted = -1;
            while (wanted < 0 || r.applied() < wanted) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("node " + nodeId + " applied " + r.applied() + " entries (wanted " + wanted
                            + ") within " + RUN_BOUND);
                }
                int n = r.applyCommitted();
                if (nodeId == VICTIM && !ready && r.applied() >= READY_APPLIED) {
                    Files.createFile(dir.resolve("ready"));
                    ready = true;
                    progress("ready applied=" + r.applied());
                }
                if (wanted < 0 && nodeId != VICTIM) {
                    wanted = nodeId == LEADER ? target.get() : doneCount(dir);
                }
                if (n == 0) {
                    Thread.sleep(0, 100_000);
                }
            }
            return "FOLLOWER node=" + nodeId + " applied=" + r.applied() + " received=" + r.received() + " commitSeen="
                    + r.commitSeen() + " incompleteSlots=" + r.incompleteSlots();
        }
    }

    /** The count in {@code leader-done}, or -1 while there is none. */
    static long doneCount(Path dir) throws IOException {
        Path done = dir.resolve("leader-done");
        return Files.exists(done) ? Long.parseLong(Files.readString(done).strip()) : -1;
    }

    /** The leader: appends until the kill and {@value #AFTER} entries after it, flushes the commit count, reports. */
    private static String lead(RemusCluster cluster, ReplicaGroup group, Path dir, AtomicLong target)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + RUN_BOUND.toNanos();
        try (ComputeThread t = cluster.node().newComputeThread(Plane.REPLICATION)) {
            LogLeader leader = LogLeader.open(t, group, NAME, 1, CONNECT);
            progress("leader opened");
            Path killed = dir.resolve("killed");
            long appendedAtKill = -1;
            long index = 0;
            while (appendedAtKill < 0 || index < appendedAtKill + AFTER) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("the leader appended " + index + " entries and saw no kill within " + RUN_BOUND);
                }
                if (appendedAtKill < 0 && Files.exists(killed)) {
                    appendedAtKill = index;
                    progress("kill seen appended=" + index);
                }
                if (appendedAtKill < 0 && index >= BEFORE_CAP) {
                    Thread.sleep(POLL_MILLIS);
                    continue;
                }
                long at = leader.append(NumberedEntries.entry(index), CALL_TIMEOUT);
                if (at != index) {
                    throw new AssertionError("append " + index + " returned index " + at);
                }
                index++;
                if (appendedAtKill < 0) {
                    Thread.sleep(PAUSE_MILLIS);
                }
            }
            long committed = leader.flushCommit(CALL_TIMEOUT);
            target.set(committed);
            Path tmp = dir.resolve("leader-done.tmp");
            Files.writeString(tmp, Long.toString(committed));
            Files.move(tmp, dir.resolve("leader-done"), StandardCopyOption.ATOMIC_MOVE);
            progress("committed=" + committed);
            leader.close();
            return "LEADER appended=" + leader.appended() + " committed=" + committed + " appendedAtKill=" + appendedAtKill
                    + " survivorAttached=" + leader.isAttached(SURVIVOR) + " victimAttached=" + leader.isAttached(VICTIM)
                    + " detachedDown=" + leader.detachedDown() + " detachedLagging=" + leader.detachedLagging()
                    + " fencedWrites=" + leader.fencedWrites();
        }
    }

    /**
     * {@return a state machine that checks each entry ({@link NumberedEntries#check}) and appends its value to
     *          {@code out}, eight native-order bytes in one write, so what a killed process applied stays there}
     */
    static StateMachine recording(int nodeId, FileChannel out) {
        ByteBuffer word = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        long[] count = new long[1];
        return (index, e) -> {
            long v = NumberedEntries.check(nodeId, index, e, count[0]);
            word.clear().putLong(0, v);
            try {
                while (word.hasRemaining()) {
                    out.write(word);
                }
            } catch (IOException io) {
                throw new UncheckedIOException(io);
            }
            count[0]++;
        };
    }

    /** {@return the values in a member's {@code applied-<nodeId>} file, in order; a torn last value is left out} */
    static List<Long> applied(Path dir, int nodeId) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("applied-" + nodeId))).order(ByteOrder.nativeOrder());
        List<Long> values = new ArrayList<>();
        while (b.remaining() >= 8) {
            values.add(b.getLong());
        }
        return values;
    }

    /** A thread's work. */
    @FunctionalInterface
    interface Work {
        void run() throws Exception;
    }
}
