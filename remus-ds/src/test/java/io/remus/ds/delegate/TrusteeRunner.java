package io.remus.ds.delegate;

import io.remus.core.ComputeThread;
import io.remus.core.testing.TestCluster;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A trustee serving on its own platform thread, for the tests: it creates the trustee on a node,
 * registers {@link Delegated}'s operations, entrusts {@code cells} cells and serves until
 * {@link #stop(boolean)} (which closes it, or leaves it as if its thread had died). A released cell's final
 * value reads -1.
 */
final class TrusteeRunner implements AutoCloseable {
    private final Thread thread;
    private final CompletableFuture<Long> ptr = new CompletableFuture<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicLong served = new AtomicLong();
    private volatile boolean stop;
    private volatile boolean closeOnStop;
    private volatile long[] finalValues;
    private volatile long orderViolations;
    private final java.util.List<Delegated.Cell> entrusted = new java.util.concurrent.CopyOnWriteArrayList<>();

    TrusteeRunner(TestCluster cluster, int node, int maxClients, int slots, int cells) {
        this(cluster, node, maxClients, slots, cells, Trustee::create);
    }

    TrusteeRunner(TestCluster cluster, int node, int maxClients, int slots, int cells,
                  Maker maker) {
        thread = new Thread(() -> {
            try (ComputeThread t = cluster.thread(node)) {
                Trustee<Delegated.Cell> trustee = maker.make(t, maxClients, slots);
                Delegated.register(trustee);
                for (int i = 0; i < cells; i++) {
                    Delegated.Cell cell = new Delegated.Cell();
                    entrusted.add(cell);
                    trustee.entrust(cell);
                }
                ptr.complete(trustee.ptr());
                while (!stop) {
                    int n = trustee.serveOnce();
                    served.addAndGet(n);
                    if (n == 0) {
                        Thread.yield();
                    }
                }
                orderViolations = trustee.orderViolations();
                long[] values = new long[cells];
                for (int i = 0; i < cells; i++) {
                    values[i] = trustee.references(i) == 0 ? -1 : trustee.property(i).value;
                }
                finalValues = values;
                if (closeOnStop) {
                    trustee.close();
                }
            } catch (Throwable e) {
                failure.set(e);
                ptr.completeExceptionally(e);
            }
        }, "trustee@node" + node);
        thread.setDaemon(true);
        thread.start();
    }

    /** Makes the trustee under test. */
    @FunctionalInterface
    interface Maker {
        Trustee<Delegated.Cell> make(ComputeThread thread, int maxClients, int slots);
    }

    /** @return the trustee's block, once it is created (bounded wait) */
    long ptr() throws Exception {
        return ptr.get(30, TimeUnit.SECONDS);
    }

    /** @return the cells entrusted, by property id */
    java.util.List<Delegated.Cell> cells() {
        return entrusted;
    }

    /** @return the trustee's {@link Trustee#orderViolations()}, once {@link #stop} returned */
    long orderViolations() {
        return orderViolations;
    }

    /** @return requests served so far */
    long served() {
        return served.get();
    }

    /**
     * Stops serving and waits for the thread (bounded), then returns the cells' values.
     *
     * @param close whether the trustee closes (else it just stops, as a dead one)
     */
    long[] stop(boolean close) throws InterruptedException {
        closeOnStop = close;
        stop = true;
        thread.join(30_000);
        if (thread.isAlive()) {
            throw new AssertionError("trustee thread did not stop within 30 s");
        }
        if (failure.get() != null) {
            throw new AssertionError("trustee failed", failure.get());
        }
        return finalValues;
    }

    @Override
    public void close() throws InterruptedException {
        if (!stop) {
            stop(true);
        }
    }
}
