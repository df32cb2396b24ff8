package io.remus.ds.index;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Opcode;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.LeaderFencedException;
import io.remus.ds.replicate.LogLeader;
import io.remus.ds.replicate.LogReplica;
import io.remus.ds.replicate.ReplicaAgent;
import io.remus.ds.replicate.ReplicaGroup;
import io.remus.ds.replicate.SnapshotSchedule;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;

/**
 * One member's server of one shard of the index: its copy of the shard's replicated log
 * ({@link LogReplica}, Mu's replication plane: Aguilera et al., "Microsecond Consensus for Microsecond
 * Applications", OSDI 2020), the {@link IndexStateMachine} the log is applied to, and an RPC method on the
 * node's {@link RpcEndpoint} (LITE-style messaging, {@link IndexShards#methodId}) through which clients reach it.
 *
 * <p><b>Leader and followers.</b> The shard's leader is the member whose server currently holds an open
 * {@link LogLeader}: the member its group elects, with fail-over on ({@link #enableFailover}), or the one the
 * program appoints ({@link #lead(LogLeader)}, {@link #grantWriteTo}). The leader's
 * thread serves each request in turn: it appends the request, unchanged, as a log entry
 * ({@link LogLeader#append}), writes the new commit count to the followers ({@link LogLeader#flushCommit}),
 * applies its own log up to that entry ({@link LogReplica#awaitApplied}) and answers with the entry's result
 * from the session table. Every other member answers {@link IndexStatus#NOT_LEADER} with the leader it last
 * granted write access to ({@link #grantWriteTo}), and applies committed entries with
 * {@link LogReplica#applyCommitted} in {@link #runOnce}. A leader whose append is refused
 * ({@link LeaderFencedException}: its followers switched to another leader) closes its {@link LogLeader} and
 * answers {@code NOT_LEADER} from then on.
 *
 * <p><b>Reads go through the log.</b> A GET is appended and applied like a PUT, so it is linearizable (it takes
 * effect at its entry's place in the log) at the price of a log append; leases or read indexes are not used.
 *
 * <p><b>Exactly once.</b> A request whose client id and sequence the session table has already applied is
 * answered from the table without an append ({@link #answeredFromTable()}); one whose earlier copy is in the log
 * but not yet applied is appended again and applied as a duplicate, which changes nothing
 * ({@link IndexStateMachine}).
 *
 * <p><b>Costs per request at the leader</b> (all members attached, the log not wrapped): the append's {@code 2f}
 * WRITEs and one round trip, the commit flush's {@code 2f} 8-byte WRITEs and one round trip, and the reply's one
 * WRITE_WITH_IMMEDIATE: <b>2 round trips and {@code 4f} WRITEs</b> (4 and 8 for 3 members), plus the client's RPC
 * round trip, 3 network round trips in all. The followers' servers make no RDMA operation. A wrapped log adds
 * {@link LogLeader#append}'s occasional READ round trip. Requests are served one at a time; the leader does not
 * batch appends.
 *
 * <p><b>Leader change</b> ({@link #enableFailover}, after Mu's leader election and change). Each
 * {@link #runOnce} first polls this member's {@link ReplicaAgent}. A member that elects another node names it in
 * its {@code NOT_LEADER} answers. A member that elects itself and does not lead takes the shard over
 * ({@link LogLeader#takeOver}: a higher term, a majority's promises, the log recovered from that majority and
 * committed under the new term), applies its own log up to the recovered end, so that its session table holds
 * every request an earlier leader committed, and only then serves: a resent request whose entry survived is
 * answered from the table, one whose entry reached no majority is appended afresh, so each takes effect once. A
 * leader catches its detached followers up ({@link LogLeader#reattach}). A deposed leader cannot answer a stale
 * read: its appends are refused by the members that granted a higher term ({@link #fencedWrites()}), or miss a
 * majority; either way it stops leading. Cost of a takeover, on the new leader's compute thread: the log's name
 * lookups, {@code 2f} shape and {@code 2f} term READs, one READ per member not yet promised per look at the
 * promises, one READ per buffer-sized chunk of each granting follower's log, one WRITE per recovered entry a
 * follower lacks and the commit flush's WRITEs, each READ a round trip of its own ({@link #lastTakeoverReads()},
 * {@link #lastTakeoverWrites()}, {@link #lastTakeoverRoundTrips()}); detection costs a failed heartbeat READ (the
 * transport timeout) or {@code suspectAfter} READs of an unchanged heartbeat.
 *
 * <p>Confined to its thread: the one that owns the compute thread (and the leader's, with fail-over on) and serves
 * the endpoint; the server starts no thread. Progress: every call is blocking and bounded by its caller's timeout,
 * or by the server's commit timeout while it serves a request, or by the takeover timeout while it takes over.
 */
