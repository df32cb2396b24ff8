package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.delegate.Trust;
import io.remus.ds.delegate.Trustee;
import io.remus.ds.delegate.TrusteeClient;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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

    private final List<RemusNode> nodes;
    private final int shards;
    private final long[] trustees;
    private final List<Thread> servers = new ArrayList<>();
    private volatile boolean stopping;

    private DelegatedCache(List<RemusNode> nodes, int shards) {
        this.nodes = nodes;
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
        if (shards < 1 || shards > 1024) {
            throw new BadArgumentException("shards must be in 1..1024, got " + shards);
        }
        if (maxClients < 1 || maxClients > Trustee.MAX_CLIENTS) {
            throw new BadArgumentException("maxClients must be in 1.." + Trustee.MAX_CLIENTS + ", got " + maxClients);
        }
        DelegatedCache cache = new DelegatedCache(List.copyOf(nodes), shards);
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (int n = 0; n < nodes.size(); n++) {
            CompletableFuture<Void> up = new CompletableFuture<>();
            ready.add(up);
            int node = n;
            Thread t = Thread.ofPlatform().daemon().name("remus-memcached-trustees-node-" + n)
                    .unstarted(() -> cache.serve(node, maxClients, clock, up));
            cache.servers.add(t);
            t.start();
        }
        try {
            for (CompletableFuture<Void> up : ready) {
                up.get(30, TimeUnit.SECONDS);
            }
        } catch (ExecutionException | TimeoutException e) {
            cache.close();
            throw new IllegalStateException("a trustee of the memcached store did not start: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cache.close();
            throw new IllegalStateException("interrupted while the memcached store started", e);
        }
        return cache;
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
     * The shard of a key: FNV-1a over its bytes, modulo the shards.
     *
     * @param key the key
     * @return its shard
     */
    public int shardOf(byte[] key) {
        int h = 0x811C9DC5;
        for (byte b : key) {
            h = (h ^ (b & 0xFF)) * 0x01000193;
        }
        return Math.floorMod(h, shards);
    }

    /**
     * Opens a handle for the calling thread, which alone may use it: a compute thread on {@code node} and a
     * client of every shard's trustee (one client place each, for good).
     *
     * @param node the index of the node in the list {@link #start} was given
     * @return the handle
     * @throws BadArgumentException naming the node, when it is out of range
     */
    public MemcachedEngine openEngine(int node) {
        if (node < 0 || node >= nodes.size()) {
            throw new BadArgumentException("node must be in 0.." + (nodes.size() - 1) + ", got " + node);
        }
        ComputeThread thread = nodes.get(node).newComputeThread();
        List<Trust<ItemTable>> shardTrusts = new ArrayList<>(shards);
        for (int s = 0; s < shards; s++) {
            shardTrusts.add(TrusteeClient.connect(thread, trustees[s]).trust(0));
        }
        return new DelegatedEngine(this, thread, shardTrusts);
    }

    private void serve(int node, int maxClients, LongSupplier clock, CompletableFuture<Void> up) {
        List<Trustee<ItemTable>> mine = new ArrayList<>();
        try (ComputeThread thread = nodes.get(node).newComputeThread()) {
            try {
                for (int s = node; s < shards; s += nodes.size()) {
                    Trustee<ItemTable> trustee = Trustee.create(thread, maxClients, 1, Trustee.MAX_PAYLOAD_BYTES);
                    trustee.register(COMMAND, DelegatedCache::run);
                    trustee.entrust(new ItemTable(clock, MAX_ITEM_BYTES, s, shards));
                    trustees[s] = trustee.ptr();
                    mine.add(trustee);
                }
            } catch (RuntimeException | Error e) {
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
