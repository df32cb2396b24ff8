package io.remus.ds.index;

import io.remus.core.ComputeThread;
import io.remus.core.RemusNode;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.ds.replicate.LeaderFencedException;
import io.remus.ds.replicate.LogLeader;
import io.remus.ds.replicate.LogReplica;
import io.remus.ds.replicate.ReplicaGroup;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * One member's server of one shard of the index: its copy of the shard's replicated log
 * ({@link LogReplica}, Mu's replication plane: Aguilera et al., "Microsecond Consensus for Microsecond
 * Applications", OSDI 2020), the {@link IndexStateMachine} the log is applied to, and an RPC method on the
 * node's {@link RpcEndpoint} (LITE-style messaging, {@link IndexShards#methodId}) through which clients reach it.
 *
 * <p><b>Leader and followers.</b> The shard's leader is the member whose server currently holds an open
 * {@link LogLeader} ({@link #lead(LogLeader)}); the program (later, an election) decides which. The leader's
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
 * <p><b>Until recovery exists</b> (see {@code io.remus.ds.replicate}): a group is led once, by a leader whose
 * {@link LogLeader} starts at index 0 of empty logs; a new leader of a group whose logs hold entries needs the
 * replicate package's recovery before it is handed to {@link #lead(LogLeader)}.
 *
 * <p>Confined to its thread: the one that owns the compute thread and serves the endpoint. Progress: every call
 * is blocking and bounded by its caller's timeout, or by the server's commit timeout while it serves a request.
 */
public final class IndexShardServer implements AutoCloseable {
    private final ComputeThread thread;
    private final RpcEndpoint endpoint;
    private final IndexShards shards;
    private final int shard;
    private final ReplicaGroup group;
    private final LogReplica replica;
    private final IndexStateMachine machine;
    private final Duration commitTimeout;
    private LogLeader leader;
    private int knownLeader = -1;
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
        IndexStateMachine machine = new IndexStateMachine();
        LogReplica replica = LogReplica.create(node, thread, group, shards.logName(shard), slots,
                IndexFormat.MAX_ENTRY_BYTES, machine);
        IndexShardServer server = new IndexShardServer(thread, endpoint, shards, shard, replica, machine, commitTimeout);
        endpoint.register(shards.methodId(shard), server::serve);
        return server;
    }

    /** {@return the shard this server serves} */
    public int shard() {
        return shard;
    }

    /** {@return this server's node} */
    public int nodeId() {
        return thread.nodeId();
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
        lead(LogLeader.open(thread, group, shards.logName(shard), term, timeout));
    }

    /**
     * Serves the requests that arrive within {@code timeout} (returning after the first message or at the
     * deadline, as {@link RpcEndpoint#serve}), then applies every committed entry of this member's log. Blocking,
     * bounded by {@code timeout} plus, per request served as leader, the commit timeout. RDMA: per request served,
     * as the class comment says; none to apply.
     *
     * @param timeout the longest wait for a request, zero or positive
     * @return the requests served
     */
    public int runOnce(Duration timeout) {
        requireOpen();
        int served = endpoint.serve(timeout);
        replica.applyCommitted();
        return served;
    }

    /** Stops leading, collecting the leader's WRITEs in flight; the endpoint and compute thread stay open. Idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            stopLeading();
        }
    }

    private void stopLeading() {
        if (leader != null) {
            LogLeader l = leader;
            leader = null;
            l.close();
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
            long index = leader.append(request.asSlice(0, length), commitTimeout);
            appends++;
            leader.flushCommit(commitTimeout);
            replica.awaitApplied(index + 1, commitTimeout);
        } catch (LeaderFencedException e) {
            stopLeading();
            knownLeader = -1;
            notLeaderAnswers++;
            return IndexFormat.writeReply(reply, IndexStatus.NOT_LEADER, -1, null);
        } catch (RemoteTimeoutException e) {
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
