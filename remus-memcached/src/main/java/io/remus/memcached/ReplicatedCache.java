package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.RemusCluster;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.NameNotPublishedException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Plane;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import io.remus.ds.replicate.ReplicaGroup;
import io.remus.memcached.ReplicatedCacheShard.Request;
import io.remus.memcached.ReplicatedCacheShard.Status;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A replicated memcached store with one process per node: the shards of {@link ReplicatedCacheEngine}, each a
 * replica group of 3 members whose servers ({@link ReplicatedCacheShard}) live in the members' processes, and a
 * front door per member through which a client on any node hands a command to that member's server.
 *
 * <h2>Layout</h2>
 * On a cluster of {@code n >= 3} nodes, shard {@code s} of {@code S} is replicated on the 3 consecutive nodes
 * {@code s, s+1, s+2} (mod {@code n}; on 3 nodes every shard on every node), its log named
 * {@code remus.memcached.log.<s>} on each, and replicates on plane {@code Plane.REPLICATION + s}
 * ({@link #groupOf}): a node's fail-over logs need a plane each, so a store has at most {@value #MAX_SHARDS}
 * shards. Every member runs on a thread of its own (a daemon) that owns three compute threads of its node (the
 * server's, the leader's on the group's plane, the front door's), serves its front door and polls its server at
 * most every {@link Timing#poll()} while no command comes, so that its failure detector beats and watches.
 *
 * <h2>Front door</h2>
 * Each member's server is the one property of a {@link Trustee} (Trust&lt;T&gt;: Gossamer, UIC 2025) on the
 * member's node, published in the cluster's {@link NameDirectory} (node 0's) as
 * {@code remus.memcached.member.<s>.<node>}. A client sends a command as the bytes of its log entry
 * ({@link ReplicatedItemMachine#encode}: client id, sequence, the command) in one trustee payload; the trustee's
 * payload operation, on the member's thread, submits it to the server and serves it at once
 * ({@link ReplicatedCacheShard#runOnce}), so that the answer (OK with the result, NOT_LEADER naming the leader
 * it knows, RETRY) goes back in the same request's response. A client's handle ({@link #openEngine}) is a
 * {@link ReplicatedCacheEngine} whose {@link ReplicatedCacheEngine.Transport} is one trustee client per member it
 * has called, joined on first use. A member whose process died answers nothing: its trustee's call times out
 * after {@link Timing#attempt()} (a client joining it fails at once or at that deadline too), and the engine
 * moves to the group's next member with the same (client, sequence), so that the command is applied once
 * whichever members saw it (the session table: Schneider, "Implementing fault-tolerant services using the state
 * machine approach: a tutorial", ACM Computing Surveys 22(4), 1990).
 *
 * <h2>Costs per command</h2>
 * From a client on another node than the leader: the trustee request's 2 RDMA WRITEs there and 2 back
 * (1 round trip), and inside it the leader's log replication, Mu's (Aguilera, Ben-David, Guerraoui, Marathe,
 * Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020): the append's 2 WRITEs and
 * 1 round trip, the commit flush's 2 WRITEs and 1 round trip; in all <b>8 WRITEs and 3 round trips</b> when the
 * handle's guess of the leader is right. From the leader's own node the trustee request costs CPU stores only:
 * 4 WRITEs, 2 round trips. A wrong guess adds one trustee round trip (NOT_LEADER names the leader); a dead
 * member adds {@link Timing#attempt()}. A leader change costs what {@link ReplicatedCacheShard} says.
 *
 * <h2>Item size</h2>
 * A request carries {@value ReplicatedItemMachine#HEADER_BYTES} bytes of header, the key (up to
 * {@value MemcachedEngine#MAX_KEY_BYTES} bytes) and the value in one payload of
 * {@link Trustee#MAX_PAYLOAD_BYTES} bytes: values of up to {@value #MAX_ITEM_BYTES} bytes, whatever the key.
 *
 * <h2>Progress</h2>
 * Blocking. {@link #join} ends within its timeout; each command within {@link Timing#deadline()}, with
 * {@link RemoteTimeoutException} when no leader answered (then it is unknown whether it took effect); each
 * attempt within {@link Timing#attempt()}. A shard serves while a majority of its members (2 of 3) is up and one
 * of them leads: one crashed node per group is tolerated, and every command acknowledged before it crashed
 * survives. A member's thread serves its front door's commands one at a time.
 */
public final class ReplicatedCache implements AutoCloseable {
    /** Members of each shard's replica group. */
    public static final int REPLICAS = 3;
    /** The fewest nodes a store runs on: one per member of a group. */
    public static final int MIN_NODES = REPLICAS;
    /** The most shards: one replication plane each, {@code Plane.REPLICATION..Plane.COUNT - 1}. */
    public static final int MAX_SHARDS = Plane.COUNT - Plane.REPLICATION;
    /** The largest value: the trustee's payload less the entry's header and the longest key. */
    public static final int MAX_ITEM_BYTES = Trustee.MAX_PAYLOAD_BYTES - ReplicatedItemMachine.HEADER_BYTES
            - MemcachedEngine.MAX_KEY_BYTES;
    /** Entries of each member's log. */
    public static final int LOG_SLOTS = 128;
    /** The prefix of a member's front door in the cluster's name directory: then the shard, a dot, the node. */
    public static final String MEMBER_NAME_PREFIX = "remus.memcached.member.";
    /** The prefix of a shard's log name on its members, followed by the shard. */
    public static final String LOG_NAME_PREFIX = "remus.memcached.log.";
    /** Bytes of a response before an item's value: status, kind, small value, leader hint, flags, cas or number. */
    static final int RESPONSE_HEADER_BYTES = 24;
    /** The one payload operation the front doors register. */
    static final int COMMAND = 0;
    private static final int KIND_NULL = 0;
    private static final int KIND_ITEM = 1;
    private static final int KIND_STORE = 2;
    private static final int KIND_BOOLEAN = 3;
    private static final int KIND_ARITHMETIC = 4;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int IDLE_PARK_MICROS = 200;

    /**
     * The store's times.
     *
     * @param commit       how long a leader waits for a majority per command
     * @param takeover     how long a takeover may wait, and the pause before a failed one is tried again
     * @param suspectAfter heartbeat READs in a row without change before a member is suspected, at least 1
     * @param poll         the longest time between two polls of an idle member's server
     * @param attempt      how long a client waits for one member's answer: longer than a takeover and three
     *                     commits, so that a live member answers
     * @param deadline     how long one command may take in all, at least {@code attempt}
     */
    public record Timing(Duration commit, Duration takeover, int suspectAfter, Duration poll, Duration attempt,
                         Duration deadline) {
        /**
         * The times of {@link #join(RemusCluster, int, int, LongSupplier, Duration)}: a commit of 500 ms, a
         * takeover of 2 s, 10,000 unchanged heartbeats (at least 1 s at one poll per 100 us), an attempt of 4 s,
         * a deadline of 20 s.
         */
        public static final Timing DEFAULT = new Timing(Duration.ofMillis(500), Duration.ofSeconds(2), 10_000,
                Duration.ofNanos(100_000), Duration.ofSeconds(4), Duration.ofSeconds(20));

        /**
         * Checks the times.
         *
         * @param commit       how long a leader waits for a majority per command
         * @param takeover     how long a takeover may wait
         * @param suspectAfter heartbeat READs without change before a member is suspected
         * @param poll         the longest time between two polls of an idle member's server
         * @param attempt      how long a client waits for one member's answer
         * @param deadline     how long one command may take in all
         * @throws BadArgumentException naming the value, for a time not positive, {@code suspectAfter} below 1 or
         *                              a deadline shorter than the attempt
         */
        public Timing {
            Timeouts.require(commit, "commit");
            Timeouts.require(takeover, "takeover");
            Timeouts.require(poll, "poll");
            Timeouts.require(attempt, "attempt");
            Timeouts.require(deadline, "deadline");
            if (suspectAfter < 1) {
                throw new BadArgumentException("suspectAfter must be at least 1, got " + suspectAfter);
            }
            if (deadline.compareTo(attempt) < 0) {
                throw new BadArgumentException("deadline " + deadline + " must not be shorter than the attempt "
                        + attempt);
            }
        }
    }

    private final RemusCluster cluster;
    private final int shards;
    private final Timing timing;
    private final List<ReplicaGroup> groups;
    /** Each shard's members' front doors, in the order of the group's members. */
    private final long[][] doors;
    private final List<Thread> members = new ArrayList<>();
    private final Map<Integer, ReplicatedCacheShard> servers = new TreeMap<>();
    private final AtomicLong clients = new AtomicLong();
    private volatile boolean stopping;
    private volatile boolean halted;
    private volatile Throwable failure;

    private ReplicatedCache(RemusCluster cluster, int shards, Timing timing) {
        this.cluster = cluster;
        this.shards = shards;
        this.timing = timing;
        this.groups = groups(shards, cluster.size());
        this.doors = new long[shards][REPLICAS];
    }

    /**
     * As {@link #join(RemusCluster, int, int, LongSupplier, Duration, Timing)} with {@link Timing#DEFAULT}.
     *
     * @param cluster    the joined cluster, of at least {@value #MIN_NODES} nodes
     * @param shards     how many shards, 1..{@value #MAX_SHARDS}, the same in every process
     * @param maxClients how many engines of the whole cluster may ever open, 1..{@link Trustee#MAX_CLIENTS}
     * @param clock      the unix time in seconds a leader stamps into each entry
     * @param timeout    how long to wait for this node's members and every other node's, positive
     * @return the store; {@link #openEngine} takes this node's id
     * @throws BadArgumentException   naming the value, as the other overload
     * @throws RemoteTimeoutException naming the nodes whose members did not come up within {@code timeout}
     */
    public static ReplicatedCache join(RemusCluster cluster, int shards, int maxClients, LongSupplier clock,
                                       Duration timeout) {
        return join(cluster, shards, maxClients, clock, timeout, Timing.DEFAULT);
    }

    /**
     * Starts this process's members of a store whose nodes are the processes of {@code cluster}, one call in each
     * of them with the same {@code shards}, {@code maxClients} and {@code timing}: for every shard whose group
     * holds this node, a member thread creates the member's log and server ({@link ReplicatedCacheShard#create},
     * waiting for the group's other logs), its front door (a trustee of {@code maxClients} clients, one slot each,
     * payloads of {@link Trustee#MAX_PAYLOAD_BYTES} bytes) and publishes the door in the cluster's name directory
     * (1 READ and up to 5 compare-and-swaps); then this call waits until every other member's door is published
     * (2 READs each once bound). Blocking; every wait together ends within {@code timeout} of the call. The
     * members start leading by themselves: each group's lowest live member takes its shard over at its first
     * polls.
     *
     * @param cluster    the joined cluster, of at least {@value #MIN_NODES} nodes; this call opens its own compute
     *                   threads on {@link RemusCluster#node()}
     * @param shards     how many shards, 1..{@value #MAX_SHARDS}, the same in every process
     * @param maxClients how many engines of the whole cluster may ever open ({@link #openEngine} takes one client
     *                   place per member it calls, for good), 1..{@link Trustee#MAX_CLIENTS}
     * @param clock      the unix time in seconds a leader stamps into each entry
     * @param timeout    how long to wait for this node's members and every other node's, positive
     * @param timing     the store's times, the same in every process
     * @return the store; {@link #openEngine} takes this node's id
     * @throws BadArgumentException   naming the value, for a cluster of fewer than {@value #MIN_NODES} nodes,
     *                                counts out of range or a timeout not positive, or when the cluster already
     *                                holds a replicated store
     * @throws RemoteTimeoutException naming the nodes whose logs or front doors were not published within
     *                                {@code timeout}
     * @throws IllegalStateException  when a member of this node did not come up for another reason
     */
    public static ReplicatedCache join(RemusCluster cluster, int shards, int maxClients, LongSupplier clock,
                                       Duration timeout, Timing timing) {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(timing, "timing");
        Timeouts.require(timeout, "timeout");
        if (cluster.size() < MIN_NODES) {
            throw new BadArgumentException("a replicated memcached store needs at least " + MIN_NODES
                    + " nodes (one per member of a shard's group), the cluster has " + cluster.size());
        }
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new BadArgumentException("shards must be in 1.." + MAX_SHARDS + " (one replication plane each), got "
                    + shards);
        }
        if (maxClients < 1 || maxClients > Trustee.MAX_CLIENTS) {
            throw new BadArgumentException("maxClients must be in 1.." + Trustee.MAX_CLIENTS + ", got " + maxClients);
        }
        long start = ThreadTime.nanoTime();
        ReplicatedCache cache = new ReplicatedCache(cluster, shards, timing);
        try {
            cache.startMembers(maxClients, clock, timeout, start);
            try (ComputeThread thread = cluster.node().newComputeThread()) {
                cache.awaitDoors(NameDirectory.open(thread), timeout, start);
            }
        } catch (RuntimeException e) {
            cache.close();
            throw e;
        }
        return cache;
    }

    /**
     * {@return the replica groups of a store of {@code shards} shards on {@code nodes} nodes: shard {@code s} on
     * nodes {@code s, s+1, s+2} mod {@code nodes}, ascending, on plane {@code Plane.REPLICATION + s}}
     *
     * @param shards the shards, 1..{@value #MAX_SHARDS}
     * @param nodes  the cluster's nodes, at least {@value #MIN_NODES}
     * @throws BadArgumentException naming the value, for counts out of range
     */
    public static List<ReplicaGroup> groups(int shards, int nodes) {
        if (nodes < MIN_NODES) {
            throw new BadArgumentException("a replicated memcached store needs at least " + MIN_NODES
                    + " nodes, got " + nodes);
        }
        if (shards < 1 || shards > MAX_SHARDS) {
            throw new BadArgumentException("shards must be in 1.." + MAX_SHARDS + ", got " + shards);
        }
        List<ReplicaGroup> out = new ArrayList<>(shards);
        for (int s = 0; s < shards; s++) {
            out.add(groupOf(s, nodes));
        }
        return List.copyOf(out);
    }

    /**
     * {@return shard {@code s}'s group: nodes {@code s, s+1, s+2} mod {@code nodes}, ascending, on plane
     * {@code Plane.REPLICATION + s}}
     *
     * @param s     the shard, 0..{@value #MAX_SHARDS} - 1
     * @param nodes the cluster's nodes, at least {@value #MIN_NODES}
     * @throws BadArgumentException naming the value, for a shard or node count out of range
     */
    public static ReplicaGroup groupOf(int s, int nodes) {
        if (s < 0 || s >= MAX_SHARDS) {
            throw new BadArgumentException("shard must be in 0.." + (MAX_SHARDS - 1) + ", got " + s);
        }
        if (nodes < MIN_NODES) {
            throw new BadArgumentException("a replicated memcached store needs at least " + MIN_NODES
                    + " nodes, got " + nodes);
        }
        int[] m = new int[REPLICAS];
        for (int k = 0; k < REPLICAS; k++) {
            m[k] = (s + k) % nodes;
        }
        Arrays.sort(m);
        return ReplicaGroup.of(m).onPlane(Plane.REPLICATION + s);
    }

    /** {@return the name of shard {@code s}'s front door on {@code node} in the cluster's name directory} */
    static String memberName(int s, int node) {
        return MEMBER_NAME_PREFIX + s + "." + node;
    }

    /** {@return how many shards} */
    public int shards() {
        return shards;
    }

    /** {@return the largest value stored, {@value #MAX_ITEM_BYTES} bytes} */
    public int maxItemBytes() {
        return MAX_ITEM_BYTES;
    }

    /** {@return each shard's replica group, shard 0 first} */
    public List<ReplicaGroup> groups() {
        return groups;
    }

    /** {@return the store's times} */
    public Timing timing() {
        return timing;
    }

    /**
     * {@return how many shards this node's members lead now}: a racy count, for a status line or a test.
     */
    public int leading() {
        int n = 0;
        synchronized (servers) {
            for (ReplicatedCacheShard s : servers.values()) {
                if (s.knownLeader() == s.nodeId()) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Opens a handle for the calling thread, which alone may use it: a compute thread on this node and a client
     * of each member's front door it calls, joined when it first calls it. Its client id is unique in the store
     * (this node's id and a count). No RDMA operation until its first command.
     *
     * @param node this process's cluster node id
     * @return the handle, a {@link ReplicatedCacheEngine}
     * @throws BadArgumentException naming the node, when it is not this process's, or when the store is closed
     */
    public MemcachedEngine openEngine(int node) {
        if (node != cluster.nodeId()) {
            throw new BadArgumentException("node must be this process's, " + cluster.nodeId() + ", got " + node);
        }
        if (stopping) {
            throw new BadArgumentException("the replicated memcached store of node " + node + " is closed");
        }
        long client = ((long) (node + 1) << 32) | clients.incrementAndGet();
        return new ReplicatedCacheEngine(groups, new DoorTransport(), client, MAX_ITEM_BYTES, timing.attempt(),
                timing.deadline());
    }

    /** {@return each of this node's members as it stands: its shard's log, the leader it knows, its takeovers} */
    String describe() {
        StringBuilder b = new StringBuilder();
        synchronized (servers) {
            for (Map.Entry<Integer, ReplicatedCacheShard> e : servers.entrySet()) {
                ReplicatedCacheShard s = e.getValue();
                b.append("node ").append(s.nodeId()).append(" shard ").append(e.getKey()).append(": leader ")
                        .append(s.knownLeader()).append(", takeovers ").append(s.takeovers()).append(", failed ")
                        .append(s.failedTakeovers()).append(", last failure ").append(s.lastTakeoverFailure())
                        .append('\n');
            }
        }
        return b.toString();
    }

    /** {@return the first failure of a member thread of this node after it came up, or null} */
    public Throwable failure() {
        return failure;
    }

    /**
     * Stops this node's member threads where they are, closing nothing, as this process's death would: its
     * front doors stop answering and its agents stop beating. For tests that crash a node in one JVM.
     */
    void halt() {
        halted = true;
        stopping = true;
        joinMembers();
    }

    /**
     * Stops the member threads (waiting up to 10 seconds for each), which close their front doors (pending and
     * later commands to them fail at once and their clients move on), their servers and their compute threads.
     * Idempotent.
     */
    @Override
    public void close() {
        stopping = true;
        joinMembers();
    }

    private void joinMembers() {
        for (Thread t : members) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void startMembers(int maxClients, LongSupplier clock, Duration timeout, long start) {
        int self = cluster.nodeId();
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            if (groups.get(s).indexOf(self) < 0) {
                continue;
            }
            CompletableFuture<Void> up = new CompletableFuture<>();
            ready.add(up);
            int shard = s;
            Thread t = Thread.ofPlatform().daemon().name("remus-memcached-member-" + s + "-node-" + self)
                    .unstarted(() -> runMember(shard, maxClients, clock, timeout, start, up));
            members.add(t);
            t.start();
        }
        long end = start + timeout.toNanos();
        try {
            for (CompletableFuture<Void> up : ready) {
                up.get(Math.max(0, end - ThreadTime.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RemusException r) {
                throw r;
            }
            throw new IllegalStateException("node " + self + ": a member of the replicated memcached store did not "
                    + "start: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new RemoteTimeoutException("node " + self + ": its members of the replicated memcached store did "
                    + "not come up within " + timeout + " (every process of the cluster joins with the same shards)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the replicated memcached store started", e);
        }
    }

    /** Finds every other member's front door, naming the nodes whose doors were not published in time. */
    private void awaitDoors(NameDirectory names, Duration timeout, long start) {
        for (int s = 0; s < shards; s++) {
            ReplicaGroup g = groups.get(s);
            for (int k = 0; k < g.size(); k++) {
                if (doors[s][k] != RemotePtr.NULL) {
                    continue;
                }
                try {
                    long left = timeout.toNanos() - (ThreadTime.nanoTime() - start);
                    doors[s][k] = names.await(memberName(s, g.member(k)), Duration.ofNanos(Math.max(0, left)));
                } catch (NameNotPublishedException e) {
                    TreeSet<Integer> missing = new TreeSet<>();
                    for (int m = 0; m < shards; m++) {
                        for (int j = 0; j < groups.get(m).size(); j++) {
                            int node = groups.get(m).member(j);
                            if (doors[m][j] == RemotePtr.NULL && names.lookup(memberName(m, node)) == RemotePtr.NULL) {
                                missing.add(node);
                            }
                        }
                    }
                    RemoteTimeoutException named = new RemoteTimeoutException("node " + cluster.nodeId()
                            + ": node(s) " + missing + " of " + cluster.size() + " did not publish their members of"
                            + " the replicated memcached store within " + timeout
                            + " (every process of the cluster joins the store with the same shards)");
                    named.initCause(e);
                    throw named;
                }
            }
        }
    }

    /** One member's thread: creates the server and the front door, then serves until the store stops. */
    private void runMember(int s, int maxClients, LongSupplier clock, Duration timeout, long start,
                           CompletableFuture<Void> up) {
        ReplicaGroup group = groups.get(s);
        int self = cluster.nodeId();
        ComputeThread serverThread = null;
        ComputeThread leaderThread = null;
        ComputeThread doorThread = null;
        ReplicatedCacheShard server = null;
        Trustee<ReplicatedCacheShard> door = null;
        try {
            try {
                serverThread = cluster.node().newComputeThread();
                leaderThread = cluster.node().newComputeThread(group.plane());
                doorThread = cluster.node().newComputeThread();
                Duration left = Duration.ofNanos(Math.max(1, timeout.toNanos() - (ThreadTime.nanoTime() - start)));
                server = ReplicatedCacheShard.create(cluster.node(), serverThread, leaderThread, group,
                        LOG_NAME_PREFIX + s, s, shards, LOG_SLOTS, MAX_ITEM_BYTES, clock, timing.suspectAfter(),
                        timing.commit(), timing.takeover(), left);
                door = Trustee.create(doorThread, maxClients, 1, Trustee.MAX_PAYLOAD_BYTES);
                door.register(COMMAND, ReplicatedCache::serve);
                door.entrust(server);
                long ptr = door.ptr();
                long bound = NameDirectory.open(doorThread).publish(memberName(s, self), ptr);
                if (bound != ptr) {
                    throw new BadArgumentException("node " + self + ": " + memberName(s, self) + " is already "
                            + "published in this cluster's name directory: a cluster holds one replicated memcached"
                            + " store");
                }
                doors[s][group.indexOf(self)] = ptr;
                synchronized (servers) {
                    servers.put(s, server);
                }
            } catch (RuntimeException | Error e) {
                up.completeExceptionally(e);
                return;
            }
            up.complete(null);
            serve(server, door);
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            if (!halted) {
                if (door != null) {
                    door.close();
                }
                if (server != null) {
                    server.close();
                }
                for (ComputeThread t : new ComputeThread[] {doorThread, leaderThread, serverThread}) {
                    if (t != null) {
                        t.close();
                    }
                }
            }
        }
    }

    /** Serves the front door, spinning while commands come, and polls the server at least every poll time. */
    private void serve(ReplicatedCacheShard server, Trustee<ReplicatedCacheShard> door) {
        long pollNanos = timing.poll().toNanos();
        long lastPoll = ThreadTime.nanoTime() - pollNanos;
        int idle = 0;
        while (!stopping) {
            int served = door.serveOnce();
            long now = ThreadTime.nanoTime();
            if (served > 0) {
                idle = 0;
                lastPoll = now;
                continue;
            }
            if (now - lastPoll >= pollNanos) {
                server.runOnce();
                lastPoll = now;
            }
            if (++idle > 1000) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(Math.min(IDLE_PARK_MICROS, idle - 1000)));
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * The front door's payload operation, on the member's thread: the request is a log entry's bytes (its time
     * field unused); the server serves it at once and the answer goes back as the response.
     */
    static int serve(ReplicatedCacheShard server, MemorySegment request, MemorySegment response) {
        ReplicatedItemMachine.Command command = ReplicatedItemMachine.decode(request);
        if (command == null || request.get(LONG, 8) <= 0) {
            return answer(response, Status.RETRY, -1, null);
        }
        Request r = new Request(request.get(LONG, 0), request.get(LONG, 8), command);
        server.submit(r);
        server.runOnce();
        if (!r.isDone()) {
            return answer(response, Status.RETRY, -1, null);
        }
        return answer(response, r.status(), r.leaderHint(), r.result());
    }

    private static int answer(MemorySegment response, Status status, int hint, Object result) {
        response.set(ValueLayout.JAVA_BYTE, 0, (byte) status.ordinal());
        response.set(INT, 4, hint);
        int kind;
        int small = 0;
        int length = RESPONSE_HEADER_BYTES;
        switch (result) {
            case null -> kind = KIND_NULL;
            case Item item -> {
                kind = KIND_ITEM;
                response.set(INT, 8, item.flags());
                response.set(LONG, 16, item.cas());
                MemorySegment.copy(item.value(), 0, response, ValueLayout.JAVA_BYTE, RESPONSE_HEADER_BYTES,
                        item.value().length);
                length += item.value().length;
            }
            case StoreResult r -> {
                kind = KIND_STORE;
                small = r.ordinal();
            }
            case Boolean b -> {
                kind = KIND_BOOLEAN;
                small = b ? 1 : 0;
            }
            case ArithmeticResult a -> {
                kind = KIND_ARITHMETIC;
                small = a.status().ordinal();
                response.set(LONG, 16, a.value());
            }
            default -> throw new IllegalStateException("unknown result " + result);
        }
        response.set(ValueLayout.JAVA_BYTE, 1, (byte) kind);
        response.set(ValueLayout.JAVA_BYTE, 2, (byte) small);
        return length;
    }

    /** Completes {@code r} with the answer in {@code response}. */
    private static void complete(Request r, MemorySegment response, int length) {
        Status status = Status.values()[response.get(ValueLayout.JAVA_BYTE, 0)];
        int hint = response.get(INT, 4);
        int small = response.get(ValueLayout.JAVA_BYTE, 2);
        Object result = switch (response.get(ValueLayout.JAVA_BYTE, 1)) {
            case KIND_ITEM -> new Item(response.asSlice(RESPONSE_HEADER_BYTES, length - RESPONSE_HEADER_BYTES)
                    .toArray(ValueLayout.JAVA_BYTE), response.get(INT, 8), response.get(LONG, 16));
            case KIND_STORE -> StoreResult.values()[small];
            case KIND_BOOLEAN -> small == 1;
            case KIND_ARITHMETIC -> new ArithmeticResult(ArithmeticResult.Status.values()[small],
                    response.get(LONG, 16));
            default -> null;
        };
        r.complete(status, result, hint);
    }

    /**
     * One handle's way to the members: a compute thread of this node and a trustee client per member called,
     * joined on first use; confined to the handle's thread.
     */
    private final class DoorTransport implements ReplicatedCacheEngine.Transport, AutoCloseable {
        private final ComputeThread thread = cluster.node().newComputeThread();
        private final TrusteeClient[][] clients = new TrusteeClient[shards][REPLICAS];
        private final List<List<Trust<ReplicatedCacheShard>>> trusts = new ArrayList<>();
        private final MemorySegment response = MemorySegment.ofArray(new byte[Trustee.MAX_PAYLOAD_BYTES]);

        DoorTransport() {
            for (int s = 0; s < shards; s++) {
                List<Trust<ReplicatedCacheShard>> row = new ArrayList<>(REPLICAS);
                for (int k = 0; k < REPLICAS; k++) {
                    row.add(null);
                }
                trusts.add(row);
            }
        }

        @Override
        public boolean send(int shard, int node, Request request, long attemptEndNanos) {
            int k = groups.get(shard).indexOf(node);
            byte[] entry = ReplicatedItemMachine.encode(request.client, request.sequence, 0, request.command);
            if (entry.length > Trustee.MAX_PAYLOAD_BYTES) {
                throw new BadArgumentException("a command of " + entry.length + " bytes is over the "
                        + Trustee.MAX_PAYLOAD_BYTES + "-byte payload (values up to " + MAX_ITEM_BYTES + " bytes)");
            }
            try {
                Trust<ReplicatedCacheShard> trust = trusts.get(shard).get(k);
                if (trust == null) {
                    TrusteeClient c = TrusteeClient.connect(thread, doors[shard][k]);
                    clients[shard][k] = c;
                    trust = c.trust(0);
                    trusts.get(shard).set(k, trust);
                }
                long left = attemptEndNanos - ThreadTime.nanoTime();
                if (left <= 0) {
                    return false;
                }
                int n = trust.apply(COMMAND, MemorySegment.ofArray(entry), response, Duration.ofNanos(left));
                complete(request, response, n);
                return true;
            } catch (BadArgumentException e) {
                throw e;
            } catch (RemusException unreachable) {
                return false;
            }
        }

        @Override
        public void close() {
            for (TrusteeClient[] row : clients) {
                for (TrusteeClient c : row) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
            thread.close();
        }
    }
}
