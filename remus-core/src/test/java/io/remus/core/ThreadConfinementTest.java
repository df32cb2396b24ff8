package io.remus.core;

import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A compute thread belongs to the first Java thread that uses it: every operation from another
 * Java thread is a {@link ThreadConfinementException} naming both, before anything is posted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadConfinementTest {
    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    private static Throwable onThread(String name, Runnable work) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread th = new Thread(() -> {
            try {
                work.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, name);
        th.start();
        th.join(30_000);
        assertTrue(!th.isAlive(), name + " finished");
        return failure.get();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldBelongToTheFirstThreadThatUsesItWhenCreatedOnAnother(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make)) {
            ComputeThread t = c.thread(0);
            long w = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            assertNull(onThread("worker-a", () -> {
                t.write(w, 5);
                assertEquals(5, t.fetchAndAdd(w, 1));
            }), "a thread created on the test thread is used by the worker");
            ThreadConfinementException e = assertThrows(ThreadConfinementException.class, () -> t.read(w));
            assertTrue(e.getMessage().contains("\"worker-a\"") && e.getMessage().contains("\"" + Thread.currentThread().getName() + "\""),
                    "names both threads: " + e.getMessage());
            Throwable other = onThread("worker-b", () -> t.fetchAndAdd(w, 1));
            assertTrue(other instanceof ThreadConfinementException && other.getMessage().contains("\"worker-b\""), String.valueOf(other));
            t.close();
            assertTrue(t.isClosed(), "close is allowed from another thread once the owner is done");
            try (ComputeThread check = c.thread(0)) {
                assertEquals(6, check.read(w), "the refused operations changed nothing");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseEveryOperationFromAnotherThreadBeforePostingAnything(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(1)) {
            long remote = RemotePtr.offset(t.segmentBase(2, 1), 4096);
            long local = RemotePtr.offset(t.segmentBase(1, 1), 4096);
            t.write(remote, 1);
            t.write(local, 1);
            long pending = t.readWordAsync(remote, false);
            Map<String, Executable> ops = new LinkedHashMap<>();
            ops.put("read", () -> t.read(remote));
            ops.put("read local", () -> t.read(local));
            ops.put("write", () -> t.write(remote, 9));
            ops.put("compareAndSwap", () -> t.compareAndSwap(remote, 1, 9));
            ops.put("fetchAndAdd", () -> t.fetchAndAdd(local, 9));
            ops.put("read range", () -> t.read(remote, 0, 16));
            ops.put("write range", () -> t.write(remote, 0, 16));
            ops.put("read copy", () -> t.read(remote, MemorySegment.ofArray(new byte[8])));
            ops.put("write copy", () -> t.write(remote, MemorySegment.ofArray(new byte[8])));
            ops.put("writeLocal", () -> t.writeLocal(local, 9));
            ops.put("writeLocal range", () -> t.writeLocal(local, 0, 8));
            ops.put("localSegment", () -> t.localSegment(local, 8));
            ops.put("readAsync", () -> t.readAsync(remote, 0, 8, false));
            ops.put("readWordAsync", () -> t.readWordAsync(remote, false));
            ops.put("writeAsync", () -> t.writeAsync(remote, 0, 8, false));
            ops.put("writeWordAsync", () -> t.writeWordAsync(remote, 9, false));
            ops.put("compareAndSwapAsync", () -> t.compareAndSwapAsync(remote, 1, 9, false));
            ops.put("fetchAndAddAsync", () -> t.fetchAndAddAsync(remote, 9, false));
            ops.put("await", () -> t.await(pending));
            ops.put("poll", () -> t.poll(pending));
            ops.put("batch", t::batch);
            ops.put("checkOwnerThread", t::checkOwnerThread);
            DoorbellBatch batch = t.batch();
            ops.put("batch entry", () -> batch.fetchAndAdd(remote, 9, 0));
            ops.put("batch post", batch::post);
            for (var op : ops.entrySet()) {
                Throwable e = onThread("intruder", () -> {
                    try {
                        op.getValue().execute();
                    } catch (Throwable x) {
                        throw x instanceof RuntimeException r ? r : new RuntimeException(x);
                    }
                });
                assertTrue(e instanceof ThreadConfinementException, op.getKey() + " from another thread: " + e);
            }
            assertEquals(0, batch.size(), "the refused entry was not added");
            assertEquals(1, t.await(pending), "the owner's handle survived the intruders");
            assertEquals(1, t.read(remote), "nothing was posted");
            assertEquals(1, t.read(local));
            assertNull(onThread("reader", () -> {
                t.nodeId();
                t.config();
                t.segmentBase(2, 1);
                t.segmentLength(0, 0);
                t.segmentCount(1);
                t.isClosed();
            }), "directory queries are open to every thread");
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldBindExactlyOneOwnerWhenThreadsRaceToUseIt(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make)) {
            for (int round = 0; round < 20; round++) {
                ComputeThread t = c.thread(0);
                long w = RemotePtr.offset(t.segmentBase(2, 1), 4096 + 8L * round);
                int racers = 4;
                CyclicBarrier start = new CyclicBarrier(racers);
                CountDownLatch done = new CountDownLatch(racers);
                AtomicInteger owners = new AtomicInteger();
                AtomicInteger refused = new AtomicInteger();
                Thread[] threads = new Thread[racers];
                for (int r = 0; r < racers; r++) {
                    threads[r] = Thread.ofPlatform().name("racer-" + r).start(() -> {
                        try {
                            start.await(10, TimeUnit.SECONDS);
                            t.fetchAndAdd(w, 1);
                            owners.incrementAndGet();
                        } catch (ThreadConfinementException e) {
                            refused.incrementAndGet();
                        } catch (Exception e) {
                            throw new RuntimeException(e);
                        } finally {
                            done.countDown();
                        }
                    });
                }
                assertTrue(done.await(30, TimeUnit.SECONDS));
                for (Thread th : threads) {
                    th.join(30_000);
                }
                assertEquals(1, owners.get(), "round " + round);
                assertEquals(racers - 1, refused.get());
                t.close();
                try (ComputeThread check = c.thread(0)) {
                    assertEquals(1, check.read(w), "only the owner's fetch-and-add happened");
                }
            }
        }
    }
}
