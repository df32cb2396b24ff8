package io.remus.memcached;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.LeaderFencedException;
import io.remus.ds.replicate.LogLeader;
import io.remus.ds.replicate.LogReplica;
import io.remus.ds.replicate.ReplicaAgent;
import io.remus.ds.replicate.ReplicaGroup;
import io.remus.ds.replicate.SnapshotSchedule;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

/**
 * One member's server of one shard of a replicated memcached store: its copy of the shard's replicated log
 * ({@link LogReplica}, Mu: Aguilera et al., "Microsecond Consensus for Microsecond Applications", OSDI 2020), the
 * {@link ReplicatedItemMachine} the log is applied to, its failure detector ({@link ReplicaAgent}) and, while it
 * leads, a {@link LogLeader}. The server is the SMR core of the store; how a request reaches it is its caller's:
 * {@link #submit} takes requests from any Java thread of this process, and {@link #runOnce} serves them on the
 * server's own thread.
 *
 * <p><b>Serving.</b> A member that does not lead answers {@link Status#NOT_LEADER} with the member its agent
 * elects. The leader serves each request in turn: a request whose (client, sequence) the session table already
 * applied is answered from it; any other is stamped with the leader's clock reading, appended as one entry
 * ({@link ReplicatedItemMachine#encode}, {@link LogLeader#append}), committed ({@link LogLeader#flushCommit}) and
 * applied ({@link LogReplica#awaitApplied}), and answered with its result from the session table. Gets go through
 * the log too, so every command is linearizable (it takes effect at its entry's place in the log). A leader whose
 * append is refused ({@link LeaderFencedException}) or misses its majority within the commit timeout stops
 * leading and answers {@link Status#RETRY}; the client retries with the same sequence, on the next leader.
 *
 * <p><b>Leader change</b> (Mu's election and change, as {@code io.remus.ds.index.IndexShardServer} does it). Each
 * {@link #runOnce} first polls the agent; a member that elects itself and does not lead takes the log over
 * ({@link LogLeader#takeOver}: a higher term, a majority's promises, the log recovered from them), applies the
 * recovered log, so that its session table holds every command an earlier leader committed, and only then serves:
 * a retried command whose entry survived is answered from the table; one whose entry reached no majority is
 * appended afresh. Each command therefore takes effect once.
 *
 * <p><b>Costs per command at the leader</b> (3 members, log not wrapped): the append's 2 WRITEs and one round
 * trip, the commit flush's 2 WRITEs and one round trip: <b>2 round trips and 4 WRITEs</b>; followers post no RDMA
 * operation to apply. A takeover costs what {@link LogLeader#takeOver} says (name lookups, term, promise and log
 * READs, rewrite WRITEs); detection a failed heartbeat READ or {@code suspectAfter} unchanged ones.
 *
 * <p><b>Snapshots.</b> The log has a snapshot region ({@link LogReplica#create(RemusNode, ComputeThread,
 * ReplicaGroup, String, int, int, int, io.remus.ds.replicate.StateMachine)}), and each {@link #runOnce}, after
 * applying, stores an image of the state machine there ({@link ReplicatedItemMachine#snapshot},
 * {@link LogReplica#takeSnapshot}) once {@code snapshotEvery} entries were applied since the last one: CPU work
 * of O(items + clients), <b>no RDMA operation</b>. A follower further behind than the ring (its thread held up
 * while the leader went on) is brought back by the leader's catch-up from the leader member's latest image
 * ({@link LogLeader#reattach}: one 8-byte WRITE, one WRITE per chunk of the image, one descriptor WRITE, then one
 * WRITE per entry after the image), and a new leader behind the ring recovers from a member's image
 * ({@link LogLeader#takeOver}); without images neither could happen and such a member would stay behind for good.
 * An image larger than the region is refused and counted ({@link #snapshotsRefused}); the region keeps its older
 * image and the server serves on.
 *
 * <p><b>Item size.</b> An entry is {@value ReplicatedItemMachine#HEADER_BYTES} bytes of header, the key and the
 * value; the log's entries are {@code maxItemBytes + HEADER_BYTES + 250} bytes, so any value of up to
 * {@code maxItemBytes} fits with any key.
 *
 * <p><b>Progress.</b> Blocking: {@link #runOnce} is bounded by its commit timeout per request plus a takeover's
 * timeout. A command completes once a majority of the shard's members is up and connected and one of them
 * leads; with {@code f = 1}, one crashed member is tolerated. {@link #submit} is lock-free (a
 * {@link ConcurrentLinkedQueue}). Confined to its thread otherwise.
 */
