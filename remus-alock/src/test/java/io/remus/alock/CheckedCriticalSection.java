package io.remus.alock;

import io.remus.core.ComputeThread;
import io.remus.core.RemotePtr;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A critical section that detects overlap: an occupancy count in this JVM, a counter in remote
 * memory incremented by a non-atomic read then write, and {@value #STAMPS} words stamped with the
 * entrant's id one by one and read back. Any two threads inside at once show up as a second
 * occupant, a lost increment or a foreign stamp.
 */
final class CheckedCriticalSection {
    static final int STAMPS = 4;

    private final long data;
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicLong overlaps = new AtomicLong();
    private final AtomicLong entries = new AtomicLong();

    /** @param data a zeroed block of {@code 8 * (STAMPS + 1)} bytes: counter, then stamps */
    CheckedCriticalSection(long data) {
        this.data = data;
    }

    void run(ComputeThread t, long id) {
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

    long overlaps() {
        return overlaps.get();
    }

    long entries() {
        return entries.get();
    }

    long counter(ComputeThread t) {
        return t.read(data);
    }
}