public final class IndexShardServer implements AutoCloseable {
    /** Per node's endpoint, its servers with fail-over on: a grant is the node's plane's, so at most one per plane. */
    private static final Map<RpcEndpoint, List<IndexShardServer>> FAILING_OVER = new WeakHashMap<>();

    private final ComputeThread thread;
    private final RpcEndpoint endpoint;
    private final IndexShards shards;
    private final int shard;
    private final ReplicaGroup group;
    private final LogReplica replica;
    private final IndexStateMachine machine;
    private SnapshotSchedule snapshots;
    private final Duration commitTimeout;
    private LogLeader leader;
    private int knownLeader = -1;
    private ReplicaAgent agent;
    private ComputeThread leaderThread;
    private Duration takeoverTimeout;
    private long nextTakeoverAt;
    private int pollsSinceCatchUp;
    private long takeovers;
    private long failedTakeovers;
    private long recoveredEntries;
    private long fencedWrites;
    private long caughtUp;
    private long takeoverReads;
    private long takeoverWrites;
    private long takeoverRoundTrips;
    private long takeoverNanos;
    private int takeoverSkipped;
    /** Test hooks: run on the leader's thread right before and right after each append of a request. */
    volatile Runnable beforeAppend;
    volatile Runnable afterAppend;
    private long requests;
    private long notLeaderAnswers;
    private long retryAnswers;
    private long answeredFromTable;
    private long badRequests;
    private long appends;
    private boolean closed;

    private IndexShardServer(ComputeThread thread, RpcEndpoint endpoint, IndexShards shards, int shard, LogReplica replica,
                             IndexStateMachine machine, Duration commitTimeout) {
        this.thread = thread;
        this.endpoint = endpoint;
        this.shards = shards;
        this.shard = shard;
        this.group = shards.group(shard);
        this.replica = replica;
        this.machine = machine;
        this.commitTimeout = commitTimeout;
    }

    /**
     * Creates this member's server of {@code shard}: its log (as {@link LogReplica#create}, named
     * {@link IndexShards#logName}, entries of up to {@value IndexFormat#MAX_ENTRY_BYTES} bytes) and its state
     * machine, and registers its method on {@code endpoint}. Call on the server's thread. Costs: the log's
     * allocation and name publication ({@link LogReplica#create}); no other RDMA operation.
     *
     * @param node          this member's node
     * @param thread        a compute thread of {@code node}, owned by the calling Java thread
     * @param endpoint      {@code node}'s RPC endpoint, connected to the clients (and served only by this thread)
     * @param shards        the index's shard map
     * @param shard         the shard this server serves
     * @param slots         the log's capacity in entries, 2..{@value io.remus.ds.replicate.LogLayout#MAX_SLOTS}
     * @param commitTimeout how long a leader waits for a majority per request before answering
     *                      {@link IndexStatus#RETRY}
     * @return the server, following no leader yet
     * @throws BadArgumentException naming the value, for a shard out of range, a node that is not in the shard's
     *                              group, an endpoint or compute thread of another node, a bad slot count or timeout,
     *                              or a shard already served on this node
     */
    public static IndexShardServer create(RemusNode node, ComputeThread thread, RpcEndpoint endpoint, IndexShards shards,
                                          int shard, int slots, Duration commitTimeout) {
        return create(node, thread, endpoint, shards, shard, slots, 0, 0, commitTimeout);
    }

