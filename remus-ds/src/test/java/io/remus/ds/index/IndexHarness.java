package io.remus.ds.index;

import io.remus.core.fabric.Plane;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Opcode;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An index on a simulated cluster, run inside a virtual-time run: nodes {@code 0..serverNodes-1} serve the
 * shards (each node a member of one shard's group; member 0 of each group leads, term 1), one thread per node,
 * and nodes from {@code serverNodes} on are clients. Every node has an RPC endpoint on its own fabric node,
 * connected to every other. When the servers stop, each records its final state for the test to compare.
 */
final class IndexHarness implements AutoCloseable {
    static final long SECOND = 1_000_000_000L;
    static final Duration COMMIT = Duration.ofMillis(2);
    static final Duration ATTEMPT = Duration.ofMillis(5);
    static final Duration DEADLINE = Duration.ofSeconds(2);
    /** Every endpoint's retry interval for a lost peer: two of the fail-over tests' transport timeouts. */
    static final Duration RETRY_LOST = Duration.ofMillis(2);

    final TestCluster cluster;
    final IndexShards shards;
    final int serverNodes;
    final int nodes;
    final int slots;
    final RpcEndpoint[] endpoints;
    final IndexShardServer[] servers;
    final String[] state;
    final long[] applied;
    final long[] duplicates;
    final long[] leaderWrites;
    final long[] leaderTrips;
    final long[] appends;
    final long[] fromTable;
    final long[] notLeader;
    final boolean[] leading;
    final AtomicIntegerArray grantTo;
    final AtomicIntegerArray granted;
    final AtomicInteger ready = new AtomicInteger();
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final List<Thread> threads = new ArrayList<>();
    /** How long a client's attempt waits for an answer, for the clients {@link #runClients} makes from now on. */
    volatile Duration attempt = ATTEMPT;

    IndexHarness(SimOptions options, IndexShards shards, int serverNodes, int clientNodes, int slots) {
        this.nodes = serverNodes + clientNodes;
        this.cluster = new TestCluster(SimFabric::new, options, nodes, b -> { });
        this.shards = shards;
        this.serverNodes = serverNodes;
        this.slots = slots;
        this.endpoints = new RpcEndpoint[nodes];
        this.servers = new IndexShardServer[serverNodes];
        this.state = new String[serverNodes];
        this.applied = new long[serverNodes];
        this.duplicates = new long[serverNodes];
        this.leaderWrites = new long[serverNodes];
        this.leaderTrips = new long[serverNodes];
        this.appends = new long[serverNodes];
        this.fromTable = new long[serverNodes];
        this.notLeader = new long[serverNodes];
        this.leading = new boolean[serverNodes];
        this.grantTo = new AtomicIntegerArray(serverNodes);
        this.granted = new AtomicIntegerArray(serverNodes);
        for (int n = 0; n < serverNodes; n++) {
            grantTo.set(n, -1);
            granted.set(n, -1);
        }
        for (int i = 0; i < nodes; i++) {
            endpoints[i] = newEndpoint(i);
        }
        for (RpcEndpoint from : endpoints) {
            for (RpcEndpoint to : endpoints) {
                if (from != to) {
                    from.connect(to.rings(), Duration.ofSeconds(10));
                }
            }
        }
    }

    private RpcEndpoint newEndpoint(int node) {
        RpcEndpoint e = RpcEndpoint.create(cluster.node(node).fabricNode(), nodes, 8);
        e.retryLostPeersAfter(RETRY_LOST);
        e.resolveRingsWith((peer, incarnation, timeout) -> {
            RpcEndpoint now = endpoints[peer];
            return now != null && cluster.node(peer).fabricNode().incarnation() == incarnation ? now.rings() : null;
        });
        return e;
    }

    /**
     * Kills node {@code node}'s process and starts it again with new memory ({@link TestCluster#restart}): a new
     * endpoint, connected to every other node's by node id (its resolver reads the endpoints now open); the others
     * learn its rings at their next probe. The old process's threads must have stopped using it.
     *
     * @return the new endpoint
     */
    RpcEndpoint restart(int node) {
        endpoints[node] = null;
        cluster.restart(node);
        RpcEndpoint e = newEndpoint(node);
        for (int p = 0; p < nodes; p++) {
            if (p != node) {
                e.connect(p, Duration.ofSeconds(10));
            }
        }
        endpoints[node] = e;
        return e;
    }

    /** {@return the shard whose group holds {@code node}} */
    int shardOfNode(int node) {
        for (int s = 0; s < shards.count(); s++) {
            if (shards.group(s).indexOf(node) >= 0) {
                return s;
            }
        }
        throw new AssertionError("node " + node + " serves no shard");
    }

    /** Starts every server's thread and waits until each is created and each leader leads. */
    void startServers() {
        for (int n = 0; n < serverNodes; n++) {
            int node = n;
            int shard = shardOfNode(node);
            ReplicaGroup group = shards.group(shard);
            int leader = group.member(0);
            Thread th = ThreadTime.newThread("server-" + node, () -> {
                try (ComputeThread t = cluster.thread(node, Plane.REPLICATION)) {
                    IndexShardServer server = IndexShardServer.create(cluster.node(node), t, endpoints[node], shards, shard,
                            slots, COMMIT);
                    servers[node] = server;
                    server.grantWriteTo(leader);
                    if (node == leader) {
                        server.lead(1, Duration.ofSeconds(5));
                    }
                    long writes = t.postedOperations(Opcode.WRITE);
                    long trips = t.roundTrips();
                    ready.incrementAndGet();
                    while (!stop.get()) {
                        int g = grantTo.get(node);
                        if (g >= 0) {
                            server.grantWriteTo(g);
                            grantTo.set(node, -1);
                            granted.set(node, g);
                        }
                        server.runOnce(Duration.ofNanos(20_000));
                    }
                    server.runOnce(Duration.ZERO);
                    leaderWrites[node] = t.postedOperations(Opcode.WRITE) - writes;
                    leaderTrips[node] = t.roundTrips() - trips;
                    appends[node] = server.appends();
                    fromTable[node] = server.answeredFromTable();
                    notLeader[node] = server.notLeaderAnswers();
                    leading[node] = server.isLeader();
                    applied[node] = server.replica().applied();
                    duplicates[node] = server.machine().duplicates();
                    state[node] = server.machine().describe();
                    server.close();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            threads.add(th);
            th.start();
        }
        long deadline = ThreadTime.nanoTime() + 10 * SECOND;
        while (ready.get() < serverNodes) {
            if (failure.get() != null) {
                throw new AssertionError("a server failed to start", failure.get());
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError(ready.get() + " of " + serverNodes + " servers started");
            }
            ThreadTime.parkNanos(null, 1_000);
        }
    }

    /** Asks node {@code node}'s server thread to grant write access to {@code leader} and waits until it has. */
    void switchGrant(int node, int leader) {
        grantTo.set(node, leader);
        long deadline = ThreadTime.nanoTime() + 10 * SECOND;
        while (granted.get(node) != leader) {
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new AssertionError("node " + node + " did not switch its grant");
            }
            ThreadTime.parkNanos(null, 500);
        }
    }

    /** Runs {@code body} on one thread per client node, each with a client whose id is its node id + 1000, and waits. */
    void runClients(int clients, ClientBody body) throws InterruptedException {
        List<Thread> mine = new ArrayList<>();
        AtomicReference<Throwable> ended = new AtomicReference<>();
        for (int c = 0; c < clients; c++) {
            int index = c;
            int node = serverNodes + c;
            Thread th = ThreadTime.newThread("client-" + node, () -> {
                try {
                    body.run(index, new RemusIndex(endpoints[node], shards, 1000 + node, attempt));
                } catch (Throwable e) {
                    ended.compareAndSet(null, e);
                }
            });
            mine.add(th);
            th.start();
        }
        for (Thread th : mine) {
            if (!ThreadTime.join(th, 120 * SECOND)) {
                throw new AssertionError(th.getName() + " did not finish");
            }
        }
        if (ended.get() != null) {
            throw new AssertionError("a client failed", ended.get());
        }
    }

    /** Lets servers run {@code nanos} more, stops them and joins them; rethrows a server's failure. */
    void stopServers(long nanos) throws InterruptedException {
        ThreadTime.parkNanos(null, nanos);
        stop.set(true);
        for (Thread th : threads) {
            if (!ThreadTime.join(th, 10 * SECOND)) {
                throw new AssertionError(th.getName() + " did not stop");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a server failed", failure.get());
        }
    }

    @Override
    public void close() {
        for (RpcEndpoint e : endpoints) {
            if (e == null) {
                continue;
            }
            e.close();
        }
        cluster.close();
    }

    /** Work of one client thread. */
    interface ClientBody {
        void run(int clientIndex, RemusIndex index) throws Exception;
    }
}
