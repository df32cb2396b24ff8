package io.remus.ds.index;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.rpc.RpcMethodFailedException;
import io.remus.core.rpc.RpcUnknownMethodException;
import io.remus.core.time.ThreadTime;
import io.remus.ds.replicate.ReplicaGroup;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client of the replicated, sharded index: {@link #put}, {@link #get} and {@link #delete} of byte-string keys,
 * each linearizable and applied exactly once. A key's shard is {@link IndexShards#shardOf}; the client sends the
 * operation to the node it believes leads that shard (at first the group's first member) over its
 * {@link RpcEndpoint}, and the leader answers once the operation's log entry is committed and applied
 * ({@link IndexShardServer}).
 *
 * <p><b>Finding the leader.</b> A {@link IndexStatus#NOT_LEADER} answer names the leader the called member
 * knows; the client tries that node next, or the group's next member when the answer names none, itself, or a
 * node outside the group. A call that times out (the attempt timeout), a member that is gone
 * ({@link PeerUnreachableException}) or has no server for the shard yet also moves it to the next member. After a
 * round of every member without an answer it backs off for a few microseconds. It keeps its guess per shard.
 *
 * <p><b>Exactly once.</b> The client has an id, unique among the index's clients and not 0, chosen by the
 * program (for example the node id and a thread number), and numbers its operations 1, 2, 3, ...; every retry of
 * an operation carries the same number, so the shard applies it at most once ({@link IndexStateMachine}) and
 * answers a retry of an applied operation with the first answer. One operation is in flight per client.
 *
 * <p><b>Costs.</b> One RPC (one WRITE_WITH_IMMEDIATE each way, one round trip) per attempt; the leader's two
 * round trips of log replication happen inside it (3 network round trips per operation when the first guess is
 * right). Blocking, bounded by the caller's timeout: when no leader answered by then, the operation throws
 * {@link RemoteTimeoutException} and may or may not have taken effect (a later operation of this client never
 * makes it take effect afterwards, since the shard applies only sequences above the last it applied).
 *
 * <p>Bad input is refused before any RDMA operation with a {@link BadArgumentException} naming the value: a null,
 * empty or longer than {@value IndexFormat#MAX_KEY_BYTES}-byte key, a null, empty or longer than
 * {@value IndexFormat#MAX_VALUE_BYTES}-byte value, a timeout that is not positive, a leader guess outside the
 * shard's group; an endpoint not connected to the member called throws the endpoint's {@link BadArgumentException}
 * naming the node, before anything is sent. Confined to the endpoint's thread.
 */
public final class RemusIndex {
    /** The longest pause after a round of members none of which led. */
    private static final long BACKOFF_NANOS = 20_000;

    private final RpcEndpoint endpoint;
    private final IndexShards shards;
    private final long clientId;
    private final Duration attemptTimeout;
    private final int[] guess;
    private final MemorySegment request = MemorySegment.ofArray(new byte[RpcEndpoint.MAX_PAYLOAD]);
    private final MemorySegment reply = MemorySegment.ofArray(new byte[RpcEndpoint.MAX_PAYLOAD]);
    private long sequence;
    private long attempts;
    private long notLeaderAnswers;
    private long retryAnswers;
    private long failedAttempts;

    /**
     * Creates a client. No RDMA operation.
     *
     * @param endpoint       this node's RPC endpoint, connected to every member of every shard
     * @param shards         the index's shard map
     * @param clientId       the client's id: not 0, and used by no other client of the index
     * @param attemptTimeout how long one attempt waits for a member's answer before the client tries the next
     *                       member; longer than a leader's commit timeout, so that a slow commit is answered
     * @throws BadArgumentException naming the value, for a null endpoint or shard map, client id 0 or an attempt
     *                              timeout that is not positive
     */
    public RemusIndex(RpcEndpoint endpoint, IndexShards shards, long clientId, Duration attemptTimeout) {
        if (endpoint == null || shards == null) {
            throw new BadArgumentException("a client needs an RPC endpoint and a shard map");
        }
        if (clientId == 0) {
            throw new BadArgumentException("client id 0 is reserved; give each client another, unique id");
        }
        this.endpoint = endpoint;
        this.shards = shards;
        this.clientId = clientId;
        this.attemptTimeout = Timeouts.require(attemptTimeout, "attemptTimeout");
        this.guess = new int[shards.count()];
        for (int s = 0; s < guess.length; s++) {
            guess[s] = shards.group(s).member(0);
        }
    }

    /** {@return this client's id} */
    public long clientId() {
        return clientId;
    }

    /** {@return the sequence number of this client's last operation, 0 before the first} */
    public long sequence() {
        return sequence;
    }

    /** {@return RPCs sent, first tries and retries} */
    public long attempts() {
        return attempts;
    }

    /** {@return {@link IndexStatus#NOT_LEADER} answers received} */
    public long notLeaderAnswers() {
        return notLeaderAnswers;
    }

    /** {@return {@link IndexStatus#RETRY} answers received} */
    public long retryAnswers() {
        return retryAnswers;
    }

    /** {@return attempts that got no answer: timed out, member gone or without the shard's server} */
    public long failedAttempts() {
        return failedAttempts;
    }

    /**
     * {@return the node this client will call first for {@code shard}}
     *
     * @param shard 0..{@link IndexShards#count()} - 1
     */
    public int leaderGuess(int shard) {
        shards.group(shard);
        return guess[shard];
    }

    /**
     * Sets the node this client calls first for {@code shard}, for a program that knows the leader. No RDMA operation.
     *
     * @param shard  0..{@link IndexShards#count()} - 1
     * @param nodeId a member of the shard's group
     * @throws BadArgumentException naming the node and the group when it is not a member
     */
    public void expectLeader(int shard, int nodeId) {
        shards.group(shard).requireMember(nodeId, "leader of shard " + shard);
        guess[shard] = nodeId;
    }

    /**
     * Stores {@code value} under {@code key}. Linearizable; takes effect exactly once when it returns.
     *
     * @param key     1..{@value IndexFormat#MAX_KEY_BYTES} bytes
     * @param value   1..{@value IndexFormat#MAX_VALUE_BYTES} bytes
     * @param timeout how long the caller lets the operation, with its retries, take
     * @return whether the key held a value before
     * @throws BadArgumentException   naming the size and limit of a bad key or value, or a bad timeout (nothing sent)
     * @throws RemoteTimeoutException when no leader answered within {@code timeout}; the put may have taken effect
     */
    public boolean put(byte[] key, byte[] value, Duration timeout) {
        IndexFormat.requireKey(key);
        IndexFormat.requireValue(value);
        Timeouts.require(timeout, "timeout");
        return invoke(IndexFormat.PUT, key, value, ++sequence, timeout) == IndexStatus.FOUND;
    }

    /**
     * Reads {@code key}'s value, through the shard's log. Linearizable.
     *
     * @param key     1..{@value IndexFormat#MAX_KEY_BYTES} bytes
     * @param timeout how long the caller lets the operation, with its retries, take
     * @return a copy of the value, or null when the key has none
     * @throws BadArgumentException   naming the size and limit of a bad key, or a bad timeout (nothing sent)
     * @throws RemoteTimeoutException when no leader answered within {@code timeout}
     */
    public byte[] get(byte[] key, Duration timeout) {
        IndexFormat.requireKey(key);
        Timeouts.require(timeout, "timeout");
        if (invoke(IndexFormat.GET, key, null, ++sequence, timeout) == IndexStatus.ABSENT) {
            return null;
        }
        byte[] v = new byte[Short.toUnsignedInt(reply.get(IndexFormat.LE_SHORT, IndexFormat.REPLY_VALUE_LENGTH))];
        MemorySegment.copy(reply, ValueLayout.JAVA_BYTE, IndexFormat.REPLY_HEADER_BYTES, v, 0, v.length);
        return v;
    }

    /**
     * Removes {@code key}'s value. Linearizable; takes effect exactly once when it returns.
     *
     * @param key     1..{@value IndexFormat#MAX_KEY_BYTES} bytes
     * @param timeout how long the caller lets the operation, with its retries, take
     * @return whether the key held a value
     * @throws BadArgumentException   naming the size and limit of a bad key, or a bad timeout (nothing sent)
     * @throws RemoteTimeoutException when no leader answered within {@code timeout}; the delete may have taken effect
     */
    public boolean delete(byte[] key, Duration timeout) {
        IndexFormat.requireKey(key);
        Timeouts.require(timeout, "timeout");
        return invoke(IndexFormat.DELETE, key, null, ++sequence, timeout) == IndexStatus.FOUND;
    }

    /**
     * Sends one operation under {@code seq} until a leader answers it or the deadline passes; the arguments are
     * checked. Package-private so that tests can resend an earlier sequence.
     *
     * @return {@link IndexStatus#FOUND} or {@link IndexStatus#ABSENT}; the reply stays in {@link #reply}
     */
    IndexStatus invoke(byte op, byte[] key, byte[] value, long seq, Duration timeout) {
        int shard = shards.shardOf(key);
        ReplicaGroup group = shards.group(shard);
        int length = IndexFormat.writeRequest(request, op, shard, clientId, seq, key, value);
        MemorySegment out = request.asSlice(0, length);
        int method = shards.methodId(shard);
        long start = ThreadTime.nanoTime();
        long deadline = start + timeout.toNanos();
        int unanswered = 0;
        RemusException last = null;
        while (true) {
            long left = deadline - ThreadTime.nanoTime();
            if (left <= 0) {
                throw new RemoteTimeoutException("client " + clientId + ": no leader of shard " + shard + " " + group
                        + " answered operation " + seq + " within " + timeout + " (" + notLeaderAnswers + " not-leader answers, "
                        + failedAttempts + " unanswered attempts so far; last guess node " + guess[shard]
                        + (last == null ? "" : "; last failure: " + last.getMessage()) + ")");
            }
            int node = guess[shard];
            attempts++;
            IndexStatus status;
            try {
                endpoint.call(node, method, out, reply, Duration.ofNanos(Math.min(left, attemptTimeout.toNanos())));
                status = IndexStatus.of(reply.get(ValueLayout.JAVA_BYTE, IndexFormat.STATUS));
            } catch (RemoteTimeoutException | PeerUnreachableException | RpcUnknownMethodException
                     | RpcMethodFailedException e) {
                last = e;
                failedAttempts++;
                guess[shard] = next(group, node);
                if (++unanswered % group.size() == 0) {
                    ThreadTime.parkNanos(this, Math.min(BACKOFF_NANOS, Math.max(1, deadline - ThreadTime.nanoTime())));
                }
                continue;
            }
            if (status == null) {
                throw new RemusException("node " + node + " answered with status byte "
                        + reply.get(ValueLayout.JAVA_BYTE, IndexFormat.STATUS) + ", which is no index status");
            }
            switch (status) {
                case FOUND, ABSENT -> {
                    return status;
                }
                case NOT_LEADER -> {
                    notLeaderAnswers++;
                    int hint = reply.get(IndexFormat.LE_INT, IndexFormat.LEADER);
                    boolean useful = hint != node && group.indexOf(hint) >= 0;
                    guess[shard] = useful ? hint : next(group, node);
                    if (!useful && ++unanswered % group.size() == 0) {
                        ThreadTime.parkNanos(this, Math.min(BACKOFF_NANOS, Math.max(1, deadline - ThreadTime.nanoTime())));
                    }
                }
                case RETRY -> retryAnswers++;
                case STALE -> throw new BadArgumentException("client id " + clientId + ": shard " + shard
                        + " has applied a later sequence than " + seq + " for this id; two clients share it");
                default -> {
                    int n = Short.toUnsignedInt(reply.get(IndexFormat.LE_SHORT, IndexFormat.REPLY_VALUE_LENGTH));
                    byte[] text = new byte[n];
                    MemorySegment.copy(reply, ValueLayout.JAVA_BYTE, IndexFormat.REPLY_HEADER_BYTES, text, 0, n);
                    throw new BadArgumentException("node " + node + " refused operation " + seq + " of client " + clientId
                            + ": " + new String(text, StandardCharsets.UTF_8));
                }
            }
        }
    }

    private static int next(ReplicaGroup group, int node) {
        int i = group.indexOf(node);
        return group.member((i + 1) % group.size());
    }
}
