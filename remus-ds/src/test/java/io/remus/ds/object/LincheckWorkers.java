package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simulated cluster for the Lincheck tests, and a compute thread for each thread Lincheck runs
 * operations on. Lincheck creates its worker threads itself (new ones for each iteration), so each
 * one gets its {@link ComputeThread} (and a {@link NeverReclaimer} on it) from a {@link ThreadLocal}
 * on its first call: that thread owns it, as a compute thread requires, and no other thread uses it. Compute
 * threads go round the cluster's three nodes, so operations reach the object's node
 * ({@link WaitFreeContainerTestBase#HOME}) through the simulated NIC and through its CPU. Each object a
 * test class's constructor creates is attached once per worker thread, with a {@link ThreadLocal} of
 * the instance.
 *
 * <p>The simulator stores each 8-byte word of a WRITE as two halves and yields inside its NIC atomics,
 * so that stress mode meets races between RDMA operations more often. It does not yield between the
 * pieces of a transfer, as {@link WaitFreeContainerTestBase#hostile()} does: on a loaded host those
 * yields make each invocation of the queue and the stack cost tens of milliseconds, and the recorded
 * histories of {@link ObjectHistoriesTest} and {@link WaitFreeContainerTestBase} cover them. Retired
 * blocks are never freed ({@link NeverReclaimer}): each test keeps its invocations few enough for the
 * object node's two 8 MiB segments.
 */
final class LincheckWorkers {
    static final int HOME = WaitFreeContainerTestBase.HOME;

    private static TestCluster cluster;
    private static final AtomicInteger NEXT_NODE = new AtomicInteger();
    private static final List<Worker> OPENED = new ArrayList<>();
    private static ThreadLocal<Worker> worker;

    private record Worker(ComputeThread thread, NeverReclaimer reclaimer) {
    }

    private LincheckWorkers() {
    }

    private static Worker open() {
        ComputeThread t = cluster.thread(NEXT_NODE.getAndIncrement() % 3);
        Worker w = new Worker(t, new NeverReclaimer(t));
        synchronized (OPENED) {
            OPENED.add(w);
        }
        return w;
    }

    /** Starts the cluster; a test class's {@code @BeforeAll}. */
    static void start() {
        worker = ThreadLocal.withInitial(LincheckWorkers::open);
        cluster = new TestCluster(SimFabric::new, SimOptions.defaults().withTearWords(true).withYieldInsideNicAtomics(true), 3,
                b -> b.segmentSize(8 << 20));
    }

    /** Closes every compute thread opened, then the cluster; a test class's {@code @AfterAll}. */
    static void stop() {
        synchronized (OPENED) {
            for (Worker w : OPENED) {
                w.reclaimer().close();
                w.thread().close();
            }
            OPENED.clear();
        }
        cluster.close();
        cluster = null;
    }

    /** @return the calling thread's compute thread, opened on its first call */
    static ComputeThread thread() {
        return worker.get().thread();
    }

    /** @return the calling thread's reclaimer, on its compute thread */
    static Reclaimer reclaimer() {
        return worker.get().reclaimer();
    }
}
