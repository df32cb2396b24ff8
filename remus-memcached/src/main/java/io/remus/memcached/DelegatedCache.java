package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.RemusCluster;
import io.remus.core.RemusNode;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.NameNotPublishedException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;
import io.remus.ds.index.IndexShards;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A memcached store by delegation: keys hash to shards, each shard's {@link ItemTable} is the property of one
 * {@link Trustee} on one node of the cluster (shard {@code s} on node {@code s mod nodes}), and every memcached
 * command runs there, on the trustee's thread, as one payload operation: atomic with respect to every other
 * command on the shard, from any node. This is the memcached port of Trust&lt;T&gt; (Gossamer: "Trust&lt;T&gt;:
 * delegation as a programming abstraction", UIC 2025), whose trustees own a memcached's shards the same way.
 *
 * <p>Each node has one serving thread (started here, a daemon) that owns its node's trustees and serves them in
 * turn, spinning while requests come and parking up to {@value #IDLE_PARK_MICROS} microseconds between passes
 * once they stop. {@link #openEngine} gives a thread its handle: a compute thread on the chosen node and one
 * {@link TrusteeClient} per shard.
 *
 * <h2>One process per node</h2>
 * {@link #join} builds the store on a {@link RemusCluster}, one call in every process: each process creates the
 * trustees of its node's shards, publishes each one's pointer in the cluster's {@link NameDirectory} under
 * {@code remus.memcached.shard.<s>}, and waits, up to the timeout it is given, until every other node published
 * its shards; a node that did not is named in the {@link RemoteTimeoutException}. The cluster's name directory
 * holds one store: a second {@link #join} on the same cluster is refused.
 *
 * <h2>Item size</h2>
 * A request carries {@value #REQUEST_HEADER_BYTES} bytes of header, the key (up to
 * {@value MemcachedEngine#MAX_KEY_BYTES} bytes) and the value in one trustee payload of at most
 * {@link Trustee#MAX_PAYLOAD_BYTES} bytes, so the largest value is {@value #MAX_ITEM_BYTES} bytes whatever the
 * key's length; a server answers larger ones with {@code SERVER_ERROR object too large for cache}.
 *
 * <h2>Costs</h2>
 * Every command is one trustee request: from a node other than the shard's, 2 RDMA WRITEs there and 2 back,
 * 1 round trip; from the shard's node, CPU stores only. Blocking, with a deadline of {@link #TIMEOUT} per command.
 */
public final class DelegatedCache implements AutoCloseable {
    /** Bytes of a request before its key: op, mode, key length, flags, expiration, cas or delta. */
    public static final int REQUEST_HEADER_BYTES = 24;
    /** Bytes of a response before its value: status, flags, cas. */
    static final int RESPONSE_HEADER_BYTES = 16;
    /** The largest value this store keeps: the trustee's payload less the header and the longest key. */
    public static final int MAX_ITEM_BYTES = Trustee.MAX_PAYLOAD_BYTES - REQUEST_HEADER_BYTES
            - MemcachedEngine.MAX_KEY_BYTES;
    /** How long one command may wait for its trustee. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The longest park of an idle serving thread between passes, in microseconds. */
    public static final int IDLE_PARK_MICROS = 200;

    static final int OP_GET = 1;
    static final int OP_STORE = 2;
    static final int OP_DELETE = 3;
    static final int OP_INCR = 4;
    static final int OP_DECR = 5;
    static final int OP_TOUCH = 6;
    static final int OP_FLUSH = 7;
    /** The one payload operation id the trustees register. */
    static final int COMMAND = 0;
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The prefix of a shard's name in the cluster's name directory, followed by the shard's number. */
    public static final String SHARD_NAME_PREFIX = "remus.memcached.shard.";

    /** The nodes this process hosts, in the order of {@link #nodeIds}. */
    private final List<RemusNode> nodes;
    /** The cluster node id of each of {@link #nodes}. */
    private final int[] nodeIds;
    /** How many nodes the cluster has: shard {@code s} lives on node {@code s mod clusterSize}. */
    private final int clusterSize;
    private final int shards;
    private final long[] trustees;
    private final List<Thread> servers = new ArrayList<>();
    private volatile boolean stopping;

    private DelegatedCache(List<RemusNode> nodes, int[] nodeIds, int clusterSize, int shards) {
        this.nodes = nodes;
        this.nodeIds = nodeIds;
        this.clusterSize = clusterSize;
        this.shards = shards;
        this.trustees = new long[shards];
    }

    /**
     * Starts the store: one serving thread per node, which creates the trustees of its node's shards.
     * Blocking until every trustee is up (at most 30 seconds).
     *
     * @param nodes      the cluster's nodes, each with memory; shard {@code s} lives on {@code nodes.get(s % size)}
     * @param shards     how many shards, 1..{@code 1024}
     * @param maxClients how many engines may ever open ({@link #openEngine} takes one place per trustee for good),
     *                   1..{@link Trustee#MAX_CLIENTS}
     * @param clock      the unix time in seconds that expiration follows
     * @return the store
     * @throws BadArgumentException naming the value, for counts out of range or no nodes
     * @throws IllegalStateException when a trustee did not come up
     */
    public static DelegatedCache start(List<RemusNode> nodes, int shards, int maxClients, LongSupplier clock) {
        Objects.requireNonNull(clock, "clock");
        if (nodes == null || nodes.isEmpty()) {
            throw new BadArgumentException("nodes must name at least one node, got " + nodes);
        }
        checkCounts(shards, maxClients);
        int[] ids = new int[nodes.size()];
        for (int n = 0; n < ids.length; n++) {
            ids[n] = n;
        }
        DelegatedCache cache = new DelegatedCache(List.copyOf(nodes), ids, nodes.size(), shards);
        cache.startServing(maxClients, clock, null, Duration.ofSeconds(30));
        return cache;
    }

    /**
     * Starts this process's part of a store whose nodes are the processes of {@code cluster}, one call in each
     * of them with the same {@code shards} and {@code maxClients}: creates the trustees of this node's shards
     * (shard {@code s} on node {@code s mod cluster.size()}) on one serving thread (a daemon), publishes their
     * pointers in the cluster's {@link NameDirectory} (node 0's memory; per shard the directory's
     * {@link NameDirectory#publish}: 1 READ and up to 5 compare-and-swaps), and waits until every other node's
     * shards are published (per shard {@link NameDirectory#await}: 2 READs once bound). Blocking; every wait
     * together ends within {@code timeout} of the call.
     *
     * @param cluster    the joined cluster; this call opens its own compute threads on {@link RemusCluster#node()}
     * @param shards     how many shards, 1..{@code 1024}, the same in every process
     * @param maxClients how many engines of the whole cluster may ever open ({@link #openEngine} takes one place
     *                   per trustee for good), 1..{@link Trustee#MAX_CLIENTS}
     * @param clock      the unix time in seconds that expiration follows
     * @param timeout    how long to wait for this node's trustees and every other node's, positive
     * @return the store; {@link #openEngine} takes this node's id
     * @throws BadArgumentException   naming the value, for counts out of range or a timeout not positive, or when
     *                                the cluster's name directory already holds a store's shard
     * @throws RemoteTimeoutException naming the nodes whose shards were not published within {@code timeout}
     * @throws IllegalStateException  when a trustee of this node did not come up
     */
    public static DelegatedCache join(RemusCluster cluster, int shards, int maxClients, LongSupplier clock,
                                      Duration timeout) {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(timeout, "timeout");
        checkCounts(shards, maxClients);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new BadArgumentException("timeout must be positive, got " + timeout);
        }
        long start = ThreadTime.nanoTime();
        DelegatedCache cache = new DelegatedCache(List.of(cluster.node()), new int[] {cluster.nodeId()},
                cluster.size(), shards);
        cache.startServing(maxClients, clock, cluster, timeout);
        try (ComputeThread thread = cluster.node().newComputeThread()) {
            cache.awaitShards(NameDirectory.open(thread), timeout.toNanos() - (ThreadTime.nanoTime() - start), timeout);
        } catch (RuntimeException e) {
            cache.close();
            throw e;
        }
        return cache;
    }

    private static void checkCounts(int shards, int maxClients) {
        if (shards < 1 || shards > 1024) {
            throw new BadArgumentException("shards must be in 1..1024, got " + shards);
        }
        if (maxClients < 1 || maxClients > Trustee.MAX_CLIENTS) {
            throw new BadArgumentException("maxClients must be in 1.." + Trustee.MAX_CLIENTS + ", got " + maxClients);
        }
    }

    /**
     * Starts one serving thread per hosted node and waits until each has created (and, on a cluster, published)
     * its trustees.
     */
    private void startServing(int maxClients, LongSupplier clock, RemusCluster cluster, Duration timeout) {
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (int n = 0; n < nodes.size(); n++) {
            CompletableFuture<Void> up = new CompletableFuture<>();
            ready.add(up);
            int index = n;
            Thread t = Thread.ofPlatform().daemon().name("remus-memcached-trustees-node-" + nodeIds[n])
                    .unstarted(() -> serve(index, maxClients, clock, cluster != null, up));
            servers.add(t);
            t.start();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            for (CompletableFuture<Void> up : ready) {
                up.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            close();
            if (e.getCause() instanceof BadArgumentException bad) {
                throw bad;
            }
            throw new IllegalStateException("a trustee of the memcached store did not start: " + e.getCause(), e);
        } catch (TimeoutException e) {
            close();
            throw new IllegalStateException("a trustee of the memcached store did not start within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while the memcached store started", e);
        }
    }

    /** Finds every other node's shards in the name directory, naming the nodes that did not publish in time. */
    private void awaitShards(NameDirectory names, long leftNanos, Duration timeout) {
        long start = ThreadTime.nanoTime();
        for (int s = 0; s < shards; s++) {
            if (trustees[s] != RemotePtr.NULL) {
                continue;
            }
            try {
                long left = leftNanos - (ThreadTime.nanoTime() - start);
                trustees[s] = names.await(shardName(s), Duration.ofNanos(Math.max(0, left)));
            } catch (NameNotPublishedException e) {
                TreeSet<Integer> missing = new TreeSet<>();
                for (int m = s; m < shards; m++) {
                    if (trustees[m] == RemotePtr.NULL && names.lookup(shardName(m)) == RemotePtr.NULL) {
                        missing.add(m % clusterSize);
                    }
                }
                RemoteTimeoutException named = new RemoteTimeoutException("node " + nodeIds[0] + ": node(s) " + missing
                        + " of " + clusterSize + " did not publish their memcached shards within " + timeout
                        + " (every process of the cluster joins the store with the same shards)");
                named.initCause(e);
                throw named;
            }
        }
    }

    /** {@return the name under which shard {@code s}'s trustee is published in a cluster's name directory} */
    static String shardName(int s) {
        return SHARD_NAME_PREFIX + s;
    }

    /** {@return how many shards} */
    public int shards() {
        return shards;
    }

    /** {@return the largest value stored, {@value #MAX_ITEM_BYTES} bytes} */
    public int maxItemBytes() {
        return MAX_ITEM_BYTES;
    }

    /**
     * The shard of a key: FNV-1a-64 of its bytes, modulo the shards ({@link IndexShards#shardOf(byte[], int)}).
     *
     * @param key the key
     * @return its shard
     */
    public int shardOf(byte[] key) {
        return IndexShards.shardOf(key, shards);
    }

    /**
     * Opens a handle for the calling thread, which alone may use it: a compute thread on {@code node} and a
     * client of every shard's trustee (one client place each, for good).
     *
     * @param node a node of this process: the index of the node in the list {@link #start} was given, or the
     *             cluster's node id of this process after {@link #join}
     * @return the handle
     * @throws BadArgumentException naming the node, when this process does not host it
     */
    public MemcachedEngine openEngine(int node) {
        int index = -1;
        for (int n = 0; n < nodeIds.length; n++) {
            if (nodeIds[n] == node) {
                index = n;
            }
        }
        if (index < 0) {
            throw new BadArgumentException("node must be one this process hosts, " + Arrays.toString(nodeIds)
                    + ", got " + node);
        }
        ComputeThread thread = nodes.get(index).newComputeThread();
        List<Trust<ItemTable>> shardTrusts = new ArrayList<>(shards);
        for (int s = 0; s < shards; s++) {
            shardTrusts.add(TrusteeClient.connect(thread, trustees[s]).trust(0));
        }
        return new DelegatedEngine(this, thread, shardTrusts);
    }

    private void serve(int index, int maxClients, LongSupplier clock, boolean publish, CompletableFuture<Void> up) {
        List<Trustee<ItemTable>> mine = new ArrayList<>();
        try (ComputeThread thread = nodes.get(index).newComputeThread()) {
            try {
                for (int s = nodeIds[index]; s < shards; s += clusterSize) {
                    Trustee<ItemTable> trustee = Trustee.create(thread, maxClients, 1, Trustee.MAX_PAYLOAD_BYTES);
                    mine.add(trustee);
                    trustee.register(COMMAND, DelegatedCache::run);
                    trustee.entrust(new ItemTable(clock, MAX_ITEM_BYTES, s, shards));
                    trustees[s] = trustee.ptr();
                }
                if (publish) {
                    NameDirectory names = NameDirectory.open(thread);
                    for (int s = nodeIds[index]; s < shards; s += clusterSize) {
                        long bound = names.publish(shardName(s), trustees[s]);
                        if (bound != trustees[s]) {
                            throw new BadArgumentException("node " + nodeIds[index] + ": " + shardName(s)
                                    + " is already published in this cluster's name directory: a cluster holds one"
                                    + " memcached store");
                        }
                    }
                }
            } catch (RuntimeException | Error e) {
                for (Trustee<ItemTable> t : mine) {
                    t.close();
                }
                up.completeExceptionally(e);
                return;
            }
            up.complete(null);
            int idle = 0;
            while (!stopping) {
                int served = 0;
                for (Trustee<ItemTable> t : mine) {
                    served += t.serveOnce();
                }
                if (served > 0) {
                    idle = 0;
                } else if (++idle > 1000) {
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(Math.min(IDLE_PARK_MICROS, idle - 1000)));
                } else {
                    Thread.onSpinWait();
                }
            }
            for (Trustee<ItemTable> t : mine) {
                t.close();
            }
        }
    }

    /** Runs one encoded command on a shard's table, at its trustee. */
    static int run(ItemTable table, MemorySegment request, MemorySegment response) {
        int op = request.get(ValueLayout.JAVA_BYTE, 0);
        int mode = request.get(ValueLayout.JAVA_BYTE, 1);
        int keyLength = request.get(SHORT, 2) & 0xFFFF;
        int flags = request.get(INT, 4);
        long exptime = request.get(LONG, 8);
        long arg = request.get(LONG, 16);
        byte[] key = request.asSlice(REQUEST_HEADER_BYTES, keyLength).toArray(ValueLayout.JAVA_BYTE);
        long valueOffset = REQUEST_HEADER_BYTES + keyLength;
        switch (op) {
            case OP_GET -> {
                Item item = table.get(key);
                if (item == null) {
                    return status(response, 0);
                }
                response.set(INT, 4, item.flags());
                response.set(LONG, 8, item.cas());
                MemorySegment.copy(item.value(), 0, response, ValueLayout.JAVA_BYTE, RESPONSE_HEADER_BYTES,
                        item.value().length);
                return status(response, 1) + item.value().length;
            }
            case OP_STORE -> {
                byte[] value = request.asSlice(valueOffset).toArray(ValueLayout.JAVA_BYTE);
                StoreResult r = table.store(StoreMode.values()[mode], key, flags, exptime, value, arg);
                return status(response, r.ordinal());
            }
            case OP_DELETE -> {
                return status(response, table.delete(key) ? 1 : 0);
            }
            case OP_INCR, OP_DECR -> {
                ArithmeticResult r = table.arithmetic(key, op == OP_INCR, arg);
                response.set(LONG, 8, r.value());
                return status(response, r.status().ordinal());
            }
            case OP_TOUCH -> {
                return status(response, table.touch(key, exptime) ? 1 : 0);
            }
            case OP_FLUSH -> {
                table.flushAll(exptime);
                return status(response, 1);
            }
            default -> throw new IllegalArgumentException("unknown memcached operation " + op);
        }
    }

    private static int status(MemorySegment response, int status) {
        response.set(ValueLayout.JAVA_BYTE, 0, (byte) status);
        return RESPONSE_HEADER_BYTES;
    }

    /**
     * Stops the serving threads (waiting up to 10 seconds for each) and closes the trustees, so that engines'
     * later commands fail. Idempotent.
     */
    @Override
    public void close() {
        stopping = true;
        for (Thread t : servers) {
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One thread's handle: a compute thread and a trust per shard. */
    private static final class DelegatedEngine implements MemcachedEngine {
        private final DelegatedCache cache;
        private final ComputeThread thread;
        private final List<Trust<ItemTable>> shards;
        private final MemorySegment request = MemorySegment.ofArray(new byte[Trustee.MAX_PAYLOAD_BYTES]);
        private final MemorySegment response = MemorySegment.ofArray(new byte[Trustee.MAX_PAYLOAD_BYTES]);

        DelegatedEngine(DelegatedCache cache, ComputeThread thread, List<Trust<ItemTable>> shards) {
            this.cache = cache;
            this.thread = thread;
            this.shards = shards;
        }

        @Override
        public int maxItemBytes() {
            return MAX_ITEM_BYTES;
        }

        private int call(int op, int mode, byte[] key, int flags, long exptime, long arg, byte[] value) {
            request.set(ValueLayout.JAVA_BYTE, 0, (byte) op);
            request.set(ValueLayout.JAVA_BYTE, 1, (byte) mode);
            request.set(SHORT, 2, (short) key.length);
            request.set(INT, 4, flags);
            request.set(LONG, 8, exptime);
            request.set(LONG, 16, arg);
            MemorySegment.copy(key, 0, request, ValueLayout.JAVA_BYTE, REQUEST_HEADER_BYTES, key.length);
            int length = REQUEST_HEADER_BYTES + key.length;
            if (value != null) {
                MemorySegment.copy(value, 0, request, ValueLayout.JAVA_BYTE, length, value.length);
                length += value.length;
            }
            return shards.get(cache.shardOf(key)).apply(COMMAND, request.asSlice(0, length), response, TIMEOUT);
        }

        @Override
        public Item get(byte[] key) {
            int n = call(OP_GET, 0, key, 0, 0, 0, null);
            if (response.get(ValueLayout.JAVA_BYTE, 0) == 0) {
                return null;
            }
            byte[] value = response.asSlice(RESPONSE_HEADER_BYTES, n - RESPONSE_HEADER_BYTES).toArray(ValueLayout.JAVA_BYTE);
            return new Item(value, response.get(INT, 4), response.get(LONG, 8));
        }

        @Override
        public StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
            if (value.length > MAX_ITEM_BYTES) {
                throw new BadArgumentException("value of " + value.length + " bytes over the item size " + MAX_ITEM_BYTES);
            }
            call(OP_STORE, mode.ordinal(), key, flags, exptime, cas, value);
            return StoreResult.values()[response.get(ValueLayout.JAVA_BYTE, 0)];
        }

        @Override
        public boolean delete(byte[] key) {
            call(OP_DELETE, 0, key, 0, 0, 0, null);
            return response.get(ValueLayout.JAVA_BYTE, 0) == 1;
        }

        @Override
        public ArithmeticResult arithmetic(byte[] key, boolean increment, long delta) {
            call(increment ? OP_INCR : OP_DECR, 0, key, 0, 0, delta, null);
            return new ArithmeticResult(ArithmeticResult.Status.values()[response.get(ValueLayout.JAVA_BYTE, 0)],
                    response.get(LONG, 8));
        }

        @Override
        public boolean touch(byte[] key, long exptime) {
            call(OP_TOUCH, 0, key, 0, exptime, 0, null);
            return response.get(ValueLayout.JAVA_BYTE, 0) == 1;
        }

        @Override
        public void flushAll(long delay) {
            for (Trust<ItemTable> shard : shards) {
                request.set(ValueLayout.JAVA_BYTE, 0, (byte) OP_FLUSH);
                request.set(SHORT, 2, (short) 0);
                request.set(LONG, 8, delay);
                shard.apply(COMMAND, request.asSlice(0, REQUEST_HEADER_BYTES), response, TIMEOUT);
            }
        }

        @Override
        public void close() {
            for (Trust<ItemTable> shard : shards) {
                shard.client().close();
            }
            thread.close();
        }
    }
}