public final class ReplicatedCacheShard implements AutoCloseable {
    /** What a request's answer says. */
    public enum Status {
        /** Applied (now or earlier); the result is the command's. */
        OK,
        /** This member does not lead; the answer names the member it believes leads, -1 when none. */
        NOT_LEADER,
        /** This member led but could not commit in time; retry with the same sequence. */
        RETRY,
        /** The client already moved past this sequence: its reply is gone. */
        STALE
    }

    /**
     * Polls between two catch-ups of detached followers by a leader; the first comes at the poll after a takeover,
     * so a member that had not promised yet is attached while the ring still holds the whole log.
     */
    static final int CATCH_UP_EVERY = 32;

    /**
     * The snapshot region's image capacity of the overloads that take none: 256 KiB less the region's 64-byte
     * descriptor, one 256 KiB block of the node's allocator.
     */
    public static final int DEFAULT_SNAPSHOT_BYTES = (256 << 10) - 64;

    private final ComputeThread thread;
    private final ComputeThread leaderThread;
    private final ReplicaGroup group;
    private final String logName;
    private final LogReplica replica;
    private final ReplicatedItemMachine machine;
    private final ReplicaAgent agent;
    private final LongSupplier clock;
    private final Duration commitTimeout;
    private final Duration takeoverTimeout;
    private final ConcurrentLinkedQueue<Request> inbox = new ConcurrentLinkedQueue<>();
    private LogLeader leader;
    private volatile int knownLeader = -1;
    private long nextTakeoverAt;
    private int pollsSinceCatchUp;
    private long takeovers;
    private long failedTakeovers;
    private volatile String lastTakeoverFailure;
    private long appends;
    private long answeredFromTable;
    private boolean closed;
    private SnapshotSchedule snapshots;

    private ReplicatedCacheShard(ComputeThread thread, ComputeThread leaderThread, ReplicaGroup group, String logName,
                                 LogReplica replica, ReplicatedItemMachine machine, ReplicaAgent agent,
                                 LongSupplier clock, Duration commitTimeout, Duration takeoverTimeout) {
        this.thread = thread;
        this.leaderThread = leaderThread;
        this.group = group;
        this.logName = logName;
        this.replica = replica;
        this.machine = machine;
        this.agent = agent;
        this.clock = clock;
        this.commitTimeout = commitTimeout;
        this.takeoverTimeout = takeoverTimeout;
    }

    /**
     * Creates this member's server of one shard: its log (as {@link LogReplica#create}, entries sized for
     * {@code maxItemBytes}, a snapshot region of {@link #DEFAULT_SNAPSHOT_BYTES}, an image every
     * {@code slots / 2} entries) and its agent ({@link ReplicaAgent#open}, which waits for every
     * member's log to be published). Call on the server's thread, on every member, with the same sizes. Costs:
     * the log's allocation and publication, the agent's name lookups.
     *
     * @param node            this member's node
     * @param thread          a compute thread of {@code node}, owned by the calling Java thread
     * @param leaderThread    a second one, on the group's plane, for the {@link LogLeader} ({@code thread} is best
     *                        on the default plane: another member's agent may already have switched the group's
     *                        plane's grant while this member claims its log's name)
     * @param group           the shard's replica group
     * @param logName         the log's name on every member
     * @param shard           the shard, 0..{@code shards - 1}
     * @param shards          the store's shard count
     * @param slots           the log's capacity in entries
     * @param maxItemBytes    the largest value, 1..{@link io.remus.ds.replicate.LogLayout}'s entry limit less
     *                        {@value ReplicatedItemMachine#HEADER_BYTES} + 250
     * @param clock           the leader's clock, unix seconds (stamped into each entry)
     * @param suspectAfter    READs of an unchanged heartbeat before the agent suspects a member
     * @param commitTimeout   how long a leader waits for a majority per command
     * @param takeoverTimeout how long a takeover may wait, and the pause before a failed one is tried again
     * @return the server, leading nothing yet
     * @throws BadArgumentException naming the value, for a bad size, count, timeout, thread or group, or a leader's
     *                              thread on another plane than the group's
     */
    public static ReplicatedCacheShard create(RemusNode node, ComputeThread thread, ComputeThread leaderThread,
                                              ReplicaGroup group, String logName, int shard, int shards, int slots,
                                              int maxItemBytes, LongSupplier clock, int suspectAfter,
                                              Duration commitTimeout, Duration takeoverTimeout) {
        return create(node, thread, leaderThread, group, logName, shard, shards, slots, maxItemBytes, clock,
                suspectAfter, commitTimeout, takeoverTimeout, takeoverTimeout);
    }