    /**
     * As {@link #create(RemusNode, ComputeThread, RpcEndpoint, IndexShards, int, int, Duration)}, with snapshots:
     * the log gets a snapshot region for images of up to {@code snapshotBytes} bytes
     * ({@link LogReplica#create(RemusNode, ComputeThread, ReplicaGroup, String, int, int, int,
     * io.remus.ds.replicate.StateMachine)}), and each {@link #runOnce}, after applying, stores an image of the state
     * machine there ({@link LogReplica#takeSnapshot}, CPU stores, no RDMA operation) once {@code snapshotEvery}
     * entries were applied since the last one. A leader installs its member's latest image in a follower further
     * behind than the ring ({@link LogLeader#reattach}), which needs the ring to still hold every entry after
     * the image: hence {@code snapshotEvery} is at most half the ring. An image larger than the region is refused
     * and counted ({@link #snapshotsRefused}); the region keeps its older image and the server serves on. Every
     * member of a shard gives the same sizes.
     *
     * @param node          this member's node
     * @param thread        a compute thread of {@code node}, owned by the calling Java thread
     * @param endpoint      {@code node}'s RPC endpoint, connected to the clients (and served only by this thread)
     * @param shards        the index's shard map
     * @param shard         the shard this server serves
     * @param slots         the log's capacity in entries, 2..{@value io.remus.ds.replicate.LogLayout#MAX_SLOTS}
     * @param snapshotBytes the largest image ({@link IndexStateMachine} lays it out), 0 for no snapshots
     * @param snapshotEvery entries applied between two images, 1..{@code slots / 2}; 0 with no snapshots
     * @param commitTimeout how long a leader waits for a majority per request before answering
     *                      {@link IndexStatus#RETRY}
     * @return the server, following no leader yet
     * @throws BadArgumentException naming the value, as the other overload, for a snapshot capacity out of range
     *                              ({@link LogReplica#create(RemusNode, ComputeThread, ReplicaGroup, String, int,
     *                              int, int, io.remus.ds.replicate.StateMachine)}), or a {@code snapshotEvery} out of
     *                              range
     */
    public static IndexShardServer create(RemusNode node, ComputeThread thread, RpcEndpoint endpoint, IndexShards shards,
                                          int shard, int slots, int snapshotBytes, int snapshotEvery,
                                          Duration commitTimeout) {
        return make(node, thread, endpoint, shards, shard, slots, snapshotBytes, snapshotEvery, commitTimeout, null);
    }

    /**
     * Makes this member's server of {@code shard} anew in a process that was killed and started again with new
     * memory (its node a new incarnation: nothing of its former log, state machine or session table is left), so
     * that it rejoins the shard's group: Viewstamped Replication's recovery (Liskov and Cowling, "Viewstamped
     * Replication Revisited", MIT 2012, section 4.3) on Mu's log, as {@link LogReplica#rejoin} does it. In order:
     * <ol>
     * <li>{@link LogReplica#rejoin}: every other member loses write access to this node on the group's plane, the
     *     highest promised term is learned from {@code f + 1} other members (their logs' name lookups and one 8-byte
     *     READ each, waiting up to {@code rejoinTimeout}), and the log is made empty, published under
     *     {@link IndexShards#logName}, and marked recovering (no takeover takes it as a source) and ungranted;</li>
     * <li>the state machine starts empty, and the method is registered on {@code endpoint} as
     *     {@link #create(RemusNode, ComputeThread, RpcEndpoint, IndexShards, int, int, int, int, Duration) create}
     *     does.</li>
     * </ol>
     * The server then follows: it answers {@link IndexStatus#NOT_LEADER} while the group's leader catches its log up
     * ({@link LogLeader#reattach}: the entries from its ring, or the leader member's snapshot image when the ring no
     * longer holds them, which {@link LogReplica#applyCommitted} restores into the {@link IndexStateMachine} before
     * the entries after it) and clears its recovering bit; {@link #runOnce} applies what is committed. Its session
     * table is rebuilt from the log, so a client's resent request is answered from it once applied. With fail-over on
     * ({@link #enableFailover}) it may lead after a later fail-over: a takeover needs a majority of logs not
     * recovering, and one by this member applies the recovered log before it serves, as any takeover does. Every
     * member of the shard gives the same {@code slots} and snapshot sizes as before the restart. Blocking, bounded by
     * {@code rejoinTimeout}.
     *
     * <p>The clients and the other servers reach the new process once their RPC endpoints learned its new rings
     * ({@link RpcEndpoint}, "Restarted peers"; {@link io.remus.core.RemusCluster#reopenRpcEndpoint} opens this
     * node's).
     *
     * @param node          this member's node, restarted: its fabric node a new incarnation
     * @param thread        a compute thread of {@code node}, owned by the calling Java thread
     * @param endpoint      {@code node}'s RPC endpoint (served only by this thread)
     * @param shards        the index's shard map
     * @param shard         the shard this server serves
     * @param slots         the log's capacity in entries, as before the restart
     * @param snapshotBytes the largest image, as before the restart (0 for no snapshots)
     * @param snapshotEvery entries applied between two images, 1..{@code slots / 2}; 0 with no snapshots
     * @param commitTimeout how long a leader waits for a majority per request before answering
     *                      {@link IndexStatus#RETRY}
     * @param rejoinTimeout how long to wait for {@code f + 1} other members' promised terms
     * @return the server, recovering, following no leader yet
     * @throws BadArgumentException   naming the value, as {@link #create(RemusNode, ComputeThread, RpcEndpoint,
     *                                IndexShards, int, int, int, int, Duration) create}, or for a log name still bound
     *                                on this node (it did not restart with new memory)
     * @throws RemoteTimeoutException when fewer than {@code f + 1} other members answered within {@code rejoinTimeout}
     */
    public static IndexShardServer rejoin(RemusNode node, ComputeThread thread, RpcEndpoint endpoint, IndexShards shards,
                                          int shard, int slots, int snapshotBytes, int snapshotEvery,
                                          Duration commitTimeout, Duration rejoinTimeout) {
        Timeouts.require(rejoinTimeout, "rejoinTimeout");
        return make(node, thread, endpoint, shards, shard, slots, snapshotBytes, snapshotEvery, commitTimeout,
                rejoinTimeout);
    }

