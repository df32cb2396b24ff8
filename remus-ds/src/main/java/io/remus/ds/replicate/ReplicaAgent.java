package io.remus.ds.replicate;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One member's failure detector and leader elector, after Mu's leader election (Aguilera, Ben-David,
 * Guerraoui, Marathe, Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020):
 * every member increments a heartbeat counter in its own memory, reads the others' counters with RDMA READs,
 * suspects a member whose counter stops advancing, and takes the live member of the lowest node id as leader
 * (a member whose log is {@linkplain LogReplica#recovering recovering} is passed over).
 * It then lets that leader write its log through Mu's permission switch ({@link LogReplica#grantWriteTo}).
 *
 * <p><b>Polling.</b> The member's own thread calls {@link #poll()}; nothing runs in the background. One poll
 * increments this member's heartbeat word ({@link LogLayout#HEARTBEAT}, a CPU store), collects the READs of
 * the earlier poll that have completed, and posts one READ of 24 bytes (heartbeat, candidate and promised
 * words; 48 bytes from the shape word, whose recovering bit it notes, for a member whose node restarted until its
 * log is no longer recovering) to every other member whose READ is not in flight: <b>at most {@code 2f} READs per poll and no
 * wait</b> (a poll never blocks on the fabric; a READ's round trip spans polls). A member is suspected once
 * {@code suspectAfter} of its READs in a row came back with the same heartbeat, or as soon as a READ of it
 * fails (it stopped answering); a suspected member whose heartbeat advances again is trusted again.
 *
 * <p><b>Granting.</b> A leader asks for the group by publishing a candidate term in its own log's header
 * ({@link LogLeader#takeOver}). A poll grants write access to the elected leader for its candidate term only
 * when that term is above every term this member granted before (its promised word): the grant then revokes
 * every other member's write access, grants the leader's, and stores the term in the promised word (so the
 * leader can READ that the switch has completed). Promised terms only grow, as a Paxos acceptor's promises do:
 * a leader that lost this member's grant never gets it back for the same term, so its later WRITEs here are
 * refused. Until the elected leader asks with a higher term, the grant stays where it was. A member made anew by
 * {@link LogReplica#rejoin} starts with the promised term it learned and no grant: it grants the elected leader that
 * same term once (terms belong to one member each, so it renews a promise that member already holds).
 *
 * <p><b>Restarted members.</b> A READ that finds a member's node restarted
 * ({@link io.remus.core.error.PeerRestartedException}) makes the poll look the member's log up again by name in its
 * node's directory (the lookup's READs, waiting for each); until the member publishes its new log it stays
 * suspected and is looked up again on each poll.
 *
 * <p>Wait-free: a poll does a bounded amount of work. Uses the first {@code 48 * (2f + 1)} bytes of its
 * compute thread's buffer for the READs, so a {@link LogLeader}, which stages slots in its thread's buffer,
 * runs on another compute thread of the node. Confined to the owner of the replica's compute thread.
 */
public final class ReplicaAgent implements AutoCloseable {
    /** Open agents by their member's own log pointer; see {@link #ofLog}. */
    private static final Map<Long, WeakReference<ReplicaAgent>> BY_LOG = new HashMap<>();

    /**
     * Bytes of buffer per member: room for the READ of a restarted member's header from its shape word through its
     * promised word; other members' READs take the heartbeat, candidate and promised words ({@link #BEAT_BYTES}).
     */
    private static final int WORDS = LogLayout.PROMISED + 8;
    /** Bytes of the usual READ: heartbeat, candidate and promised words. */
    private static final int BEAT_BYTES = 24;

    private final ComputeThread thread;
    private final LogReplica replica;
    private final ReplicaGroup group;
    private final int self;
    private final long[] logs;
    private final int suspectAfter;
    private final long[] handle;
    private final long[] lastBeat;
    private final int[] still;
    private final boolean[] suspected;
    private final long[] candidate;
    private final long[] promised;
    /** Per member: its log carried the recovering bit at the last READ of its shape word. */
    private final boolean[] recovering;
    /** Per member: its node restarted and its log was still recovering at the last look, so READs take its shape word. */
    private final boolean[] watch;
    /** Per member: the READ in flight takes its shape word too. */
    private final boolean[] shapeRead;
    private int leader;
    private long polls;
    private long reads;
    private long failedReads;
    private long grantSwitches;
    private long lookups;

    private ReplicaAgent(LogReplica replica, long[] logs, int suspectAfter) {
        this.replica = replica;
        this.thread = replica.thread();
        this.group = replica.group();
        this.self = group.indexOf(thread.nodeId());
        this.logs = logs;
        this.suspectAfter = suspectAfter;
        int n = group.size();
        this.handle = new long[n];
        this.lastBeat = new long[n];
        this.still = new int[n];
        this.suspected = new boolean[n];
        this.candidate = new long[n];
        this.promised = new long[n];
        this.recovering = new boolean[n];
        this.watch = new boolean[n];
        this.shapeRead = new boolean[n];
        java.util.Arrays.fill(handle, -1);
        java.util.Arrays.fill(lastBeat, -1);
        this.leader = lowestTrusted();
    }

    /**
     * Opens the agent of {@code replica}: looks up every other member's log by name in that member's
     * {@link NameDirectory} (the directory's READs; waiting up to the timeout for members that have not created
     * it yet). Call on the replica's compute thread.
     *
     * @param replica      this member's replica
     * @param name         the log's name, as given to {@link LogReplica#create}
     * @param suspectAfter how many READs in a row must show a member's heartbeat unchanged before it is
     *                     suspected, at least 1
     * @param timeout      how long to wait for the members' logs to be published
     * @return the agent; until its first poll it trusts every member
     * @throws BadArgumentException naming the node and both logs, when another log on the replica's node has an
     *                              agent or granted a leader (a grant is the node's: one fail-over log per node),
     *                              with nothing READ; naming the value, for {@code suspectAfter} below 1 or a thread buffer smaller
     *                              than one READ per member
     * @throws io.remus.core.error.NameNotPublishedException when a member's log is not published in time
     */
    public static ReplicaAgent open(LogReplica replica, String name, int suspectAfter, Duration timeout) {
        Objects.requireNonNull(replica, "replica");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timeout, "timeout");
        if (suspectAfter < 1) {
            throw new BadArgumentException("suspectAfter must be at least 1 READ, got " + suspectAfter);
        }
        ComputeThread thread = replica.thread();
        thread.checkOwnerThread();
        ReplicaGroup group = replica.group();
        if (thread.buffer().byteSize() < (long) WORDS * group.size()) {
            throw new BadArgumentException("an agent of " + group.size() + " members needs " + WORDS * group.size()
                    + " bytes of its thread's buffer, it has " + thread.buffer().byteSize());
        }
        NodeGrants.claimForAgent(replica.node(), thread.nodeId(), group.plane(), replica.name());
        long[] logs = new long[group.size()];
        long start = io.remus.core.time.ThreadTime.nanoTime();
        try {
            for (int i = 0; i < group.size(); i++) {
                if (group.member(i) == thread.nodeId()) {
                    logs[i] = replica.ptr();
                } else {
                    Duration left = timeout.minusNanos(io.remus.core.time.ThreadTime.nanoTime() - start);
                    logs[i] = NameDirectory.open(thread, group.member(i)).await(name, left.isNegative() ? Duration.ZERO : left);
                }
            }
        } catch (RuntimeException e) {
            NodeGrants.release(replica.node(), replica.name());
            throw e;
        }
        ReplicaAgent agent = new ReplicaAgent(replica, logs, suspectAfter);
        synchronized (BY_LOG) {
            BY_LOG.put(replica.ptr(), new WeakReference<>(agent));
        }
        return agent;
    }

    /**
     * {@return the open agent of the member whose own log is at {@code log}, or null}: a hint for
     * {@link LogLeader#takeOver} on another thread of the same node, which reads its suspicions racily.
     */
    static ReplicaAgent ofLog(long log) {
        synchronized (BY_LOG) {
            WeakReference<ReplicaAgent> ref = BY_LOG.get(log);
            return ref == null ? null : ref.get();
        }
    }

    /**
     * One step of the failure detector and the elector (see the class comment): increments this member's
     * heartbeat, collects completed READs, posts a READ of the heartbeat, candidate and promised words to every
     * other member whose READ is not in flight, elects the lowest trusted node, and switches this member's grant
     * to it when it asks with a term above this member's promise. At most {@code 2f} READs of 24 (48 for a restarted member) bytes posted,
     * no wait; a grant switch is {@link LogReplica#grantWriteTo} (no RDMA operation). Wait-free on the simulator
     * and shm; on verbs a READ posted to a member whose queue pair is in error first reconnects it, which waits
     * up to the fabric's connect timeout for a dead member (a failed post counts as a failed READ).
     *
     * @return the node this member now takes as leader
     */
    public int poll() {
        thread.checkOwnerThread();
        polls++;
        replica.beat();
        MemorySegment buf = thread.buffer();
        for (int i = 0; i < group.size(); i++) {
            if (i == self) {
                continue;
            }
            if (handle[i] >= 0 && thread.poll(handle[i])) {
                long h = handle[i];
                handle[i] = -1;
                try {
                    thread.await(h);
                    long off = (long) i * WORDS;
                    if (shapeRead[i]) {
                        recovering[i] = (buf.get(ValueLayout.JAVA_LONG, off) & LogLayout.RECOVERING) != 0;
                        watch[i] = recovering[i];
                        off += LogLayout.HEARTBEAT;
                    }
                    long beat = buf.get(ValueLayout.JAVA_LONG, off);
                    candidate[i] = buf.get(ValueLayout.JAVA_LONG, off + 8);
                    promised[i] = buf.get(ValueLayout.JAVA_LONG, off + 16);
                    if (beat != lastBeat[i]) {
                        lastBeat[i] = beat;
                        still[i] = 0;
                        suspected[i] = false;
                    } else if (++still[i] >= suspectAfter) {
                        suspected[i] = true;
                    }
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    failedReads++;
                    suspected[i] = true;
                }
            }
            if (handle[i] < 0) {
                try {
                    if (logs[i] == RemotePtr.NULL && !lookUpAgain(i)) {
                        suspected[i] = true;
                        continue;
                    }
                    shapeRead[i] = watch[i];
                    handle[i] = watch[i]
                            ? thread.readAsync(logs[i] + LogLayout.SHAPE, (long) i * WORDS, WORDS, false)
                            : thread.readAsync(logs[i] + LogLayout.HEARTBEAT, (long) i * WORDS, BEAT_BYTES, false);
                    reads++;
                } catch (PeerRestartedException e) {
                    // the member's node restarted: its log is a new one (LogReplica.rejoin), looked up by name
                    failedReads++;
                    suspected[i] = true;
                    logs[i] = RemotePtr.NULL;
                    lookUpAgain(i);
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    // the post itself failed: on verbs, reconnecting a queue pair in error to a dead peer
                    failedReads++;
                    suspected[i] = true;
                }
            }
        }
        leader = lowestTrusted();
        int li = group.indexOf(leader);
        long asked = li == self ? replica.candidate() : candidate[li];
        long promisedNow = replica.promised();
        if (asked > promisedNow || (asked == promisedNow && asked > 0 && replica.grantedTo() < 0)) {
            replica.promise(leader, asked);
            grantSwitches++;
        }
        return leader;
    }

    /**
     * Looks member {@code i}'s log up again by name in its node's directory (the lookup's READs: 1 for a name not
     * bound yet, 2 for a bound one), after its node restarted; {@return whether it is published now}. A member
     * whose log is not found yet stays suspected and is looked up again on the next poll.
     */
    private boolean lookUpAgain(int i) {
        try {
            long ptr = NameDirectory.open(thread, group.member(i)).lookup(replica.name());
            if (ptr == RemotePtr.NULL) {
                return false;
            }
            logs[i] = ptr;
            watch[i] = true;
            lastBeat[i] = -1;
            still[i] = 0;
            lookups++;
            return true;
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            failedReads++;
            return false;
        }
    }

    /** {@return how many times a poll looked a restarted member's log up again by name} */
    public long lookups() {
        return lookups;
    }

    /**
     * The trusted member of the lowest node id whose log is not recovering ({@link LogReplica#rejoin}: it is no
     * source for a takeover until a leader caught it up); this member itself when there is none.
     */
    private int lowestTrusted() {
        int best = -1;
        for (int i = 0; i < group.size(); i++) {
            boolean electable = i == self ? !replica.recovering() : !suspected[i] && !recovering[i];
            if (electable && (best < 0 || group.member(i) < best)) {
                best = group.member(i);
            }
        }
        return best < 0 ? thread.nodeId() : best;
    }

    /** {@return this member's node} */
    public int nodeId() {
        return thread.nodeId();
    }

    /** {@return the node the last poll took as leader: the trusted member of the lowest node id} */
    public int leader() {
        return leader;
    }

    /**
     * {@return whether this agent suspects {@code nodeId} (never itself)}
     *
     * @param nodeId a member
     * @throws BadArgumentException naming the node when it is not a member
     */
    public boolean isSuspected(int nodeId) {
        return suspected[group.requireMember(nodeId, "member")];
    }

    /**
     * {@return the candidate term {@code nodeId} published, as the last completed READ of it saw (this node's
     *          own from its log)}
     *
     * @param nodeId a member
     * @throws BadArgumentException naming the node when it is not a member
     */
    public long candidateOf(int nodeId) {
        int i = group.requireMember(nodeId, "member");
        return i == self ? replica.candidate() : candidate[i];
    }

    /** {@return the polls made so far} */
    public long polls() {
        return polls;
    }

    /** {@return the heartbeat READs posted so far} */
    public long reads() {
        return reads;
    }

    /** {@return the heartbeat READs that failed (the member stopped answering)} */
    public long failedReads() {
        return failedReads;
    }

    /** {@return how many times a poll switched this member's grant to a leader's higher term} */
    public long grantSwitches() {
        return grantSwitches;
    }

    /**
     * Waits for the READs still in flight (each bounded by the compute thread's operation timeout; failures are
     * counted, not thrown), so the compute thread can be closed. No new operation.
     */
    @Override
    public void close() {
        thread.checkOwnerThread();
        for (int i = 0; i < group.size(); i++) {
            if (handle[i] >= 0) {
                try {
                    thread.await(handle[i]);
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    failedReads++;
                }
                handle[i] = -1;
            }
        }
        NodeGrants.release(replica.node(), replica.name());
        synchronized (BY_LOG) {
            WeakReference<ReplicaAgent> ref = BY_LOG.get(replica.ptr());
            if (ref != null && ref.get() == this) {
                BY_LOG.remove(replica.ptr());
            }
        }
    }
}