    /**
     * As {@link #create(RemusNode, ComputeThread, ComputeThread, ReplicaGroup, String, int, int, int, int,
     * LongSupplier, int, Duration, Duration)}, waiting up to {@code openTimeout} rather than the takeover timeout
     * for the other members' logs to be published: for members that start at different times, one process each.
     *
     * @param node            this member's node
     * @param thread          a compute thread of {@code node}, owned by the calling Java thread
     * @param leaderThread    a second one, on the group's plane, for the {@link LogLeader} ({@code thread} is best
     *                        on the default plane: another member's agent may already have switched the group's
     *                        plane's grant while this member claims its log's name)
     * @param group           the shard's replica group
     * @param logName         the log's name on every member
     * @param shard           the shard, 0..{@code shards - 1}
     * @param shards          the store's shard count
     * @param slots           the log's capacity in entries
     * @param maxItemBytes    the largest value
     * @param clock           the leader's clock, unix seconds (stamped into each entry)
     * @param suspectAfter    READs of an unchanged heartbeat before the agent suspects a member
     * @param commitTimeout   how long a leader waits for a majority per command
     * @param takeoverTimeout how long a takeover may wait, and the pause before a failed one is tried again
     * @param openTimeout     how long to wait for every other member's log to be published
     * @return the server, leading nothing yet
     * @throws BadArgumentException naming the value, for a bad size, count, timeout, thread or group, or a leader's
     *                              thread on another plane than the group's
     * @throws io.remus.core.error.NameNotPublishedException when a member's log is not published in time
     */
    public static ReplicatedCacheShard create(RemusNode node, ComputeThread thread, ComputeThread leaderThread,
                                              ReplicaGroup group, String logName, int shard, int shards, int slots,
                                              int maxItemBytes, LongSupplier clock, int suspectAfter,
                                              Duration commitTimeout, Duration takeoverTimeout, Duration openTimeout) {
        return create(node, thread, leaderThread, group, logName, shard, shards, slots, maxItemBytes, clock,
                suspectAfter, commitTimeout, takeoverTimeout, openTimeout, DEFAULT_SNAPSHOT_BYTES,
                Math.max(1, slots / 2));
    }

    /**
     * As {@link #create(RemusNode, ComputeThread, ComputeThread, ReplicaGroup, String, int, int, int, int,
     * LongSupplier, int, Duration, Duration, Duration)}, with the snapshot policy chosen: a snapshot region for
     * images of up to {@code snapshotBytes} bytes, and an image stored once {@code snapshotEvery} entries were
     * applied since the last one (CPU work, no RDMA operation, as the class comment says). A leader brings a follower
     * back from an image only while its ring still holds every entry after it: hence {@code snapshotEvery} is at
     * most half the ring. Every member of a shard gives the same sizes.
     *
     * @param node            this member's node
     * @param thread          a compute thread of {@code node}, owned by the calling Java thread
     * @param leaderThread    a second one, on the group's plane, for the {@link LogLeader}
     * @param group           the shard's replica group
     * @param logName         the log's name on every member
     * @param shard           the shard, 0..{@code shards - 1}
     * @param shards          the store's shard count
     * @param slots           the log's capacity in entries
     * @param maxItemBytes    the largest value
     * @param clock           the leader's clock, unix seconds (stamped into each entry)
     * @param suspectAfter    READs of an unchanged heartbeat before the agent suspects a member
     * @param commitTimeout   how long a leader waits for a majority per command
     * @param takeoverTimeout how long a takeover may wait, and the pause before a failed one is tried again
     * @param openTimeout     how long to wait for every other member's log to be published
     * @param snapshotBytes   the largest image, 1 up to one allocation less 64 bytes
     *                        ({@link io.remus.core.memory.SizeClasses#MAX} - 64)
     * @param snapshotEvery   entries applied between two images, 1..{@code slots / 2}
     * @return the server, leading nothing yet
     * @throws BadArgumentException naming the value, for a bad size, count, timeout, thread or group, a leader's
     *                              thread on another plane than the group's, or a snapshot size or interval out of
     *                              range
     * @throws io.remus.core.error.NameNotPublishedException when a member's log is not published in time
     */
    public static ReplicatedCacheShard create(RemusNode node, ComputeThread thread, ComputeThread leaderThread,
                                              ReplicaGroup group, String logName, int shard, int shards, int slots,
                                              int maxItemBytes, LongSupplier clock, int suspectAfter,
                                              Duration commitTimeout, Duration takeoverTimeout, Duration openTimeout,
                                              int snapshotBytes, int snapshotEvery) {
        Objects.requireNonNull(node, "node");
        Timeouts.require(openTimeout, "openTimeout");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(leaderThread, "leaderThread");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(clock, "clock");
        Timeouts.require(commitTimeout, "commitTimeout");
        Timeouts.require(takeoverTimeout, "takeoverTimeout");
        if (leaderThread == thread || leaderThread.nodeId() != thread.nodeId()) {
            throw new BadArgumentException("the leader's compute thread must be a second compute thread of node "
                    + thread.nodeId());
        }
        if (leaderThread.plane() != group.plane()) {
            throw new BadArgumentException("the leader's compute thread of node " + thread.nodeId() + " is on plane "
                    + leaderThread.plane() + ", the shard's group replicates on plane " + group.plane()
                    + " (create it with newComputeThread(" + group.plane() + "))");
        }
        if (snapshotBytes < 1) {
            throw new BadArgumentException("snapshotBytes must be positive, got " + snapshotBytes);
        }
        if (snapshotEvery < 1 || snapshotEvery > slots / 2) {
            throw new BadArgumentException("snapshotEvery " + snapshotEvery + " with " + slots + " slots; it must be"
                    + " 1..slots / 2");
        }
        ReplicatedItemMachine machine = new ReplicatedItemMachine(maxItemBytes, shard, shards);
        int entryBytes = ReplicatedItemMachine.HEADER_BYTES + MemcachedEngine.MAX_KEY_BYTES + maxItemBytes;
        LogReplica replica = LogReplica.create(node, thread, group, logName, slots, entryBytes, snapshotBytes,
                machine);
        ReplicaAgent agent = ReplicaAgent.open(replica, logName, suspectAfter, openTimeout);
        ReplicatedCacheShard server = new ReplicatedCacheShard(thread, leaderThread, group, logName, replica, machine,
                agent, clock, commitTimeout, takeoverTimeout);
        server.snapshots = new SnapshotSchedule(replica, snapshotEvery);
        return server;
    }