    private static IndexShardServer make(RemusNode node, ComputeThread thread, RpcEndpoint endpoint, IndexShards shards,
                                         int shard, int slots, int snapshotBytes, int snapshotEvery,
                                         Duration commitTimeout, Duration rejoinTimeout) {
        if (node == null || thread == null || endpoint == null || shards == null) {
            throw new BadArgumentException("a server needs a node, a compute thread, an endpoint and a shard map");
        }
        Timeouts.require(commitTimeout, "commitTimeout");
        ReplicaGroup group = shards.group(shard);
        int self = node.config().nodeId();
        group.requireMember(self, "index server");
        if (thread.nodeId() != self || endpoint.nodeId() != self) {
            throw new BadArgumentException("server of node " + self + " given the compute thread of node " + thread.nodeId()
                    + " and the RPC endpoint of node " + endpoint.nodeId());
        }
        if (snapshotBytes == 0 ? snapshotEvery != 0 : snapshotEvery < 1 || snapshotEvery > slots / 2) {
            throw new BadArgumentException("snapshotEvery " + snapshotEvery + " with snapshotBytes " + snapshotBytes
                    + " and " + slots + " slots; it must be 1..slots / 2 with a snapshot region, 0 without");
        }
        IndexStateMachine machine = new IndexStateMachine();
        LogReplica replica = rejoinTimeout == null
                ? LogReplica.create(node, thread, group, shards.logName(shard), slots, IndexFormat.MAX_ENTRY_BYTES,
                        snapshotBytes, machine)
                : LogReplica.rejoin(node, thread, group, shards.logName(shard), slots, IndexFormat.MAX_ENTRY_BYTES,
                        snapshotBytes, machine, rejoinTimeout);
        IndexShardServer server = new IndexShardServer(thread, endpoint, shards, shard, replica, machine, commitTimeout);
        server.snapshots = new SnapshotSchedule(replica, snapshotEvery);
        endpoint.register(shards.methodId(shard), server::serve);
        return server;
    }

    /** {@return entries applied between two snapshot images, 0 when this server takes none} */
    public int snapshotEvery() {
        return snapshots.every();
    }

    /**
     * {@return images this server's policy did not store because they were larger than the snapshot region
     *          ({@link LogReplica#takeSnapshot} refused them; the region kept its older image)}
     */
    public long snapshotsRefused() {
        return snapshots.refused();
    }

    /** {@return the shard this server serves} */
    public int shard() {
        return shard;
    }

    /** {@return this server's node} */
    public int nodeId() {
        return thread.nodeId();
    }

    /** {@return whether this member's log is recovering: made anew by {@link #rejoin} and not yet caught up} */
    public boolean isRecovering() {
        return replica.recovering();
    }

