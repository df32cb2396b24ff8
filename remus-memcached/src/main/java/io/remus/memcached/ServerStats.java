package io.remus.memcached;

import java.util.concurrent.atomic.AtomicLong;

/** The counters one server reports to {@code stats}: its own connections and commands, not the cluster's. */
final class ServerStats {
    final long startedAt;
    final AtomicLong currConnections = new AtomicLong();
    final AtomicLong totalConnections = new AtomicLong();
    final AtomicLong rejectedConnections = new AtomicLong();
    final AtomicLong cmdGet = new AtomicLong();
    final AtomicLong cmdSet = new AtomicLong();
    final AtomicLong cmdTouch = new AtomicLong();
    final AtomicLong cmdFlush = new AtomicLong();
    final AtomicLong getHits = new AtomicLong();
    final AtomicLong getMisses = new AtomicLong();

    ServerStats(long startedAt) {
        this.startedAt = startedAt;
    }

    /** {@code stats reset}: zeroes the command counters (memcached keeps the connection counts). */
    void reset() {
        for (AtomicLong c : new AtomicLong[] {cmdGet, cmdSet, cmdTouch, cmdFlush, getHits, getMisses, rejectedConnections}) {
            c.set(0);
        }
    }
}
