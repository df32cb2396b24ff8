package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.error.VirtualTimeBudgetException;
import io.remus.core.error.VirtualTimeDeadlockException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.testing.FlagWait;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link VirtualTimeScheduler}: one thread at a time, ordered by virtual clocks; the same seed gives the same
 * interleaving and figures, other seeds other interleavings; RDMA costs are the cost model's; a run whose threads
 * wait on each other, outlive the virtual budget or block outside the scheduler ends typed. These cases run on
 * {@link Carriers#VIRTUAL} carriers (on JDK 24 or later); {@link VirtualTimeSchedulerPlatformCarriersTest} runs them on
 * platform ones.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VirtualTimeSchedulerTest {
    /** {@return the carriers the cases run on: virtual where the JDK allows them (24 or later), else platform} */
    Carriers carriers() {
        return Carriers.virtualAllowed() ? Carriers.VIRTUAL : Carriers.PLATFORM;
    }

    /** {@return the default options for {@code seed} on {@link #carriers()}} */
    VirtualTimeOptions seed(long seed) {
        return VirtualTimeOptions.seed(seed).withCarriers(carriers());
    }

    private static final long SECOND = 1_000_000_000L;
    private static final SimOptions MODEL = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withStraddleOffset(0);

    /** What one run of {@link #contend} saw: the order of fetch-and-add results per thread, and the run's figures. */
    private record Outcome(List<String> order, long endNanos, long switches) {
    }

    /** Three threads on three nodes take turns at fetch-and-add and compare-and-swap on one word of node 0. */
    Outcome contend(long seed) {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        VirtualTimeRun run = VirtualTimeScheduler.run(seed(seed), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, MODEL, 3, b -> { })) {
                long word = c.block(0, 8);
                List<Thread> workers = new ArrayList<>();
                for (int w = 0; w < 3; w++) {
                    int node = w;
                    Thread t = ThreadTime.newThread("worker-" + w, () -> {
                        try (ComputeThread ct = c.node(node).newComputeThread()) {
                            for (int i = 0; i < 20; i++) {
                                long old = ct.fetchAndAdd(word, 1);
                                ct.compareAndSwap(word, old + 1, old + 1);
                                order.add(node + ":" + old);
                            }
                        }
                    });
                    workers.add(t);
                    t.start();
                }
                for (Thread t : workers) {
                    assertTrue(ThreadTime.join(t, 10 * SECOND), t.getName() + " ended");
                }
                assertEquals(60, c.thread(0).read(word), "every increment landed");
            }
        });
        return new Outcome(List.copyOf(order), run.endNanos(), run.switches());
    }

    @Test
    void shouldReplayTheSameInterleavingAndFiguresFromTheSameSeed() {
        Outcome first = contend(7);
        Outcome second = contend(7);
        assertEquals(first.order(), second.order(), "same seed, same order of operations");
        assertEquals(first.endNanos(), second.endNanos(), "same seed, same virtual end time");
        assertEquals(first.switches(), second.switches(), "same seed, same number of switches");
        assertEquals(60, first.order().size());
    }

    @Test
    void shouldExploreOtherInterleavingsFromOtherSeeds() {
        Set<List<String>> orders = new HashSet<>();
        for (long seed = 1; seed <= 6; seed++) {
            orders.add(contend(seed).order());
        }
        assertTrue(orders.size() > 1, "six seeds gave one interleaving only");
    }

    @Test
    void shouldChargeEachRoundTripTheCostModelsTimeInVirtualTime() {
        int reads = 50;
        VirtualTimeRun run = VirtualTimeScheduler.run(seed(1), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, MODEL, 2, b -> { })) {
                long word = c.block(1, 8);
                ComputeThread t = c.thread(0);
                long start = ThreadTime.nanoTime();
                for (int i = 0; i < reads; i++) {
                    t.read(word);
                }
                long took = ThreadTime.nanoTime() - start;
                long roundTrip = SimCostModel.CONNECTX5.readWriteRoundTripNanos();
                // Each READ completes a round trip after its post; its poller notices within one wait-loop check.
                assertTrue(took >= reads * roundTrip, "took " + took + " ns of virtual time");
                assertTrue(took <= reads * (roundTrip + 2 * seed(1).spinNanos()),
                        "took " + took + " ns of virtual time");
            }
        });
        assertTrue(run.endNanos() > 0);
    }

    @Test
    void shouldRunOneThreadAtATimeBetweenWaits() {
        int[] counter = new int[1];
        VirtualTimeScheduler.run(seed(3), () -> {
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                Thread t = ThreadTime.newThread("incrementer-" + w, () -> {
                    for (int i = 0; i < 200; i++) {
                        int seen = counter[0];
                        for (int spin = 0; spin < 2_000; spin++) {
                            Thread.onSpinWait();           // host work, not a wait point: nobody else runs
                        }
                        counter[0] = seen + 1;
                        ThreadTime.yield();                // a wait point: others may run
                    }
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                assertTrue(ThreadTime.join(t, 10 * SECOND));
            }
        });
        assertEquals(800, counter[0], "no increment was lost: no two threads ran at once");
    }

    @Test
    void shouldEndARunWhoseThreadsWaitOnEachOtherNamingThem() {
        VirtualTimeDeadlockException e = assertThrows(VirtualTimeDeadlockException.class, () ->
                VirtualTimeScheduler.run(seed(5).withQuietNanos(SECOND), () -> {
                    boolean[] flags = new boolean[2];
                    Thread a = ThreadTime.newThread("waits-for-b", () -> {
                        while (!flags[1]) {
                            ThreadTime.onSpinWait("flag of b");
                        }
                        flags[0] = true;
                    });
                    Thread b = ThreadTime.newThread("waits-for-a", () -> {
                        while (!flags[0]) {
                            ThreadTime.onSpinWait("flag of a");
                        }
                        flags[1] = true;
                    });
                    a.start();
                    b.start();
                    ThreadTime.join(a, Long.MAX_VALUE / 4);
                }));
        assertEquals(5, e.seed());
        String m = e.getMessage();
        assertTrue(m.contains("waits-for-b") && m.contains("flag of b") && m.contains("waits-for-a")
                && m.contains("flag of a") && m.contains("vt-main"), m);
    }

    @Test
    void shouldEndARunPastItsVirtualBudget() {
        VirtualTimeBudgetException e = assertThrows(VirtualTimeBudgetException.class, () ->
                VirtualTimeScheduler.run(seed(2).withVirtualBudgetNanos(1_000_000), () -> {
                    while (true) {
                        ThreadTime.charge(1_000);
                    }
                }));
        assertTrue(e.getMessage().contains("virtual-time budget of 1000000 ns"), e.getMessage());
    }

    @Test
    void shouldEndARunWhoseThreadBlocksOutsideTheScheduler() {
        CountDownLatch never = new CountDownLatch(1);
        VirtualTimeBudgetException e = assertThrows(VirtualTimeBudgetException.class, () ->
                VirtualTimeScheduler.run(seed(4).withHostBudget(Duration.ofSeconds(2)), () -> {
                    never.await();
                }));
        assertTrue(e.getMessage().contains("host budget") && e.getMessage().contains("vt-main")
                && e.getMessage().contains("running"), e.getMessage());
        never.countDown();
    }

    @Test
    void shouldRethrowAThreadsFailureWithTheSeed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () ->
                VirtualTimeScheduler.run(seed(11), () -> {
                    Thread t = ThreadTime.newThread("fails", () -> {
                        throw new IllegalStateException("boom");
                    });
                    t.start();
                    ThreadTime.join(t, SECOND);
                }));
        assertEquals("boom", e.getMessage());
        assertTrue(e.getSuppressed().length == 1 && e.getSuppressed()[0].getMessage().contains("seed 11"));
    }

    @Test
    void shouldRunNicAtomicsThatYieldInsideTheNicWithoutBlockingTheRun() {
        // No cost model: every atomic is due at once, so one yields inside the NIC while others wait for its lock.
        SimOptions hostile = SimOptions.defaults().withStraddleOffset(0).withYieldInsideNicAtomics(true);
        VirtualTimeScheduler.run(seed(13).withHostBudget(Duration.ofSeconds(20)), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, hostile, 2, b -> { })) {
                long word = c.block(0, 8);
                List<Thread> workers = new ArrayList<>();
                for (int w = 0; w < 4; w++) {
                    int node = w % 2;
                    Thread t = ThreadTime.newThread("adder-" + w, () -> {
                        try (ComputeThread ct = c.node(node).newComputeThread()) {
                            for (int i = 0; i < 25; i++) {
                                ct.fetchAndAdd(word, 1);
                            }
                        }
                    });
                    workers.add(t);
                    t.start();
                }
                for (Thread t : workers) {
                    assertTrue(ThreadTime.join(t, 10 * SECOND), t.getName() + " ended");
                }
                assertEquals(100, c.thread(0).read(word), "NIC atomics stay atomic among themselves");
            }
        });
    }

    @Test
    void shouldChargeACpuAccessOfTheNodesOwnMemoryTheLocalAccessTime() {
        VirtualTimeScheduler.run(seed(1).withSpinNanos(100), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, MODEL, 1, b -> { })) {
                long word = c.block(0, 8);
                ComputeThread t = c.thread(0);
                long start = ThreadTime.nanoTime();
                for (int i = 0; i < 10; i++) {
                    t.writeLocal(word, i);
                    t.readLocal(word);
                }
                assertEquals(20 * 100, ThreadTime.nanoTime() - start, "20 local accesses at 100 ns each");
            }
        });
    }

    @Test
    void shouldWakeAParkedThreadAtItsWakersTime() {
        VirtualTimeScheduler.run(seed(9), () -> {
            Thread main = Thread.currentThread();
            long[] wokeAt = new long[1];
            Thread waker = ThreadTime.newThread("waker", () -> {
                ThreadTime.charge(5_000);
                ThreadTime.unpark(main);
            });
            waker.start();
            ThreadTime.parkNanos(this, SECOND);
            wokeAt[0] = ThreadTime.nanoTime();
            assertEquals(5_000, wokeAt[0], "woken when the waker unparked it, not at its timeout");
            assertTrue(ThreadTime.join(waker, SECOND));
        });
    }

    @Test
    void shouldReturnFromAJoinWhenTheJoinedThreadEnds() {
        VirtualTimeScheduler.run(seed(17), () -> {
            Thread worker = ThreadTime.newThread("worker", () -> ThreadTime.charge(5_000));
            worker.start();
            assertTrue(ThreadTime.join(worker, SECOND));
            assertEquals(5_000, ThreadTime.nanoTime(), "the join returned when the worker ended, not at its timeout");
        });
    }

    @Test
    void shouldNameWhereEachThreadWaitsWhenTheyWaitOnEachOther() {
        VirtualTimeDeadlockException e = assertThrows(VirtualTimeDeadlockException.class, () ->
                VirtualTimeScheduler.run(seed(6).withQuietNanos(SECOND), () -> {
                    boolean[] flags = new boolean[2];
                    Thread a = ThreadTime.newThread("first", () -> FlagWait.await(flags, 1, "flag 1"));
                    a.start();
                    FlagWait.await(flags, 0, "flag 0");
                }));
        String m = e.getMessage();
        assertTrue(m.contains("first") && m.contains("vt-main") && m.contains("flag 1") && m.contains("flag 0"), m);
        assertEquals(2, m.split("FlagWait\\.await", -1).length - 1, "both threads' frames named: " + m);
    }

    @Test
    void shouldRunItsThreadsOnTheCarriersAsked() {
        boolean virtual = carriers() == Carriers.VIRTUAL;
        List<Boolean> seen = Collections.synchronizedList(new ArrayList<>());
        VirtualTimeScheduler.run(seed(8), () -> {
            seen.add(Thread.currentThread().isVirtual());
            seen.add(ThreadTime.isScheduled());
            Thread t = ThreadTime.newThread("child", () -> {
                seen.add(Thread.currentThread().isVirtual());
                seen.add(ThreadTime.isScheduled());
            });
            seen.add(t.isVirtual());
            t.start();
            assertTrue(ThreadTime.join(t, SECOND));
        });
        assertEquals(List.of(virtual, true, virtual, virtual, true), seen);
        assertTrue(!ThreadTime.isScheduled(), "the caller of run is a host thread");
    }

    @Test
    void shouldRefuseCarriersItDoesNotKnow() {
        BadArgumentException e = assertThrows(BadArgumentException.class, () -> Carriers.parse("green"));
        assertTrue(e.getMessage().contains("green"), e.getMessage());
        assertEquals(Carriers.VIRTUAL, Carriers.parse(" virtual "));
        if (Runtime.version().feature() >= 24) {
            assertEquals(Carriers.VIRTUAL, VirtualTimeOptions.seed(1).withCarriers(Carriers.VIRTUAL).carriers());
        } else {
            assertThrows(BadArgumentException.class, () -> VirtualTimeOptions.seed(1).withCarriers(Carriers.VIRTUAL),
                    "virtual carriers before JDK 24");
        }
    }

    @Test
    void shouldGiveTheSameRunOnPlatformAndVirtualCarriers() {
        for (long seed = 1; seed <= 4; seed++) {
            Carriers mine = carriers();
            Carriers other = mine == Carriers.VIRTUAL ? Carriers.PLATFORM : Carriers.VIRTUAL;
            Outcome a = contend(seed);
            Outcome b = contendOn(seed, other);
            assertEquals(a.order(), b.order(), "seed " + seed + ": same order on " + mine + " and " + other);
            assertEquals(a.endNanos(), b.endNanos(), "seed " + seed + ": same virtual end time");
            assertEquals(a.switches(), b.switches(), "seed " + seed + ": same number of switches");
        }
    }

    @Test
    void shouldRegisterStartedThreadsAsPlatformCarriersDo() {
        // Threads started right before a join, an unpark, a spin and the body's end; one created and never started;
        // a thread that starts its own. Every start draws a tie; the trace must not depend on the carriers.
        List<String> virtual = startTrace(carriers());
        List<String> platform = startTrace(Carriers.PLATFORM);
        assertEquals(platform, virtual, "same trace on both carriers");
        assertTrue(virtual.contains("never-started alive=false"), virtual.toString());
    }

    private List<String> startTrace(Carriers kind) {
        List<String> trace = Collections.synchronizedList(new ArrayList<>());
        VirtualTimeRun run = VirtualTimeScheduler.run(VirtualTimeOptions.seed(21).withCarriers(kind), () -> {
            Thread never = ThreadTime.newThread("never-started", () -> trace.add("never ran"));
            List<Thread> all = new ArrayList<>();
            for (int w = 0; w < 6; w++) {
                int id = w;
                Thread t = ThreadTime.newThread("starter-" + w, () -> {
                    ThreadTime.charge(10);
                    if (id % 2 == 0) {
                        Thread child = ThreadTime.newThread("child-" + id, () -> trace.add("child-" + id + " at "
                                + ThreadTime.nanoTime()));
                        child.start();
                    }
                    trace.add("starter-" + id + " at " + ThreadTime.nanoTime());
                });
                all.add(t);
                t.start();
                switch (w % 3) {
                    case 0 -> ThreadTime.onSpinWait();
                    case 1 -> ThreadTime.unpark(all.get(0));
                    default -> ThreadTime.charge(0);
                }
            }
            Thread joined = ThreadTime.newThread("joined", () -> trace.add("joined at " + ThreadTime.nanoTime()));
            joined.start();
            assertTrue(ThreadTime.join(joined, SECOND));
            trace.add("join returned at " + ThreadTime.nanoTime());
            assertTrue(!ThreadTime.join(never, 1_000), "a thread never started never ends");
            trace.add("never-started alive=" + never.isAlive());
            Thread last = ThreadTime.newThread("last", () -> trace.add("last at " + ThreadTime.nanoTime()));
            last.start();
        });
        trace.add("end " + run.endNanos() + " switches " + run.switches() + " threads " + run.threads());
        return List.copyOf(trace);
    }

    private static Outcome contendOn(long seed, Carriers kind) {
        VirtualTimeSchedulerTest other = kind == Carriers.PLATFORM ? new VirtualTimeSchedulerPlatformCarriersTest()
                : new VirtualTimeSchedulerTest();
        return other.contend(seed);
    }
}