    /** {@return this member's copy of the shard's log} */
    public LogReplica replica() {
        return replica;
    }

    /** {@return this member's state machine (read it on this server's thread)} */
    public IndexStateMachine machine() {
        return machine;
    }

    /** {@return whether this server leads its shard: it holds an open, undeposed {@link LogLeader}} */
    public boolean isLeader() {
        return leader != null;
    }

    /** {@return the leader this server names in its {@code NOT_LEADER} answers, -1 when it knows none} */
    public int knownLeader() {
        return knownLeader;
    }

    /** {@return requests this server took (well formed or not)} */
    public long requests() {
        return requests;
    }

    /** {@return requests answered {@link IndexStatus#NOT_LEADER}} */
    public long notLeaderAnswers() {
        return notLeaderAnswers;
    }

    /** {@return requests answered {@link IndexStatus#RETRY}} */
    public long retryAnswers() {
        return retryAnswers;
    }

    /** {@return requests answered from the session table, without an append} */
    public long answeredFromTable() {
        return answeredFromTable;
    }

    /** {@return requests answered {@link IndexStatus#BAD_REQUEST}} */
    public long badRequests() {
        return badRequests;
    }

    /** {@return entries this server appended as leader} */
    public long appends() {
        return appends;
    }

    /** {@return whether {@link #enableFailover} was called: this server's own polls elect and take over} */
    public boolean hasFailover() {
        return agent != null;
    }

    /** {@return this member's failure detector and elector, or null before {@link #enableFailover}} */
    public ReplicaAgent agent() {
        return agent;
    }

    /** {@return the term this server leads in, or 0 when it does not lead} */
    public long term() {
        return leader == null ? 0 : leader.term();
    }

    /** {@return takeovers that made this server the leader ({@link LogLeader#takeOver})} */
    public long takeovers() {
        return takeovers;
    }

    /**
     * {@return takeovers that failed: no majority promised or held the recovered log in time, a member had
     *          promised a higher term, or this member's log was too far behind}
     */
    public long failedTakeovers() {
        return failedTakeovers;
    }

    /** {@return entries this server's takeovers recovered and rewrote ({@link LogLeader#recoveredEntries})} */
    public long recoveredEntries() {
        return recoveredEntries;
    }

    /**
     * {@return WRITEs of this server's leaders that members refused ({@link LogLeader#fencedWrites}), summed over
     *          the leaders it held and closed}
     */
    public long fencedWrites() {
        return fencedWrites + (leader == null ? 0 : leader.fencedWrites());
    }

    /**
     * {@return the READs this server's last successful takeover posted on its leader's compute thread (the name
     *          lookups', the terms', the promises', the logs'); the agent's polls during it not counted}
     */
    public long lastTakeoverReads() {
        return takeoverReads;
    }

    /** {@return the WRITEs this server's last successful takeover posted (the rewrite and the commit flush)} */
    public long lastTakeoverWrites() {
        return takeoverWrites;
    }

    /** {@return the round trips this server's last successful takeover waited for on its leader's compute thread} */
    public long lastTakeoverRoundTrips() {
        return takeoverRoundTrips;
    }

    /**
     * {@return how long the last takeover that made this server the leader took, from its start until the
     *          recovered log was applied, in nanoseconds of the (possibly virtual) clock}
     */
    public long lastTakeoverNanos() {
        return takeoverNanos;
    }

    /** {@return members the last takeover did not look up because this member's agent suspected them} */
    public int lastTakeoverSuspectsSkipped() {
        return takeoverSkipped;
    }

    /** {@return detached followers this server, leading, caught up and attached again ({@link LogLeader#reattach})} */
    public long caughtUpFollowers() {
        return caughtUp;
    }

