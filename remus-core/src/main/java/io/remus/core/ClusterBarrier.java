package io.remus.core;

import io.remus.core.time.ThreadTime;
import io.remus.core.config.NodeRange;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.BarrierMismatchException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;

import java.time.Duration;
import java.util.Objects;

/**
 * A cluster-wide barrier over one word in the control block of the first memory node
 * ({@link ControlBlock#BARRIER_WORD}), changed only by RDMA compare-and-swap (the thread's own node
 * included). The word holds three fields:
 *
 * <pre>
 *  63            40 39            20 19             0
 * +----------------+----------------+----------------+
 * |   generation   |  participants  |    arrivals    |
 * +----------------+----------------+----------------+
 * </pre>
 *
 * The generation counts released rounds (modulo 2<sup>24</sup>); participants and arrivals
 * describe the round in progress, both 0 between rounds. An arrival is a compare-and-swap that adds
 * one to the arrivals; the first arrival of a round also records its participant count, and every
 * later one must bring the same count: one that does not is refused with a
 * {@link BarrierMismatchException} naming both counts and is not counted. The last arrival of a
 * round swaps the word to the next generation with no round in progress, which releases the others:
 * they wait until the generation differs from the one their arrival saw. So the count is part of
 * the round's identity, and a waiter is released only by the completion of its own round: rounds
 * of other counts, before or after it, cannot release it (generation counting as in the
 * sense-reversing barrier of Mellor-Crummey and Scott, "Algorithms for Scalable Synchronization on
 * Shared-Memory Multiprocessors", TOCS 1991, with the sense widened to a generation). A waiter
 * whose timeout expires withdraws its arrival by compare-and-swap before it fails, so a timed-out
 * round leaves nothing behind; if the round was released in the meantime, it returns normally.
 *
 * <h2>Naming the nodes that did not arrive</h2>
 * A barrier of {@link #ofComputeNodes} has one participant per compute node and knows which node
 * each is, so its timeout names the compute nodes (id and address from the node list) that had not
 * arrived in the round. Each compute node owns one bit of the arrival bitmap beside the barrier
 * word ({@link ControlBlock#barrierBitmap}), changed only by RDMA fetch-and-add: before its arrival
 * in a round, a node flips its bit (adding the bit when it is clear, subtracting it when it is set,
 * so no carry reaches another bit), so the bit is the parity of the rounds the node has entered. A
 * waiter that times out READs the bitmap and names the nodes whose bit differs from its own. Parity
 * suffices: while round {@code k} is in progress, every participant has entered round {@code k-1}
 * (it completed, and each node arrives once per round) and none has entered round {@code k+1}
 * (round {@code k} did not complete). A node whose arrival was withdrawn after its own timeout, or
 * refused by a {@link BarrierMismatchException}, keeps its bit flipped and does not flip it again
 * when it calls {@link #await()} next, which rejoins the same round; such a node is not named,
 * since it came. A node that flipped its bit but whose arrival was not yet counted is not named
 * either. Barriers of {@link #ClusterBarrier(ComputeThread, int, Duration) a participant count}
 * know no nodes: their timeout gives the counts only. The names assume one instance per compute
 * node, and that every compute node passes the rounds of the compute-node count on the word in the
 * same order (a count-only barrier of that count may share the word's rounds in that order); where
 * they do not, the names can be wrong, never the barrier.
 *
 * <h2>Cost</h2>
 * RDMA operations per {@link #await()}: one compare-and-swap for the arrival when the guess of
 * the word (the word this instance last saw released) holds, otherwise one more per arrival that
 * changed the word in between (at most the participant count plus one: the arrival is wait-free);
 * the last arrival nothing more; the others READs of the word until its generation changes (CPU
 * reads where the word is on the thread's own node, which the atomicity table allows against RDMA
 * atomics), and on a timeout one more READ and compare-and-swap per change of the word in between.
 * A barrier of {@link #ofComputeNodes} adds, before the arrival, one fetch-and-add on its bit,
 * plus one READ of its bitmap word on the instance's first {@link #await()}; on a timeout, one READ
 * per 64 compute nodes (one bitmap word each) to name the missing ones. The fetch-and-add is the
 * price of keeping the record in an RDMA-atomic-only word on the first memory node: a local store
 * into a word of each node's own memory would cost no RDMA operation, but a compute node need not
 * have memory, and a word its CPU stores while peers READ it may tear on Soft-RoCE.
 *
 * <p>Blocking, not fault-tolerant: a participant that never arrives stops the others, who then
 * fail with {@link RemoteTimeoutException} after the timeout. At most
 * {@value #MAX_PARTICIPANTS} participants. One instance per compute thread.
 */
