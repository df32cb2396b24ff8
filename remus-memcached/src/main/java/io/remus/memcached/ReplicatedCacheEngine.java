package io.remus.memcached;

import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.time.ThreadTime;
import io.remus.ds.index.IndexShards;
import io.remus.ds.replicate.ReplicaGroup;
import io.remus.memcached.ReplicatedCacheShard.Request;
import io.remus.memcached.ReplicatedCacheShard.Status;
import io.remus.memcached.ReplicatedItemMachine.Command;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link MemcachedEngine} over a replicated memcached store: keys hash to shards (FNV-1a-64 of the key modulo the
 * shard count, Fowler, Noll, Vo), each shard a replica group of {@code 2f + 1} members, each member a
 * {@link ReplicatedCacheShard} whose state machine is a {@link ReplicatedItemMachine}. One handle is one client:
 * an id and a sequence number raised per command. Every command, gets included, is sent to the shard's leader as
 * it last knew it, appended to the shard's log, committed by a majority and applied, so each is linearizable; a
 * command survives the crash of a minority of its shard's members once acknowledged.
 *
 * <p><b>Call path.</b> The handle reaches a member's server through a {@link Transport}: in one process a
 * {@link Router} finds the server and the request goes to it directly ({@link ReplicatedCacheShard#submit}, a
 * lock-free queue the server's thread drains); with one process per node {@link ReplicatedCache} sends it to the
 * member's trustee. On {@link Status#NOT_LEADER} the handle moves to the member named, with none named or no answer
 * within the attempt time to the next member, and on {@link Status#RETRY} it asks again, always with the same
 * (client, sequence), so the command is applied once however often it is sent (the session table of Schneider,
 * "Implementing fault-tolerant services using the state machine approach", ACM Computing Surveys 1990, and
 * Ongaro, "Consensus: Bridging Theory and Practice", Stanford 2014, §6.3).
 *
 * <p><b>Item size.</b> Values up to {@code maxItemBytes} bytes, as the shards were created with (the log's entry
 * holds {@value ReplicatedItemMachine#HEADER_BYTES} header bytes, the key and the value).
 *
 * <p><b>Costs per command</b>: the leader's 2 round trips and 4 WRITEs (3 members; {@link ReplicatedCacheShard}),
 * plus the hand-off to the leader's server: none in one process (a queue), one trustee request across processes
 * (2 WRITEs there and 2 back, 1 round trip; {@link ReplicatedCache}). <b>Progress</b>: blocking; each command ends within the handle's
 * deadline, with {@link RemoteTimeoutException} when no leader answered; it is then unknown whether it took effect.
 * Confined to the thread that uses it.
 */
public final class ReplicatedCacheEngine implements MemcachedEngine {
    private final List<ReplicaGroup> groups;
    private final Transport transport;
    private final long client;
    private final int maxItemBytes;
    private final Duration attempt;
    private final Duration deadline;
    private final int[] guess;
    private long sequence;
    private long attempts;

    /**
     * Finds the server of a shard on a member.
     */
    @FunctionalInterface
    public interface Router {
        /**
         * {@return the server of {@code shard} on {@code node}, or null when none is reachable}
         *
         * @param shard the shard
         * @param node  a member of its group
         */
        ReplicatedCacheShard server(int shard, int node);
    }

    /**
     * Hands one request to the server of a shard on a member and waits, bounded, for its answer.
     */
    @FunctionalInterface
    public interface Transport {
        /**
         * Sends {@code request} to the server of {@code shard} on {@code node} and waits until the server
         * completed it ({@link Request#isDone()}) or {@code attemptEndNanos} (a {@link ThreadTime#nanoTime()}
         * reading) passed. Blocking, bounded by {@code attemptEndNanos}.
         *
         * @param shard           the shard
         * @param node            a member of its group
         * @param request         the request, not yet sent on this attempt
         * @param attemptEndNanos when to give up waiting for this member
         * @return whether the member answered (the request is done); false when it is unreachable, has no server
         *         of the shard or did not answer in time
         */
        boolean send(int shard, int node, Request request, long attemptEndNanos);
    }

    /**
     * A handle whose requests go to servers of this process, found by {@code router}.
     *
     * @param groups       each shard's replica group, shard 0 first
     * @param router       how the handle finds a member's server
     * @param client       this client's id, unique among the store's clients
     * @param maxItemBytes the largest value, as the shards were created with
     * @param attempt      how long one attempt waits for an answer
     * @param deadline     how long one command may take in all
     * @throws BadArgumentException naming the value, for no groups, a size not positive or a bad timeout
     */
    public ReplicatedCacheEngine(List<ReplicaGroup> groups, Router router, long client, int maxItemBytes,
                                 Duration attempt, Duration deadline) {
        this(groups, local(Objects.requireNonNull(router, "router")), client, maxItemBytes, attempt, deadline);
    }

    /**
     * A handle whose requests go through {@code transport}.
     *
     * @param groups       each shard's replica group, shard 0 first
     * @param transport    how the handle reaches a member's server
     * @param client       this client's id, unique among the store's clients
     * @param maxItemBytes the largest value, as the shards were created with
     * @param attempt      how long one attempt waits for an answer
     * @param deadline     how long one command may take in all
     * @throws BadArgumentException naming the value, for no groups, a size not positive or a bad timeout
     */
    public ReplicatedCacheEngine(List<ReplicaGroup> groups, Transport transport, long client, int maxItemBytes,
                                 Duration attempt, Duration deadline) {
        if (groups == null || groups.isEmpty()) {
            throw new BadArgumentException("a replicated store needs at least one shard's group, got " + groups);
        }
        if (maxItemBytes <= 0) {
            throw new BadArgumentException("maxItemBytes must be positive, got " + maxItemBytes);
        }
        Timeouts.require(attempt, "attempt");
        Timeouts.require(deadline, "deadline");
        this.groups = List.copyOf(groups);
        this.transport = Objects.requireNonNull(transport, "transport");
        this.client = client;
        this.maxItemBytes = maxItemBytes;
        this.attempt = attempt;
        this.deadline = deadline;
        this.guess = new int[groups.size()];
    }

    /** Hands requests to servers of this process: submit, then wait for the server's thread. */
    private static Transport local(Router router) {
        return (shard, node, request, attemptEnd) -> {
            ReplicatedCacheShard server = router.server(shard, node);
            if (server == null) {
                ThreadTime.parkNanos(null, 1_000);
                return false;
            }
            server.submit(request);
            while (!request.isDone() && ThreadTime.nanoTime() - attemptEnd < 0) {
                ThreadTime.parkNanos(null, 1_000);
            }
            return request.isDone();
        };
    }

    /**
     * {@return the shard of {@code key}: FNV-1a-64 of its bytes modulo {@code shards}, as {@link IndexShards#shardOf(byte[], int)}}
     *
     * @param key    the key
     * @param shards the shard count, positive
     */
    public static int shardOf(byte[] key, int shards) {
        return IndexShards.shardOf(key, shards);
    }

    /** {@return this client's id} */
    public long clientId() {
        return client;
    }

    /** {@return the sequence number of this handle's last command} */
    public long sequence() {
        return sequence;
    }

    /** {@return attempts sent, first tries included} */
    public long attempts() {
        return attempts;
    }

    @Override
    public int maxItemBytes() {
        return maxItemBytes;
    }

    @Override
    public Item get(byte[] key) {
        return (Item) run(shardOf(key, groups.size()), Command.get(key));
    }

    @Override
    public StoreResult store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
        return (StoreResult) run(shardOf(key, groups.size()), Command.store(mode, key, flags, exptime, value, cas));
    }

    @Override
    public boolean delete(byte[] key) {
        return (Boolean) run(shardOf(key, groups.size()), Command.delete(key));
    }

    @Override
    public ArithmeticResult arithmetic(byte[] key, boolean increment, long delta) {
        return (ArithmeticResult) run(shardOf(key, groups.size()), Command.arithmetic(key, increment, delta));
    }

    @Override
    public boolean touch(byte[] key, long exptime) {
        return (Boolean) run(shardOf(key, groups.size()), Command.touch(key, exptime));
    }

    /** Flushes every shard in turn, each as one command through its log. */
    @Override
    public void flushAll(long delay) {
        for (int s = 0; s < groups.size(); s++) {
            run(s, Command.flushAll(delay));
        }
    }

    /** Closes the transport when it is {@link AutoCloseable}. */
    @Override
    public void close() {
        if (transport instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("closing the transport of client " + client + " failed", e);
            }
        }
    }

    /** Sends one command to its shard's leader until it is answered, with one sequence number. */
    private Object run(int shard, Command command) {
        long seq = ++sequence;
        ReplicaGroup group = groups.get(shard);
        long end = ThreadTime.nanoTime() + deadline.toNanos();
        String last = "no answer";
        while (ThreadTime.nanoTime() - end < 0) {
            int node = group.member(guess[shard]);
            Request r = new Request(client, seq, command);
            attempts++;
            long attemptEnd = Math.min(end, ThreadTime.nanoTime() + attempt.toNanos());
            if (!transport.send(shard, node, r, attemptEnd) || !r.isDone()) {
                guess[shard] = (guess[shard] + 1) % group.size();
                continue;
            }
            last = r.status() + " from node " + node + " naming " + r.leaderHint();
            switch (r.status()) {
                case OK -> {
                    return r.result();
                }
                case STALE -> throw new IllegalStateException("client " + client + " sequence " + seq
                        + " answered as stale: two handles share the client id");
                case NOT_LEADER -> {
                    int hint = group.indexOf(r.leaderHint());
                    guess[shard] = hint >= 0 && hint != guess[shard] ? hint : (guess[shard] + 1) % group.size();
                    ThreadTime.parkNanos(null, 2_000);
                }
                default -> ThreadTime.parkNanos(null, 2_000);
            }
        }
        throw new RemoteTimeoutException("no leader of shard " + shard + " " + group + " answered client " + client
                + " sequence " + seq + " within " + deadline + "; last answer: " + last);
    }
}