    /**
     * Turns on leader change driven by this server's own thread (Mu's leader election and change: Aguilera et al.,
     * OSDI 2020). Opens this member's {@link ReplicaAgent} (the name lookups of the shard's logs on the other
     * members); from then on each {@link #runOnce} first {@linkplain ReplicaAgent#poll polls} it: a member that
     * elects another node names it in its {@code NOT_LEADER} answers; a member that elects itself and does not
     * lead takes the shard over ({@link LogLeader#takeOver} on {@code leaderThread}, polling the agent while it
     * waits for the promises), applies the recovered log to its state machine, so that its session table holds
     * every request the old leaders committed, and serves; a leader catches up, every 32 polls, each detached
     * follower its agent does not suspect ({@link LogLeader#reattach}). A failed takeover is tried again after
     * {@code takeoverTimeout}. A leader whose append is refused or misses its majority within the commit timeout
     * stops leading; the next poll takes over again if the agent still elects this node. The group's lowest live
     * node leads, so when every member enables fail-over, the lowest member takes the group over at its first
     * poll, with no {@link #lead} or {@link #grantWriteTo} call.
     *
     * @param leaderThread    a second compute thread of this node owned by this server's thread, on the shard
     *                        group's {@linkplain ReplicaGroup#plane() plane}, for the {@link LogLeader} (the agent
     *                        READs into the server's thread's buffer)
     * @param suspectAfter    READs in a row showing a member's heartbeat unchanged before it is suspected
     *                        (a failed READ suspects at once); pick it against the server's poll rate
     * @param takeoverTimeout how long a takeover may wait, and the pause before a failed one is tried again
     * @throws BadArgumentException naming the value, for fail-over already on, a leader thread of another node,
     *                              another plane than the group's or this server's own, a bad {@code suspectAfter}
     *                              or timeout; naming the node and both shards, when another shard's server on this
     *                              node's endpoint has fail-over on the same plane (a grant is the node's plane's,
     *                              not a log's), with nothing READ; naming the node and both logs, when another log
     *                              on this node and plane granted a leader ({@link ReplicaAgent#open})
     * @throws io.remus.core.error.NameNotPublishedException when a member's log is not published within the timeout
     */
    public void enableFailover(ComputeThread leaderThread, int suspectAfter, Duration takeoverTimeout) {
        requireOpen();
        Objects.requireNonNull(leaderThread, "leaderThread");
        Timeouts.require(takeoverTimeout, "takeoverTimeout");
        if (agent != null) {
            throw new BadArgumentException("the server of shard " + shard + " on node " + thread.nodeId()
                    + " has fail-over on already");
        }
        if (leaderThread == thread || leaderThread.nodeId() != thread.nodeId()) {
            throw new BadArgumentException("the leader's compute thread of the server on node " + thread.nodeId()
                    + " must be another compute thread of that node; got "
                    + (leaderThread == thread ? "the server's own" : "one of node " + leaderThread.nodeId()));
        }
        if (leaderThread.plane() != group.plane()) {
            throw new BadArgumentException("the leader's compute thread of the server of shard " + shard + " on node "
                    + thread.nodeId() + " is on plane " + leaderThread.plane() + ", the shard's group replicates on"
                    + " plane " + group.plane() + " (create it with newComputeThread(" + group.plane() + "))");
        }
        leaderThread.checkOwnerThread();
        synchronized (FAILING_OVER) {
            for (IndexShardServer other : FAILING_OVER.getOrDefault(endpoint, List.of())) {
                if (other != this && !other.closed && other.group.plane() == group.plane()) {
                    throw new BadArgumentException("node " + thread.nodeId() + " serves shard " + other.shard + " of "
                            + other.shards.logName(other.shard) + " with fail-over already on plane " + group.plane()
                            + "; shard " + shard + " of " + shards.logName(shard) + " cannot fail over on the same node"
                            + " and plane: a grant (setPeerAccess) is the node's plane's, not a log's, so the two"
                            + " shards' leaders would fence each other (give the groups different planes,"
                            + " ReplicaGroup.onPlane)");
                }
            }
        }
        agent = ReplicaAgent.open(replica, shards.logName(shard), suspectAfter, takeoverTimeout);
        synchronized (FAILING_OVER) {
            FAILING_OVER.computeIfAbsent(endpoint, e -> new ArrayList<>()).add(this);
        }
        this.leaderThread = leaderThread;
        this.takeoverTimeout = takeoverTimeout;
    }