public final class ClusterBarrier {
    /** The most participants a barrier can count (20 bits). */
    public static final int MAX_PARTICIPANTS = (1 << 20) - 1;
    private static final long FIELD = (1L << 20) - 1;
    private static final int PARTICIPANTS_SHIFT = 20;
    private static final int GENERATION_SHIFT = 40;
    private static final int MAX_NAMED = 32;

    private final ComputeThread thread;
    private final int participants;
    private final long word;
    private final Duration timeout;
    private final NodeRange nodes;
    private final long bitmap;
    private long guess;
    private int parity = -1;
    private boolean entered;

    /**
     * A barrier for every compute thread of the cluster ({@code computeNodes x threadsPerNode}).
     *
     * @param thread the calling thread's compute thread
     */
    public ClusterBarrier(ComputeThread thread) {
        this(thread, Objects.requireNonNull(thread, "thread").config().totalComputeThreads());
    }

    /**
     * A barrier of {@code participants} threads, bounded by the configured operation timeout.
     *
     * @param thread       the calling thread's compute thread
     * @param participants how many threads each round waits for; the same everywhere
     */
    public ClusterBarrier(ComputeThread thread, int participants) {
        this(thread, participants, Objects.requireNonNull(thread, "thread").config().operationTimeout());
    }

    /**
     * A barrier with its own wait bound, e.g. a start-up barrier that waits for processes started
     * at different times longer than one operation may take.
     *
     * @param thread       the calling thread's compute thread
     * @param participants how many threads each round waits for; the same everywhere
     * @param timeout      the longest {@link #await()} waits for the others: positive, at most
     *                     {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER} to wait without end
     * @throws NullPointerException when {@code thread} or {@code timeout} is null
     * @throws BadArgumentException naming the value when {@code participants} is not in
     *                              [1, {@value #MAX_PARTICIPANTS}] or {@code timeout} is out of
     *                              {@link Timeouts#require}'s range
     */
    public ClusterBarrier(ComputeThread thread, int participants, Duration timeout) {
        this(thread, participants, timeout, null);
    }

