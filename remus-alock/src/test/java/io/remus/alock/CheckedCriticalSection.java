package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A critical section that detects overlap: an occupancy count in this JVM, a counter in remote
 * memory incremented by a non-atomic read then write, and {@value #STAMPS} words stamped with the
 * entrant's id one by one and read back. Any two threads inside at once show up as a second
 * occupant, a lost increment or a foreign stamp.
 */
public final class CheckedCriticalSection {
    /** Stamp words after the counter. */
    public static final int STAMPS = 4;

    private final long data;
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicLong overlaps = new AtomicLong();
    private final AtomicLong entries = new AtomicLong();

    /** @param data a zeroed block of {@code 8 * (STAMPS + 1)} bytes: counter, then stamps */
    public CheckedCriticalSection(long data) {
        this.data = data;
    }

    /**
     * Runs the section; call it only while holding the lock that guards {@code data}.
     *
     * @param t  the caller's compute thread
     * @param id the caller's id, unique in the cluster
     */
    public void run(ComputeThread t, long id) {
        entries.incrementAndGet();
        if (inside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        long counter = t.read(data);
        for (int i = 1; i <= STAMPS; i++) {
            t.write(RemotePtr.offset(data, 8L * i), id);
        }
        Thread.yield();
        for (int i = 1; i <= STAMPS; i++) {
            if (t.read(RemotePtr.offset(data, 8L * i)) != id) {
                overlaps.incrementAndGet();
            }
        }
        t.write(data, counter + 1);
        inside.decrementAndGet();
    }

    /** @return overlaps seen in this JVM (second occupants and foreign stamps) */
    public long overlaps() {
        return overlaps.get();
    }

    /** @return entries in this JVM */
    public long entries() {
        return entries.get();
    }

    /** @param t any compute thread @return the shared counter: entries of every process, less lost updates */
    public long counter(ComputeThread t) {
        return t.read(data);
    }
}