    /**
     * Makes this member's log writable only by {@code leaderNode} (Mu's permission switch,
     * {@link LogReplica#grantWriteTo}) and names it in later {@code NOT_LEADER} answers. When this server led and
     * {@code leaderNode} is another member, it stops leading (closes its {@link LogLeader}). No RDMA operation
     * beyond closing the leader (which collects its WRITEs in flight).
     *
     * @param leaderNode the member that leads the shard from now on
     * @throws BadArgumentException naming the node when it is not a member of the shard's group
     */
    public void grantWriteTo(int leaderNode) {
        requireOpen();
        replica.grantWriteTo(leaderNode);
        knownLeader = leaderNode;
        if (leaderNode != thread.nodeId()) {
            stopLeading();
        }
    }

    /**
     * Makes this server its shard's leader with a {@link LogLeader} opened on this server's thread for the shard's
     * log ({@link IndexShards#logName}); the hook through which a leader chosen by the program, or later by an
     * election with recovery, starts serving. No RDMA operation.
     *
     * @param logLeader the open leader of this shard's log, opened with this server's compute thread
     * @throws BadArgumentException when this server leads already, the leader is deposed, or its log's entries are
     *                              smaller than this index's requests
     */
    public void lead(LogLeader logLeader) {
        requireOpen();
        Objects.requireNonNull(logLeader, "logLeader");
        if (leader != null) {
            throw new BadArgumentException("the server of shard " + shard + " on node " + thread.nodeId() + " leads already");
        }
        if (logLeader.isDeposed() || logLeader.maxEntryBytes() < IndexFormat.MAX_ENTRY_BYTES) {
            throw new BadArgumentException("a leader of shard " + shard + " must be undeposed and take entries of "
                    + IndexFormat.MAX_ENTRY_BYTES + " bytes; this one is " + (logLeader.isDeposed() ? "deposed" : "not deposed")
                    + " and takes " + logLeader.maxEntryBytes());
        }
        leader = logLeader;
        knownLeader = thread.nodeId();
    }

    /**
     * Opens the leader of this shard's log on this node ({@link LogLeader#open}: a name lookup and one 8-byte READ
     * per follower) and {@link #lead(LogLeader) leads} with it. Every member should have granted this node write
     * access first ({@link #grantWriteTo} on each).
     *
     * @param term    the leader's term
     * @param timeout how long to wait for the members' logs to be published
     * @throws BadArgumentException as {@link #lead(LogLeader)} and {@link LogLeader#open}
     */
    public void lead(long term, Duration timeout) {
        requireOpen();
        if (leader != null) {
            throw new BadArgumentException("the server of shard " + shard + " on node " + thread.nodeId() + " leads already");
        }
        lead(LogLeader.open(leaderThread != null ? leaderThread : thread, group, shards.logName(shard), term, timeout));
    }

    /**
     * With fail-over on, first polls this member's agent and acts on what it elects ({@link #enableFailover}: a
     * takeover, bounded by its timeout, or a catch-up of detached followers); then serves the requests that arrive
     * within {@code timeout} (returning after the first message or at the deadline, as {@link RpcEndpoint#serve}),
     * then applies every committed entry of this member's log. Blocking, bounded by {@code timeout} plus, per
     * request served as leader, the commit timeout, plus a takeover's timeout. RDMA: the poll's at most {@code 2f}
     * READs; per request served, as the class comment says; none to apply.
     *
     * @param timeout the longest wait for a request, zero or positive
     * @return the requests served
     */
    public int runOnce(Duration timeout) {
        requireOpen();
        if (agent != null) {
            failOverStep();
        }
        int served = endpoint.serve(timeout);
        replica.applyCommitted();
        snapshots.runWhenDue();
        return served;
    }