    private ClusterBarrier(ComputeThread thread, int participants, Duration timeout, NodeRange nodes) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(timeout, "timeout");
        Timeouts.require(timeout, "barrier timeout");
        if (participants <= 0 || participants > MAX_PARTICIPANTS) {
            throw new BadArgumentException("a barrier needs 1.." + MAX_PARTICIPANTS + " participants, got " + participants);
        }
        this.thread = thread;
        this.participants = participants;
        long block = thread.segmentBase(thread.config().memoryNodes().first(), 0);
        this.word = RemotePtr.offset(block, ControlBlock.BARRIER_WORD);
        this.timeout = timeout;
        this.nodes = nodes;
        this.bitmap = RemotePtr.offset(block, ControlBlock.barrierBitmap(thread.config().nodes().size()));
    }

    /**
     * A barrier of one participant per compute node of the cluster, {@code thread} being its node's:
     * a timed-out {@link #await()} names the compute nodes that had not arrived in the round (see
     * the class documentation). One such instance per compute node at a time; after a timeout,
     * call {@link #await()} of the same instance to rejoin the round (a new instance would enter
     * the next round and so confuse the names, never the barrier).
     *
     * @param thread  the calling node's compute thread for this barrier
     * @param timeout the longest {@link #await()} waits for the others: positive, at most
     *                {@link Timeouts#MAX_FINITE}, or {@link Timeouts#FOREVER} to wait without end
     * @return the barrier
     * @throws NullPointerException when {@code thread} or {@code timeout} is null
     * @throws BadArgumentException naming the value when {@code timeout} is out of
     *                              {@link Timeouts#require}'s range
     */
    public static ClusterBarrier ofComputeNodes(ComputeThread thread, Duration timeout) {
        NodeRange computeNodes = Objects.requireNonNull(thread, "thread").config().computeNodes();
        return new ClusterBarrier(thread, computeNodes.size(), timeout, computeNodes);
    }

    /**
     * Waits until all participants arrived in this round.
     *
     * @throws BarrierMismatchException when the current round was opened by a participant counting a
     *                                  different number of participants (this arrival is not counted)
     * @throws RemoteTimeoutException   when they did not within the barrier's timeout (by default the
     *                                  configured operation timeout); this arrival is withdrawn. A
     *                                  barrier of {@link #ofComputeNodes} names the compute nodes
     *                                  that had not arrived (id and address), others give the counts
     */
    public void await() {
        if (nodes != null && !entered) {
            enter();
        }
        long p = participants;
        long expected = guess;
        long generation;
        long arrived;
        while (true) {
            generation = generation(expected);
            arrived = arrivals(expected);
            long roundParticipants = participants(expected);
            if (arrived != 0 && roundParticipants != p) {
                throw new BarrierMismatchException(participants, roundParticipants, "barrier " + RemotePtr.toString(word)
                        + ": this thread counts " + p + " participants, but the current round was opened by one counting "
                        + roundParticipants + " (" + arrived + " arrived); this arrival is not counted");
            }
            long next = arrived + 1 == p ? word(generation + 1, 0, 0) : word(generation, p, arrived + 1);
            long was = thread.compareAndSwap(word, expected, next);
            if (was == expected) {
                break;
            }
            expected = was;
        }
        guess = word(generation + 1, 0, 0);
        if (arrived + 1 == p) {
            entered = false;
            return;
        }
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        int spins = 0;
        while (generation(thread.read(word)) == generation) {
            spins++;
            if (spins > 64) {
                if (ThreadTime.nanoTime() - deadline > 0) {
                    withdraw(generation);
                    entered = false;
                    return;
                }
                ThreadTime.parkNanos(null, 20_000);
            } else {
                ThreadTime.onSpinWait();
            }
        }
        entered = false;
    }

    /** Flips this node's arrival bit, entering the next round (the bit's first value is READ once). */
    private void enter() {
        int id = thread.nodeId();
        long bitWord = RemotePtr.offset(bitmap, 8L * (id / 64));
        long bit = 1L << (id % 64);
        if (parity < 0) {
            parity = (thread.read(bitWord) & bit) == 0 ? 0 : 1;
        }
        int was = parity;
        parity = -1;
        thread.fetchAndAdd(bitWord, was == 0 ? bit : -bit);
        parity = was ^ 1;
        entered = true;
    }

    /** Takes this thread's arrival back from round {@code generation} and fails; returns if the round was released meanwhile. */
    private void withdraw(long generation) {
        long now = thread.read(word);
        while (generation(now) == generation) {
            long arrived = arrivals(now);
            long next = arrived == 1 ? word(generation, 0, 0) : now - 1;
            long was = thread.compareAndSwap(word, now, next);
            if (was == now) {
                String counts = "barrier: not all " + participants + " participants arrived within " + timeout + " ("
                        + (arrived - 1) + " others had arrived; this arrival is withdrawn)";
                throw new RemoteTimeoutException(nodes == null ? counts : counts + "; not arrived: " + missingNodes());
            }
            now = was;
        }
    }

    /** {@return the compute nodes whose arrival bit says they have not entered this node's round, as "node 2 (host:port)"} */
    private String missingNodes() {
        int self = thread.nodeId();
        long mine = parity;
        StringBuilder names = new StringBuilder();
        int listed = 0;
        long bits = 0;
        for (int id = nodes.first(); id <= nodes.last(); id++) {
            if (id == nodes.first() || id % 64 == 0) {
                bits = thread.read(RemotePtr.offset(bitmap, 8L * (id / 64)));
            }
            if (id != self && ((bits >>> (id % 64)) & 1) != mine) {
                if (listed++ < MAX_NAMED) {
                    names.append(names.isEmpty() ? "" : ", ").append("node ").append(id)
                            .append(" (").append(thread.config().nodeAddress(id)).append(')');
                }
            }
        }
        if (listed > MAX_NAMED) {
            names.append(" and ").append(listed - MAX_NAMED).append(" more");
        }
        return listed == 0 ? "none named (every compute node of nodes " + nodes + " had entered the round; the "
                + "missing arrivals were on their way)" : names.toString();
    }

    static long word(long generation, long participants, long arrivals) {
        return (generation & ((1L << 24) - 1)) << GENERATION_SHIFT | participants << PARTICIPANTS_SHIFT | arrivals;
    }

    static long generation(long word) {
        return word >>> GENERATION_SHIFT;
    }

    static long participants(long word) {
        return (word >>> PARTICIPANTS_SHIFT) & FIELD;
    }

    static long arrivals(long word) {
        return word & FIELD;
    }
}