    /**
     * Hands a request to this server; its thread answers it in a later {@link #runOnce}. Any thread; lock-free.
     *
     * @param request the request
     */
    public void submit(Request request) {
        inbox.add(Objects.requireNonNull(request, "request"));
    }

    /**
     * Polls the agent and acts on its choice (a takeover, or a catch-up of detached followers), serves every
     * request in the inbox, then applies every committed entry. Blocking, bounded as the class comment says.
     *
     * @return the requests served
     */
    public int runOnce() {
        requireOpen();
        failOverStep();
        int served = 0;
        for (Request r; (r = inbox.poll()) != null; served++) {
            serve(r);
        }
        replica.applyCommitted();
        snapshots.runWhenDue();
        return served;
    }

    /** {@return entries applied between two snapshot images} */
    public int snapshotEvery() {
        return snapshots.every();
    }

    /**
     * {@return images not stored because they were larger than the snapshot region ({@link LogReplica#takeSnapshot}
     *          refused them; the region kept its older image)}
     */
    public long snapshotsRefused() {
        return snapshots.refused();
    }

    /** {@return whether this server leads its shard} */
    public boolean isLeader() {
        return leader != null;
    }

    /** {@return the member this server believes leads, -1 when it knows none; any thread} */
    public int knownLeader() {
        return knownLeader;
    }

    /** {@return this server's node} */
    public int nodeId() {
        return thread.nodeId();
    }

    /** {@return the state machine (read it on this server's thread)} */
    public ReplicatedItemMachine machine() {
        return machine;
    }

    /** {@return this member's copy of the log} */
    public LogReplica replica() {
        return replica;
    }

    /** {@return takeovers that made this server the leader} */
    public long takeovers() {
        return takeovers;
    }

    /** {@return takeovers that failed (no majority in time, a higher term promised, this log too far behind)} */
    public long failedTakeovers() {
        return failedTakeovers;
    }

    /** {@return why the last failed takeover failed, or null when none failed; any thread} */
    public String lastTakeoverFailure() {
        return lastTakeoverFailure;
    }

    /** {@return entries this server appended as leader} */
    public long appends() {
        return appends;
    }

    /** {@return requests answered from the session table without an append} */
    public long answeredFromTable() {
        return answeredFromTable;
    }