    /** Stops leading, collecting the leader's WRITEs in flight; the endpoint and compute thread stay open. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            stopLeading();
            if (agent != null) {
                agent.close();
                synchronized (FAILING_OVER) {
                    List<IndexShardServer> servers = FAILING_OVER.get(endpoint);
                    if (servers != null) {
                        servers.remove(this);
                    }
                }
            }
        }
    }

    private void stopLeading() {
        if (leader != null) {
            LogLeader l = leader;
            leader = null;
            l.close();
            fencedWrites += l.fencedWrites();
        }
    }

    /** One poll of the agent and what follows from it; see {@link #enableFailover}. */
    private void failOverStep() {
        int self = thread.nodeId();
        int elected = agent.poll();
        if (leader != null && leader.isDeposed()) {
            stopLeading();
        }
        if (leader != null) {
            if (++pollsSinceCatchUp >= 32) {
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
        long reads = leaderThread.postedOperations(Opcode.READ);
        long writes = leaderThread.postedOperations(Opcode.WRITE);
        long trips = leaderThread.roundTrips();
        long start = ThreadTime.nanoTime();
        try {
            l = LogLeader.takeOver(leaderThread, group, shards.logName(shard), takeoverTimeout, agent);
            replica.awaitApplied(l.appended(), takeoverTimeout);
            leader = l;
            knownLeader = self;
            takeovers++;
            takeoverReads = leaderThread.postedOperations(Opcode.READ) - reads;
            takeoverWrites = leaderThread.postedOperations(Opcode.WRITE) - writes;
            takeoverRoundTrips = leaderThread.roundTrips() - trips;
            takeoverNanos = ThreadTime.nanoTime() - start;
            takeoverSkipped = l.suspectsSkipped();
            recoveredEntries += l.recoveredEntries();
            pollsSinceCatchUp = 0;
        } catch (BadArgumentException e) {
            throw e;
        } catch (RemusException e) {
            if (l != null) {
                l.close();
                fencedWrites += l.fencedWrites();
            }
            failedTakeovers++;
            nextTakeoverAt = ThreadTime.nanoTime() + takeoverTimeout.toNanos();
        }
    }

    /**
     * Attaches again each detached follower the agent trusts, when its log lets the leader catch it up, and then
     * flushes the commit count, so a caught-up follower applies its entries without waiting for the next request.
     */
    private void catchUp() {
        boolean any = false;
        try {
            for (int i = 0; i < group.size() && leader != null; i++) {
                int node = group.member(i);
                if (node != thread.nodeId() && !leader.isAttached(node) && !agent.isSuspected(node)
                        && leader.reattach(node, commitTimeout)) {
                    caughtUp++;
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

    private void requireOpen() {
        thread.checkOwnerThread();
        if (closed) {
            throw new BadArgumentException("the server of shard " + shard + " on node " + thread.nodeId() + " is closed");
        }
    }

    /** The RPC method: one request in, one reply out. */
    private int serve(int caller, MemorySegment request, int length, MemorySegment reply) {
        requests++;
        String problem = IndexFormat.problem(request, length);
        if (problem == null && IndexFormat.shard(request) != shard) {
            problem = "shard " + IndexFormat.shard(request) + " asked of the server of shard " + shard;
        }
        if (problem != null) {
            badRequests++;
            byte[] text = problem.getBytes(StandardCharsets.UTF_8);
            return IndexFormat.writeReply(reply, IndexStatus.BAD_REQUEST, knownLeader,
                    Arrays.copyOf(text, Math.min(text.length, IndexFormat.MAX_VALUE_BYTES)));
        }
        if (leader == null || closed) {
            notLeaderAnswers++;
            return IndexFormat.writeReply(reply, IndexStatus.NOT_LEADER, knownLeader, null);
        }
        long client = IndexFormat.clientId(request);
        long sequence = IndexFormat.sequence(request);
        int self = thread.nodeId();
        replica.applyCommitted();
        int known = machine.replyFromTable(client, sequence, self, reply);
        if (known >= 0) {
            answeredFromTable++;
            return known;
        }
        try {
            Runnable hook = beforeAppend;
            if (hook != null) {
                hook.run();
            }
            long index = leader.append(request.asSlice(0, length), commitTimeout);
            appends++;
            hook = afterAppend;
            if (hook != null) {
                hook.run();
            }
            leader.flushCommit(commitTimeout);
            replica.awaitApplied(index + 1, commitTimeout);
        } catch (LeaderFencedException e) {
            stopLeading();
            int elected = agent == null ? -1 : agent.leader();
            knownLeader = elected == self ? -1 : elected;
            notLeaderAnswers++;
            return IndexFormat.writeReply(reply, IndexStatus.NOT_LEADER, knownLeader, null);
        } catch (RemoteTimeoutException e) {
            if (agent != null) {
                stopLeading();
            }
            retryAnswers++;
            return IndexFormat.writeReply(reply, IndexStatus.RETRY, self, null);
        }
        int n = machine.replyFromTable(client, sequence, self, reply);
        if (n < 0) {
            retryAnswers++;
            return IndexFormat.writeReply(reply, IndexStatus.RETRY, self, null);
        }
        return n;
    }
}
