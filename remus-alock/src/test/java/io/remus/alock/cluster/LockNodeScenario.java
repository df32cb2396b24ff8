package io.remus.alock.cluster;

import io.remus.alock.CheckedCriticalSection;
import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.alock.table.LockTable;
import io.remus.alock.table.TableLocks;
import io.remus.core.ClusterBarrier;
import io.remus.core.ComputeThread;
import io.remus.core.RemoteAllocator;
import io.remus.core.RemusNode;
import io.remus.core.Root;
import io.remus.core.config.ClusterConfig;
import io.remus.core.memory.RemotePtr;
import io.remus.core.testing.ClusterProcess;
import io.remus.core.testing.ProcessFabric;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One node's part of the lock suite across processes: node 0 creates, for each of ALock, the
 * spin lock and the MCS lock, a {@link LockTable} of {@value #KEYS_PER_NODE} keys per node (key
 * {@code i} homed on node {@code i % size}) and a {@link CheckedCriticalSection} block beside each
 * lock, and publishes them through the {@link Root}. Then, kind after kind, every node runs three
 * worker threads for a slice: one locks only keys homed on its own node (ALock's local path), one
 * only keys homed elsewhere (the remote path), one any key. After the slice the nodes add their
 * entry counts into a shared total, and each compares it with the sum of the locks' counters: any
 * difference is a lost update, any foreign stamp an overlap.
 */
final class LockNodeScenario {
    static final List<LockKind> KINDS = List.of(LockKind.ALOCK, LockKind.SPIN, LockKind.MCS);
    private static final int KEYS_PER_NODE = 2;
    private static final int WORKERS = 3;
    private static final Duration SETUP_TIMEOUT = Duration.ofMinutes(2);
    private static final int DATA_BYTES = 8 * (CheckedCriticalSection.STAMPS + 1);
    private static final LockOptions OPTIONS = LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(60));

    private LockNodeScenario() {
    }

    /**
     * @param hosts    every node's host
     * @param nodeId   this node
     * @param basePort node 0's port
     * @return the configuration: as {@link ClusterProcess#config}, with a 60 s operation (and barrier) timeout
     */
    static ClusterConfig config(int nodeId, List<String> hosts, int basePort) {
        return ClusterProcess.builder(nodeId, hosts, basePort).operationTimeout(Duration.ofSeconds(60)).build();
    }

    /**
     * Runs this node's part.
     *
     * @param fabric         the fabric
     * @param config         this node's configuration
     * @param connectTimeout how long to wait for peers
     * @param slice          how long each kind runs
     * @return this node's report per kind
     */
    static List<LockNodeReport> run(ProcessFabric fabric, ClusterConfig config, Duration connectTimeout,
                                    Duration slice) throws Exception {
        return ClusterProcess.run(fabric, config, connectTimeout, (node, main) -> {
            int size = config.nodes().size();
            int keys = KEYS_PER_NODE * size;
            ClusterBarrier barrier = new ClusterBarrier(main, config.totalComputeThreads(), connectTimeout);
            Root root = new Root(main);
            if (config.nodeId() == 0) {
                root.set(createDirectory(main, keys, size));
            }
            barrier.await();
            long directory = root.get();
            List<LockNodeReport> reports = new ArrayList<>();
            for (int k = 0; k < KINDS.size(); k++) {
                reports.add(runKind(node, main, barrier, directory, k, keys, slice));
            }
            return reports;
        });
    }

    private static long slot(long directory, int index) {
        return RemotePtr.offset(directory, 8L * index);
    }

    private static int wordSlot(int kind, int keys, int key) {
        return kind * keys + key;
    }

    private static int dataSlot(int kind, int keys, int key) {
        return (KINDS.size() + kind) * keys + key;
    }

    private static int totalSlot(int kind, int keys) {
        return 2 * KINDS.size() * keys + kind;
    }

    private static long createDirectory(ComputeThread t, int keys, int size) {
        RemoteAllocator allocator = t.allocator();
        int slots = totalSlot(KINDS.size(), keys);
        long directory = allocator.allocate(8L * slots, 0);
        t.write(directory, MemorySegment.ofArray(new byte[8 * slots]));
        for (int k = 0; k < KINDS.size(); k++) {
            LockTable table = LockTable.create(t, KINDS.get(k), keys);
            for (int i = 0; i < keys; i++) {
                long data = allocator.allocate(DATA_BYTES, table.homeNode(i));
                t.write(data, MemorySegment.ofArray(new byte[DATA_BYTES]));
                t.write(slot(directory, wordSlot(k, keys, i)), table.word(i));
                t.write(slot(directory, dataSlot(k, keys, i)), data);
            }
        }
        return directory;
    }

    private static LockNodeReport runKind(RemusNode node, ComputeThread main, ClusterBarrier barrier, long directory,
                                          int k, int keys, Duration slice) throws InterruptedException {
        LockKind kind = KINDS.get(k);
        long[] words = new long[keys];
        CheckedCriticalSection[] sections = new CheckedCriticalSection[keys];
        for (int i = 0; i < keys; i++) {
            words[i] = main.read(slot(directory, wordSlot(k, keys, i)));
            sections[i] = new CheckedCriticalSection(main.read(slot(directory, dataSlot(k, keys, i))));
        }
        LockTable table = LockTable.of(kind, words);
        int me = main.nodeId();
        long[] local = new long[WORKERS];
        long[] remote = new long[WORKERS];
        AtomicInteger errors = new AtomicInteger();
        barrier.await();
        // The slice starts once every worker has its compute thread, lock context and table handle: connecting
        // them can take longer than the slice on an emulated device, and a worker that began only after the
        // slice ended would count no lock at all.
        CountDownLatch ready = new CountDownLatch(WORKERS);
        CountDownLatch go = new CountDownLatch(1);
        long[] endNanos = new long[1];
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            Thread th = new Thread(() -> {
                try (ComputeThread t = node.newComputeThread()) {
                    LockContext context = new LockContext(t, OPTIONS);
                    TableLocks locks = table.open(context);
                    SplittableRandom random = new SplittableRandom(me * 31L + worker);
                    ready.countDown();
                    if (!go.await(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("the slice never started");
                    }
                    long end = endNanos[0];
                    while (System.nanoTime() - end < 0) {
                        int key = pick(worker, random, table, me);
                        Lock lock = locks.lockFor(key);
                        lock.lock();
                        sections[key].run(t, context.ownerId());
                        lock.unlock();
                        if (table.homeNode(key) == me) {
                            local[worker]++;
                        } else {
                            remote[worker]++;
                        }
                    }
                } catch (Throwable e) {
                    errors.incrementAndGet();
                    ready.countDown();
                    e.printStackTrace(System.out);
                }
            }, kind.cliName() + "-worker-" + w);
            th.setDaemon(true);
            threads.add(th);
            th.start();
        }
        if (!ready.await(SETUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            errors.incrementAndGet();
            System.out.println("workers not ready within " + SETUP_TIMEOUT);
        }
        long start = System.nanoTime();
        endNanos[0] = start + slice.toNanos();
        go.countDown();
        for (Thread th : threads) {
            th.join(slice.toMillis() + TimeUnit.MINUTES.toMillis(3));
            if (th.isAlive()) {
                errors.incrementAndGet();
                System.out.println(th.getName() + " did not finish");
            }
        }
        long entries = 0;
        long overlaps = 0;
        for (CheckedCriticalSection s : sections) {
            entries += s.entries();
            overlaps += s.overlaps();
        }
        long total = slot(directory, totalSlot(k, keys));
        main.fetchAndAdd(total, entries);
        barrier.await();
        long counted = 0;
        for (CheckedCriticalSection s : sections) {
            counted += s.counter(main);
        }
        long lost = main.read(total) - counted;
        return new LockNodeReport(kind, me, sum(local), sum(remote), overlaps, lost, errors.get(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private static int pick(int worker, SplittableRandom random, LockTable table, int me) {
        int key;
        do {
            key = random.nextInt(table.size());
        } while ((worker == 0 && table.homeNode(key) != me) || (worker == 1 && table.homeNode(key) == me));
        return key;
    }

    private static long sum(long[] values) {
        long s = 0;
        for (long v : values) {
            s += v;
        }
        return s;
    }
}