    /** Stops leading and closes the agent; the log stays. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            stopLeading();
            agent.close();
            for (Request r; (r = inbox.poll()) != null; ) {
                r.complete(Status.RETRY, null, -1);
            }
        }
    }

    private void requireOpen() {
        thread.checkOwnerThread();
        if (closed) {
            throw new BadArgumentException("the server of " + logName + " on node " + thread.nodeId() + " is closed");
        }
    }

    private void stopLeading() {
        if (leader != null) {
            LogLeader l = leader;
            leader = null;
            l.close();
        }
    }

    private void failOverStep() {
        int self = thread.nodeId();
        int elected = agent.poll();
        if (leader != null && leader.isDeposed()) {
            stopLeading();
        }
        if (leader != null) {
            if (++pollsSinceCatchUp >= CATCH_UP_EVERY) {
                pollsSinceCatchUp = 0;
                catchUp();
            }
            return;
        }
        if (elected != self) {
            knownLeader = elected;
            return;
        }
        knownLeader = -1;
        if (ThreadTime.nanoTime() - nextTakeoverAt < 0) {
            return;
        }
        LogLeader l = null;
        try {
            l = LogLeader.takeOver(leaderThread, group, logName, takeoverTimeout, agent);
            replica.awaitApplied(l.appended(), takeoverTimeout);
            leader = l;
            knownLeader = self;
            takeovers++;
            pollsSinceCatchUp = CATCH_UP_EVERY - 1;
        } catch (BadArgumentException e) {
            throw e;
        } catch (RemusException e) {
            if (l != null) {
                l.close();
            }
            failedTakeovers++;
            lastTakeoverFailure = e.toString();
            nextTakeoverAt = ThreadTime.nanoTime() + takeoverTimeout.toNanos();
        }
    }

    private void catchUp() {
        boolean any = false;
        try {
            for (int i = 0; i < group.size() && leader != null; i++) {
                int node = group.member(i);
                if (node != thread.nodeId() && !leader.isAttached(node) && !agent.isSuspected(node)
                        && leader.reattach(node, commitTimeout)) {
                    any = true;
                }
            }
            if (any && leader != null) {
                leader.flushCommit(commitTimeout);
            }
        } catch (LeaderFencedException | RemoteTimeoutException e) {
            stopLeading();
        }
    }

    private void serve(Request r) {
        if (leader == null) {
            r.complete(Status.NOT_LEADER, null, knownLeader);
            return;
        }
        replica.applyCommitted();
        if (answerFromTable(r)) {
            answeredFromTable++;
            return;
        }
        byte[] entry = ReplicatedItemMachine.encode(r.client, r.sequence, clock.getAsLong(), r.command);
        try {
            long index = leader.append(MemorySegment.ofArray(entry), commitTimeout);
            appends++;
            leader.flushCommit(commitTimeout);
            replica.awaitApplied(index + 1, commitTimeout);
        } catch (LeaderFencedException e) {
            stopLeading();
            int elected = agent.leader();
            knownLeader = elected == thread.nodeId() ? -1 : elected;
            r.complete(Status.NOT_LEADER, null, knownLeader);
            return;
        } catch (RemoteTimeoutException e) {
            stopLeading();
            r.complete(Status.RETRY, null, -1);
            return;
        }
        if (!answerFromTable(r)) {
            r.complete(Status.RETRY, null, -1);
        }
    }

    private boolean answerFromTable(Request r) {
        ReplicatedItemMachine.Reply reply = machine.reply(r.client, r.sequence);
        if (reply == null) {
            return false;
        }
        r.complete(reply.stale() ? Status.STALE : Status.OK, reply.result(), thread.nodeId());
        return true;
    }

    /**
     * One command of one client in flight: the caller creates it, {@link #submit}s it and waits for
     * {@link #isDone()}; the server's thread completes it once. Thread-safe.
     */
    public static final class Request {
        final long client;
        final long sequence;
        final ReplicatedItemMachine.Command command;
        private volatile boolean done;
        private Status status;
        private Object result;
        private int leaderHint;

        /**
         * A request.
         *
         * @param client   the client's id
         * @param sequence the command's sequence number (the same on every retry of it), positive
         * @param command  the command
         */
        public Request(long client, long sequence, ReplicatedItemMachine.Command command) {
            this.client = client;
            this.sequence = sequence;
            this.command = Objects.requireNonNull(command, "command");
        }

        void complete(Status s, Object r, int hint) {
            status = s;
            result = r;
            leaderHint = hint;
            done = true;
        }

        /** {@return whether the server answered} */
        public boolean isDone() {
            return done;
        }

        /** {@return the answer's status, once done} */
        public Status status() {
            return done ? status : null;
        }

        /** {@return the command's result when the status is OK (see {@link ReplicatedItemMachine#reply})} */
        public Object result() {
            return done ? result : null;
        }

        /** {@return the member the answering server named: itself when OK, its elected leader on NOT_LEADER} */
        public int leaderHint() {
            return done ? leaderHint : -1;
        }
    }
}
