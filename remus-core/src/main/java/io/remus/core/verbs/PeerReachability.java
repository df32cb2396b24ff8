package io.remus.core.verbs;

import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerUnreachableException;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * What this process knows about reaching each node of another process, shared by every connection the
 * fabric makes to it (queue pairs of every compute thread and the region-table reads).
 *
 * <p>A peer never reached may still be starting, so a connection to it keeps trying for the fabric's
 * connect timeout. A peer reached before is not starting: when a new connection to it is needed (a queue
 * pair in the error state is replaced, or a region-table connection failed), its process died, its host
 * stopped, or it refused the queue pair; a new connection then makes one attempt, bounded by the caller's
 * timeout. After a failed attempt, connections to that peer fail at once with
 * {@link PeerUnreachableException} until a back-off has passed: the failed attempt's bound, doubled with
 * each further consecutive failure, up to {@value #MAX_DOUBLINGS} doublings. A successful connection
 * clears the back-off. So a caller that keeps posting to a dead peer blocks in at most one attempt per
 * back-off, and finds out without waiting in between.
 *
 * <p>Thread-safe; control path only.
 */
final class PeerReachability {
    /** How many times the back-off doubles at most. */
    static final int MAX_DOUBLINGS = 4;

    private final Map<Integer, Peer> peers = new HashMap<>();
    private final LongSupplier nanoTime;

    /** With the JDK's monotonic clock. */
    PeerReachability() {
        this(System::nanoTime);
    }

    /** @param nanoTime monotonic nanoseconds (tests give their own) */
    PeerReachability(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    private static final class Peer {
        boolean reached;
        int failures;
        long retryAt;
        String lastFailure;
    }

    /**
     * Decides how long a new connection to {@code peer} may try.
     *
     * @param peer           a node of another process
     * @param connectTimeout the fabric's connect timeout, for a peer never reached
     * @param attemptTimeout the caller's bound on one attempt to a peer reached before
     * @return how long to try, and whether to keep retrying rejections within it
     * @throws PeerUnreachableException when the peer was reached before, a later attempt failed, and its
     *                                  back-off has not passed
     */
    synchronized Budget budget(int peer, Duration connectTimeout, Duration attemptTimeout) {
        Peer p = peers.get(peer);
        if (p == null || !p.reached) {
            return new Budget(connectTimeout, true);
        }
        long wait = p.retryAt - nanoTime.getAsLong();
        if (p.failures > 0 && wait > 0) {
            throw new PeerUnreachableException(CompletionStatus.RETRY_EXCEEDED, peer, "node " + peer
                    + " is unreachable: connecting to it failed " + p.failures + " time(s) in a row (last: "
                    + p.lastFailure + "); the next attempt is in " + Duration.ofNanos(wait).toMillis() + " ms");
        }
        Duration bound = attemptTimeout.compareTo(connectTimeout) < 0 ? attemptTimeout : connectTimeout;
        return new Budget(bound, false);
    }

    /**
     * Records a connection to {@code peer} made: from now on it is a peer reached before, with no back-off.
     *
     * @param peer the node connected to
     */
    synchronized void reached(int peer) {
        Peer p = peers.computeIfAbsent(peer, k -> new Peer());
        p.reached = true;
        p.failures = 0;
        p.lastFailure = null;
    }

    /**
     * Records a failed attempt to connect to {@code peer} within {@code budget}; a peer never reached
     * keeps no back-off (it may still be starting, and its connections wait for it anyway).
     *
     * @param peer   the node
     * @param budget the failed attempt's budget
     * @param cause  why it failed, for later messages
     */
    synchronized void failed(int peer, Budget budget, RuntimeException cause) {
        Peer p = peers.get(peer);
        if (p == null || !p.reached) {
            return;
        }
        long backOff = budget.timeout().toNanos() << Math.min(p.failures, MAX_DOUBLINGS);
        p.failures++;
        p.retryAt = nanoTime.getAsLong() + backOff;
        p.lastFailure = String.valueOf(cause.getMessage());
    }

    /**
     * How long a connection attempt may take.
     *
     * @param timeout how long to try
     * @param retry   whether rejections are retried within it (a peer never reached may still be starting)
     */
    record Budget(Duration timeout, boolean retry) {
    }
}
