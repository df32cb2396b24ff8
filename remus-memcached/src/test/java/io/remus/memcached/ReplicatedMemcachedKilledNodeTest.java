package io.remus.memcached;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.History;
import io.remus.check.HistoryClock;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.core.sim.SimOptions;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node of a replicated memcached store killed under load, as its clients see it over TCP: two shards replicated
 * on nodes 0, 1 and 2 ({@link ReplicatedShards}, the simulated fabric in real time), a {@link MemcachedServer} per
 * node whose engine is a {@link ReplicatedCacheEngine}, two client connections to each of nodes 1 and 2 and one to
 * node 0, each setting, reading and deleting {@value #KEYS} shared keys and incrementing a counter of its own, every
 * operation recorded in one history ({@link CacheSpec}). Node 0, the leader of both shards, is killed mid-load (its
 * members stop, its node stops answering, its port closes); the load goes on until each connection to a survivor
 * completed {@value #AFTER} more operations. Then every key is read through node 1, set afresh through node 2 and
 * read again through node 1, and:
 * <ul>
 *   <li>no connection to a survivor saw an error (the one to node 0 leaves its operation in flight pending);</li>
 *   <li>every final read returns the value of a write not overwritten before the read (acknowledged) or of a
 *       pending one: no acknowledged set is lost;</li>
 *   <li>each counter is its client's acknowledged increments, plus at most its pending ones: nothing applied
 *       twice;</li>
 *   <li>the survivors' members of each shard applied the same entries, and the distinct commands applied are the
 *       commands the servers' handles sent, less at most one per pending operation;</li>
 *   <li>every key's history, final reads included, is linearizable (remus-check, key by key).</li>
 * </ul>
 * The same run with an engine that acknowledges sets and drops them, or one that answers stale values, makes the
 * checks fail, so they are known to catch a lost write and a stale read. A seed fixes each connection's operations
 * and how many complete before the kill; the interleaving is the host's (real time).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReplicatedMemcachedKilledNodeTest {
    private static final long SECOND = ReplicatedShards.SECOND;
    private static final SimOptions OPTIONS = SimOptions.defaults().withTransportTimeoutNanos(10_000_000);
    private static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(20)));
    private static final int SHARDS = 2;
    /** Each shard's log ring holds every entry of a run: no follower is lapped (see {@link ReplicatedShards}). */
    private static final int SLOTS = 1024;
    private static final int KEYS = 8;
    private static final int COUNTER_KEY = 100;
    private static final int KILLED = 0;
    private static final int PER_SURVIVOR = 2;
    private static final int BEFORE = 80;
    private static final int AFTER = 30;
    private static final int FINAL = 900;
    private static final int PROBE = 901;
    private static final long PROBE_VALUE = 9_000_000_000_000L;
    private static final long ABSENT = Long.MIN_VALUE;

    /**
     * Node 0 leads both shards and is killed while five connections run; the survivors keep answering, and every
     * check of the class comment holds.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldKeepAnsweringCorrectlyThroughTheSurvivorsWhenTheLeadersNodeIsKilled(long seed) throws Exception {
        Run run = new Run(seed, true, (node, e) -> e);
        run.execute();

        List<Operation> ops = run.history.operations();
        for (Worker w : run.workers) {
            if (w.node != KILLED) {
                assertEquals(0, w.failures, "worker " + w.index + " on node " + w.node + " saw errors " + w.reasons);
                assertTrue(w.afterMark.get() >= AFTER, "worker " + w.index + " completed " + w.afterMark + " after the kill");
            }
            long last = run.counters[w.index];
            assertTrue(last >= w.ackedIncrs && last <= w.ackedIncrs + w.pendingIncrs, "worker " + w.index
                    + "'s counter reads " + last + " after " + w.ackedIncrs + " acknowledged increments and "
                    + w.pendingIncrs + " pending");
        }
        List<String> lost = unexplainedFinalReads(ops);
        assertTrue(lost.isEmpty(), "final reads no write explains: " + lost);
        for (int s = 0; s < SHARDS; s++) {
            int m1 = ReplicatedShards.member(s, 1);
            int m2 = ReplicatedShards.member(s, 2);
            assertTrue(run.store.takeovers[m1] >= 1, "node 1 took shard " + s + " over");
            assertEquals(run.store.applied[m1], run.store.applied[m2], "shard " + s + ": the survivors' entries");
            assertEquals(run.store.duplicates[m1], run.store.duplicates[m2], "shard " + s + ": the survivors' duplicates");
            assertEquals(run.store.size[m1], run.store.size[m2], "shard " + s + ": the survivors' items");
        }
        long distinct = 0;
        for (int s = 0; s < SHARDS; s++) {
            int m = ReplicatedShards.member(s, 1);
            distinct += run.store.applied[m] - run.store.duplicates[m];
        }
        long pending = ops.stream().filter(Operation::isPending).count();
        assertTrue(distinct <= run.commands && distinct >= run.commands - pending, distinct
                + " distinct commands applied for " + run.commands + " sent, " + pending + " pending");
        CheckResult verdict = CHECKER.checkByKey(ops, new CacheSpec());
        verdict.assertLinearizable();
    }

    static Stream<Arguments> brokenEngines() {
        BiFunction<Integer, MemcachedEngine, MemcachedEngine> dropping = (node, e) -> new DroppingEngine(e, 5);
        BiFunction<Integer, MemcachedEngine, MemcachedEngine> stale = (node, e) -> node == 1 ? new StaleEngine(e) : e;
        return Stream.of(Arguments.of(Named.of("every engine acknowledges sets past its fifth and drops them", dropping)),
                Arguments.of(Named.of("node 1's engine answers each key's first value read ever after", stale)));
    }

    /**
     * The checks are trusted only because they fail on a store that is wrong: the same run, no node killed, with
     * engines that lose acknowledged sets or answer stale values. The final reads or the probe's reads then return
     * overwritten values, and the history is not linearizable.
     */
    @ParameterizedTest
    @MethodSource("brokenEngines")
    void shouldReportNotLinearizableWhenTheEngineIsBroken(BiFunction<Integer, MemcachedEngine, MemcachedEngine> broken)
            throws Exception {
        Run run = new Run(7, false, broken);
        run.execute();

        List<Operation> ops = run.history.operations();
        assertFalse(unexplainedFinalReads(ops).isEmpty(), "a final read returns an overwritten value");
        CheckResult verdict = CHECKER.checkByKey(ops, new CacheSpec());
        assertEquals(Verdict.NOT_LINEARIZABLE, verdict.verdict(), verdict.toString());
        assertFalse(verdict.witness().isEmpty(), "the violation names its operations");
    }

    /**
     * The final reads (of {@link #FINAL}) of shared keys that no write explains: the value read must be what an
     * acknowledged write stored that no acknowledged write invoked after its response overwrote, or what a pending
     * write may have stored. A key with a pending increment is skipped (its value is open).
     */
    private static List<String> unexplainedFinalReads(List<Operation> ops) {
        List<String> unexplained = new ArrayList<>();
        for (Operation read : ops) {
            if (read.thread() != FINAL || !read.kind().equals(CacheSpec.GET) || read.arguments()[0] >= COUNTER_KEY) {
                continue;
            }
            long k = read.arguments()[0];
            List<Operation> writes = new ArrayList<>();
            Set<Long> allowed = new HashSet<>();
            boolean open = false;
            for (Operation op : ops) {
                if (op.arguments()[0] != k || op.invokedAt() >= read.invokedAt() || op.kind().equals(CacheSpec.GET)) {
                    continue;
                }
                if (op.isPending()) {
                    switch (op.kind()) {
                        case CacheSpec.SET -> allowed.add(op.arguments()[1]);
                        case CacheSpec.DELETE -> allowed.add(ABSENT);
                        default -> open = true;
                    }
                } else if (op.kind().equals(CacheSpec.SET) || op.result()[0] == 1) {
                    writes.add(op);
                }
            }
            if (open) {
                continue;
            }
            if (writes.isEmpty()) {
                allowed.add(ABSENT);
            }
            for (Operation w : writes) {
                boolean overwritten = writes.stream().anyMatch(o -> o.invokedAt() > w.respondedAt());
                if (!overwritten) {
                    allowed.add(switch (w.kind()) {
                        case CacheSpec.SET -> w.arguments()[1];
                        case CacheSpec.DELETE -> ABSENT;
                        default -> w.result()[1];
                    });
                }
            }
            long got = read.result()[0] == 0 ? ABSENT : read.result()[1];
            if (!allowed.contains(got)) {
                unexplained.add(TextOps.key(k) + " read " + (got == ABSENT ? "nothing" : got) + ", expected one of "
                        + allowed.stream().map(v -> v == ABSENT ? "nothing" : Long.toString(v)).toList());
            }
        }
        return unexplained;
    }

    /** One run: the store, the servers, the workers, the kill (or none), the final reads and their counts. */
    private static final class Run {
        final long seed;
        final boolean kill;
        final BiFunction<Integer, MemcachedEngine, MemcachedEngine> wrap;
        final History history = new History(HistoryClock.NANO_TIME);
        final List<Worker> workers = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicBoolean mark = new AtomicBoolean();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicReferenceArray<ReplicatedCacheEngine> engines = new AtomicReferenceArray<>(ReplicatedShards.NODES);
        final List<MemcachedServer> servers = new ArrayList<>();
        final long[] counters = new long[2 * PER_SURVIVOR + 1];
        ReplicatedShards store;
        long commands;

        Run(long seed, boolean kill, BiFunction<Integer, MemcachedEngine, MemcachedEngine> wrap) {
            this.seed = seed;
            this.kill = kill;
            this.wrap = wrap;
        }

        boolean dead(int node) {
            return store.dead.get(node) == 1;
        }

        void execute() throws Exception {
            Set<Integer> shardsOfKeys = new HashSet<>();
            for (int k = 0; k < KEYS; k++) {
                shardsOfKeys.add(ReplicatedCacheEngine.shardOf(TextOps.key(k).getBytes(StandardCharsets.US_ASCII), SHARDS));
            }
            assertEquals(SHARDS, shardsOfKeys.size(), "the keys fall on every shard");
            try (ReplicatedShards s = new ReplicatedShards(SHARDS, SLOTS, OPTIONS)) {
                store = s;
                s.start();
                for (int n = 0; n < ReplicatedShards.NODES; n++) {
                    int node = n;
                    servers.add(MemcachedServer.start(ServerConfig.of("127.0.0.1", 0), () -> {
                        ReplicatedCacheEngine e = s.engine(node, 100 + node);
                        engines.set(node, e);
                        return wrap.apply(node, e);
                    }, () -> System.currentTimeMillis() / 1000));
                }
                try {
                    load();
                } finally {
                    stop.set(true);
                    for (Worker w : workers) {
                        ThreadTime.join(w.thread, 30 * SECOND);
                    }
                    for (MemcachedServer server : servers) {
                        server.close();
                    }
                }
                for (int n = 0; n < ReplicatedShards.NODES; n++) {
                    commands += engines.get(n).sequence();
                }
                s.stopAll();
            }
            if (failure.get() != null) {
                throw new AssertionError("a worker failed", failure.get());
            }
        }

        private void load() throws Exception {
            int index = 0;
            for (int node : new int[] {1, 2}) {
                for (int c = 0; c < PER_SURVIVOR; c++) {
                    workers.add(new Worker(this, index++, node));
                }
            }
            workers.add(new Worker(this, index, KILLED));
            for (Worker w : workers) {
                w.thread.start();
            }
            long before = BEFORE + 20 * seed;
            awaitWorkers(() -> workers.stream().mapToLong(w -> w.completed.get()).sum() >= before,
                    before + " operations before the kill");
            if (kill) {
                awaitWorkers(() -> IntStream.range(0, SHARDS).allMatch(sh -> store.leads(sh, KILLED)),
                        "node " + KILLED + " leading every shard");
                store.kill(KILLED);
                servers.get(KILLED).close();
            }
            mark.set(true);
            awaitWorkers(() -> workers.stream().filter(w -> w.node != KILLED).allMatch(w -> w.afterMark.get() >= AFTER),
                    AFTER + " operations of each survivor's connection after the kill");
            stop.set(true);
            for (Worker w : workers) {
                if (!ThreadTime.join(w.thread, 30 * SECOND)) {
                    throw new AssertionError(w.thread.getName() + " did not stop");
                }
            }
            if (failure.get() != null) {
                return;
            }
            finalReads();
        }

        private void awaitWorkers(BooleanSupplier done, String what) {
            long deadline = ThreadTime.nanoTime() + 60 * SECOND;
            while (!done.getAsBoolean()) {
                if (failure.get() != null) {
                    throw new AssertionError("a worker failed waiting for " + what, failure.get());
                }
                if (store.failure.get() != null) {
                    throw new AssertionError("a member failed waiting for " + what, store.failure.get());
                }
                if (ThreadTime.nanoTime() - deadline > 0) {
                    StringBuilder view = new StringBuilder();
                    for (Worker w : workers) {
                        view.append("\n worker ").append(w.index).append(" on node ").append(w.node).append(": ")
                                .append(w.completed).append(" completed, ").append(w.afterMark).append(" after the kill, ")
                                .append(w.failures).append(" failed ").append(w.reasons);
                        for (StackTraceElement e : w.thread.getStackTrace()) {
                            view.append("\n    at ").append(e);
                        }
                    }
                    throw new AssertionError("no " + what + " within 60 s:" + view + store.describe());
                }
                ThreadTime.parkNanos(null, 1_000_000);
            }
        }

        /** Reads every key through node 1, sets each shared key through node 2 and reads it again through node 1. */
        private void finalReads() throws IOException {
            try (TextOps reader = new TextOps(servers.get(1).port(), history.recorder(FINAL));
                 TextOps writer = new TextOps(servers.get(2).port(), history.recorder(PROBE))) {
                for (int k = 0; k < KEYS; k++) {
                    assertTrue(reader.get(k), "final read of " + TextOps.key(k));
                }
                for (Worker w : workers) {
                    assertTrue(reader.get(COUNTER_KEY + w.index), "final read of worker " + w.index + "'s counter");
                }
                for (int k = 0; k < KEYS; k++) {
                    assertTrue(writer.set(k, PROBE_VALUE + k), "probe set of " + TextOps.key(k));
                }
                for (int k = 0; k < KEYS; k++) {
                    assertTrue(reader.get(k), "probe read of " + TextOps.key(k));
                }
            }
            for (Operation op : history.operations()) {
                if (op.thread() == FINAL && op.arguments()[0] >= COUNTER_KEY) {
                    counters[(int) op.arguments()[0] - COUNTER_KEY] = op.result()[0] == 0 ? 0 : op.result()[1];
                }
            }
        }
    }

    /**
     * One client connection's loop: its counter set to 0, then 15 % increments of it, 35 % sets of a shared key to
     * a value no other operation writes, 35 % gets and 15 % deletes, until the run stops. A pending operation
     * closes the connection; the next one opens another, recorded as another thread, unless the node is dead.
     */
    private static final class Worker implements Runnable {
        final Run run;
        final int index;
        final int node;
        final Thread thread;
        final AtomicLong completed = new AtomicLong();
        final AtomicLong afterMark = new AtomicLong();
        int incarnation;
        volatile long failures;
        final List<String> reasons = new CopyOnWriteArrayList<>();
        long pending;
        long ackedIncrs;
        long pendingIncrs;

        Worker(Run run, int index, int node) {
            this.run = run;
            this.index = index;
            this.node = node;
            this.thread = ThreadTime.newThread("worker-" + index + "-node-" + node, this);
        }

        @Override
        public void run() {
            SplittableRandom rnd = new SplittableRandom(run.seed * 1_000 + index);
            long counter = COUNTER_KEY + index;
            boolean counterSet = false;
            long written = 0;
            TextOps c = null;
            try {
                while (!run.stop.get()) {
                    if (c == null) {
                        try {
                            c = new TextOps(run.servers.get(node).port(), run.history.recorder(index * 100 + incarnation));
                        } catch (IOException e) {
                            if (run.dead(node)) {
                                return;
                            }
                            throw e;
                        }
                    }
                    boolean marked = run.mark.get();
                    int pick = rnd.nextInt(100);
                    boolean answered;
                    boolean increment = false;
                    if (!counterSet) {
                        answered = c.set(counter, 0);
                        counterSet = answered;
                    } else if (pick < 15) {
                        increment = true;
                        answered = c.incr(counter);
                    } else if (pick < 50) {
                        answered = c.set(rnd.nextInt(KEYS), (index + 1) * 1_000_000_000L + ++written);
                    } else if (pick < 85) {
                        answered = c.get(rnd.nextInt(KEYS));
                    } else {
                        answered = c.delete(rnd.nextInt(KEYS));
                    }
                    if (answered) {
                        completed.incrementAndGet();
                        if (marked) {
                            afterMark.incrementAndGet();
                        }
                        if (increment) {
                            ackedIncrs++;
                        }
                        continue;
                    }
                    failures++;
                    reasons.add(c.lastFailure() + (run.dead(node) ? "" : "; the members then:" + run.store.describe()));
                    pending++;
                    if (increment) {
                        pendingIncrs++;
                    }
                    c.close();
                    c = null;
                    if (run.dead(node)) {
                        return;
                    }
                    incarnation++;
                }
            } catch (Throwable t) {
                run.failure.compareAndSet(null, t);
            } finally {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /** A broken engine: it answers each key's first value it read (or miss) on every later get of the key. */
    private static final class StaleEngine extends DroppingEngine {
        private final Map<String, Optional<Item>> seen = new HashMap<>();

        StaleEngine(MemcachedEngine engine) {
            super(engine, Integer.MAX_VALUE);
        }

        @Override
        public Item get(byte[] key) {
            return seen.computeIfAbsent(new String(key, StandardCharsets.ISO_8859_1),
                    k -> Optional.ofNullable(super.get(key))).orElse(null);
        }
    }

    /** A broken engine: it acknowledges every set past the first {@code keep} without storing it. */
    private static class DroppingEngine implements MemcachedEngine {
        private final MemcachedEngine engine;
        private final int keep;
        private int sets;

        DroppingEngine(MemcachedEngine engine, int keep) {
            this.engine = engine;
            this.keep = keep;
        }

        @Override
        public int maxItemBytes() {
            return engine.maxItemBytes();
        }

        @Override
        public Item get(byte[] key) {
            return engine.get(key);
        }

        @Override
        public StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
            if (mode == StoreMode.SET && ++sets > keep) {
                return StoreResult.STORED;
            }
            return engine.store(mode, key, flags, exptime, value, cas);
        }

        @Override
        public boolean delete(byte[] key) {
            return engine.delete(key);
        }

        @Override
        public ArithmeticResult arithmetic(byte[] key, boolean increment, long delta) {
            return engine.arithmetic(key, increment, delta);
        }

        @Override
        public boolean touch(byte[] key, long exptime) {
            return engine.touch(key, exptime);
        }

        @Override
        public void flushAll(long delay) {
            engine.flushAll(delay);
        }

        @Override
        public void close() {
            engine.close();
        }
    }
}
