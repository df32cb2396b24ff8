package io.remus.ds.replicate;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteAccessException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * The leader of a replicated log: Mu's replication plane (Aguilera, Ben-David, Guerraoui, Marathe, Xygkis,
 * Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020; the one-round-trip common
 * case of "The Impact of RDMA on Agreement", PODC 2019). The leader runs on a member of the group and
 * appends each entry by storing it in its own log with the CPU and WRITEing it with one RDMA WRITE into
 * every follower's log; the entry is committed once a majority of the group (the leader's own copy
 * counts) holds it. The followers' CPUs take no part: each member's {@link LogReplica} reads its own log.
 *
 * <h2>Costs and progress</h2>
 * {@link #append}: a CPU copy into the local log, then one RDMA WRITE of the whole slot to each of the
 * {@code 2f} followers, posted together, and a wait until {@code f} of them acknowledged: <b>{@code 2f}
 * WRITEs, 1 round trip</b>. When the log has wrapped, a slot is reused only once every attached member has
 * applied the entry it held: the leader READs the applied word of each follower its last look found behind
 * (one 8-byte READ each, posted together, 1 round trip more), at most once every {@code slots} appends
 * while followers keep up. {@link #flushCommit}: one 8-byte WRITE of the commit count to each follower, 1
 * round trip. Non-blocking with respect to the group: a call waits only for a majority, so {@code f} down or
 * slow followers never block it; it is bounded by the caller's timeout ({@link RemoteTimeoutException}).
 *
 * <h2>Followers that fall behind or stop</h2>
 * The WRITEs to one follower are in flight together up to a window (from the compute thread's operations
 * in flight and buffer, {@link #window()}); each append leaves the acknowledgements beyond the majority in
 * flight and collects them on later calls. A follower whose WRITE fails (it stopped answering), whose
 * window is full, or whose applied count keeps a slot from being reused while a majority has applied it, is
 * <b>detached</b>: it gets no more WRITEs, so its log has a gap until {@link #reattach} writes it the entries
 * it lacks from this leader's own log (catch-up, while the ring still holds them).
 *
 * <h2>Fencing</h2>
 * Each member lets only its chosen leader write its log ({@link LogReplica#grantWriteTo}, Mu's permission
 * switch). A WRITE refused by a member that switched away deposes this leader: the append throws
 * {@link LeaderFencedException}, the refusal is counted ({@link #fencedWrites()}), the entry is not reported
 * committed (no member applies it, since no later commit count covers it), and every later call throws
 * {@link LeaderFencedException} without an RDMA operation.
 *
 * <h2>Leader change</h2>
 * A leader from {@link #open} uses the term its program gives and starts at index 0 of empty logs; the
 * program grants it write access. A leader from {@link #takeOver} is elected: the members'
 * {@link ReplicaAgent}s grant it write access for a fresh term of its own, and it recovers the log from a
 * majority before appending (Mu's leader change; see {@link #takeOver}).
 *
 * <h2>Snapshots</h2>
 * After Raft's InstallSnapshot (Ongaro, "Consensus: Bridging Theory and Practice", PhD thesis, Stanford 2014,
 * ch. 5): each member stores images of its own state machine in its snapshot region
 * ({@link LogReplica#takeSnapshot}); {@link #reattach} brings a follower further behind than the ring back by
 * WRITEing this node's latest image into the follower's region, then the entries after it, and the follower
 * restores it by itself; {@link #takeOver} on a member behind the granting members' rings first READs a granting
 * member's image into its own region. A member without a region, or with no image the ring follows, still
 * cannot be brought back ({@code reattach} returns false, {@code takeOver} throws {@link ReplicaBehindException}).
 *
 * <p>Confined to its compute thread's owner; the thread's buffer is the leader's staging area while the
 * leader is open.
 */
public final class LogLeader implements AutoCloseable {
    private static final java.lang.invoke.VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    /**
     * Looks at the members' promised words a takeover makes back to back before it paces them: a grant by polling
     * agents usually arrives within these, so the common case waits no longer.
     */
    private static final int PROMISE_SPINS = 64;
    /** The longest pause between two later looks (they start at 1 µs and double): about 64 µs. */
    private static final long PROMISE_PARK_MAX_NANOS = 64_000;
    /** The tag of a pending READ of a follower's applied count. */
    private static final long READ_TAG = Long.MIN_VALUE;
    private final ComputeThread thread;
    private final ReplicaGroup group;
    /** The logs' name, by which a member's log is looked up again after its node restarted. */
    private final String name;
    private final long term;
    private final int self;
    private final long[] logs;
    private final int slots;
    private final int slotBytes;
    private final int maxEntryBytes;
    private final int window;
    private final int[] areaUse;
    private final boolean[] attached;
    private final long[] matched;
    private final long[] appliedSeen;
    private final long[] flushAcked;
    private final long[][] pendingHandle;
    private final long[][] pendingTag;
    private final int[][] pendingArea;
    private final int[] pendingHead;
    private final int[] pendingCount;
    private final long[] scratch;
    private final boolean[] reading;
    private final boolean[] answered;
    private long appended;
    private long committed;
    private long flushTicket;
    private long fencedWrites;
    private int detachedLagging;
    private int detachedDown;
    private int deposedBy = -1;
    private boolean closed;
    private boolean elected;
    private int suspectsSkipped;
    private long recovered;
    private long rewritten;
    private long caughtUp;
    private long snapshotInstalls;
    private long snapshotWrites;
    private long snapshotRestoredFrom = -1;
    private long snapshotReads;
    private long recoveriesCleared;
    private long logsLookedUpAgain;

    private LogLeader(ComputeThread thread, ReplicaGroup group, String name, long term, long[] logs, int slots,
                      int maxEntryBytes, int window) {
        this.thread = thread;
        this.group = group;
        this.name = name;
        this.term = term;
        this.self = group.indexOf(thread.nodeId());
        this.logs = logs;
        this.slots = slots;
        this.maxEntryBytes = maxEntryBytes;
        this.slotBytes = LogLayout.slotBytes(maxEntryBytes);
        this.window = window;
        int n = group.size();
        this.areaUse = new int[(n - 1) * window + 1];
        this.attached = new boolean[n];
        this.matched = new long[n];
        this.appliedSeen = new long[n];
        this.flushAcked = new long[n];
        this.pendingHandle = new long[n][window];
        this.pendingTag = new long[n][window];
        this.pendingArea = new int[n][window];
        this.pendingHead = new int[n];
        this.pendingCount = new int[n];
        this.scratch = new long[n];
        this.reading = new boolean[n];
        this.answered = new boolean[n];
        Arrays.fill(attached, true);
        attached[self] = false;
    }

    /**
     * Opens the leader of the log named {@code name} on every member. Looks each member's log up in that
     * member's {@link NameDirectory} (waiting for members that have not created it yet, up to the timeout) and
     * READs its shape word (one 8-byte READ per follower; the local member's by CPU). Every member should have
     * granted this node write access ({@link LogReplica#grantWriteTo}) before the first append.
     *
     * @param thread  the leader's compute thread, on the group's {@linkplain ReplicaGroup#plane() plane}; its node must
     *                be a member with its {@link LogReplica} created
     * @param group   the replica group
     * @param name    the logs' name, as given to {@link LogReplica#create}
     * @param term    the leader's term (Mu's proposal number), written into every slot it writes
     * @param timeout how long to wait for the members' logs to be published
     * @return the leader
     * @throws BadArgumentException      naming the value, for a thread whose node is not a member or not on the
     *                                   group's plane, members whose logs differ in shape, or a compute thread whose operations in flight or
     *                                   buffer cannot hold one WRITE per follower and {@code 2f + 1} staged slots
     * @throws CorruptedMemoryException  when a member's log header is no log's
     * @throws io.remus.core.error.NameNotPublishedException when a member's log is not published in time
     */
    public static LogLeader open(ComputeThread thread, ReplicaGroup group, String name, long term, Duration timeout) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timeout, "timeout");
        group.requireMember(thread.nodeId(), "leader");
        requirePlane(thread, group, name);
        int n = group.size();
        long[] logs = new long[n];
        long shape = -1;
        long start = ThreadTime.nanoTime();
        for (int i = 0; i < n; i++) {
            Duration left = timeout.minusNanos(ThreadTime.nanoTime() - start);
            logs[i] = NameDirectory.open(thread, group.member(i)).await(name, left.isNegative() ? Duration.ZERO : left);
            shape = checkShape(group, name, i, logs[i], thread.read(logs[i] + LogLayout.SHAPE), shape, 0);
        }
        shape &= ~LogLayout.FLAGS;
        return create(thread, group, name, term, logs, shape);
    }

    /** Checks a member's shape word against the first one seen; returns it. */
    private static long checkShape(ReplicaGroup group, String name, int i, long log, long word, long shape, int first) {
        long s = word & ~LogLayout.FLAGS;
        int slots = (int) (s >>> 32);
        int bytes = (int) s;
        if (slots < 2 || slots > LogLayout.MAX_SLOTS || bytes <= LogLayout.OVERHEAD_BYTES || (bytes & 7) != 0) {
            throw new CorruptedMemoryException(log + LogLayout.SHAPE, s, "log \"" + name + "\" at "
                    + RemotePtr.toString(log) + ": shape word 0x" + Long.toHexString(s) + " is no log's");
        }
        if (shape != -1 && s != (shape & ~LogLayout.FLAGS)) {
            throw new BadArgumentException("log \"" + name + "\" of node " + group.member(i) + " has " + slots + " slots of "
                    + bytes + " bytes, node " + group.member(first) + "'s " + (shape >>> 32) + " of " + (int) shape);
        }
        return s;
    }

    private static LogLeader create(ComputeThread thread, ReplicaGroup group, String name, long term, long[] logs,
                                    long shape) {
        int n = group.size();
        int slots = (int) (shape >>> 32);
        int slotBytes = (int) shape;
        int followers = n - 1;
        int ops = thread.config().opsInFlightPerThread();
        long buffer = thread.buffer().byteSize();
        int window = (int) Math.min((ops - followers) / followers, (buffer / slotBytes - 1) / followers);
        if (window < 1) {
            throw new BadArgumentException("a leader of " + followers + " followers needs " + 2 * followers
                    + " operations in flight and " + (followers + 1) * (long) slotBytes + " bytes of buffer for slots of "
                    + slotBytes + " bytes; its compute thread has " + ops + " and " + buffer);
        }
        return new LogLeader(thread, group, name, term, logs, slots, slotBytes - LogLayout.OVERHEAD_BYTES, window);
    }

    /**
     * Takes the group over as a new leader and recovers the log, after Mu's leader change (Aguilera et al.,
     * OSDI 2020: the permission switch, then the new leader reads a majority's logs and re-proposes, under its
     * own proposal number, the highest-numbered value of every slot not known decided, as Paxos does).
     *
     * <ol>
     * <li>Finds each member's log by name ({@link NameDirectory#lookup}, its READs) and READs its shape; a member
     *     that does not answer is left out (and not attached). This member's own log is looked up first; then
     *     the members that this member's agent suspects (the agent given, or else the open agent of this node's
     *     log, read as a hint from the thread that polls it) are left out, so that a silent node costs no
     *     transport timeout here, and are looked up after the others only when those found are fewer than a
     *     majority (the majority rule of step 3 is unchanged: a member left out never counts towards it).</li>
     * <li>READs the candidate and promised words of each member found (one 16-byte READ each) and picks a term
     *     above all of them that belongs to this member ({@code round * (2f + 1) + index + 1}: terms of two
     *     members never coincide). Publishes it in this node's candidate word (a CPU store); the members'
     *     {@link ReplicaAgent}s grant this node write access for it once they elect this node.</li>
     * <li>READs the members' promised words (one 8-byte READ per member not yet granted, per look; the first 64
     *     looks back to back, later ones after a pause doubling from 1 µs up to 64 µs) until a
     *     majority (this member included) promised this term, and a majority of those promising have logs without
     *     the {@linkplain LogLayout#RECOVERING recovering bit} (one 8-byte READ of the shape word per look at each
     *     granting member still recovering): a log that {@link LogReplica#rejoin} made anew is no source, since an
     *     entry committed with its lost copy may be on one other member only. A member that promised a higher term
     *     deposes this leader ({@link LeaderFencedException}).</li>
     * <li>READs the whole log of every member that granted (one READ per buffer-sized chunk, one after another)
     *     and, for each index from the lowest applied count among those not recovering on, adopts the whole entry of
     *     the highest term among them (recovering logs are read for their applied counts only); the first index at or above the highest commit count seen that no member holds ends the
     *     recovered log. When this member's own applied count is behind the entries the granting members still
     *     hold, it first restores from the image of a granting follower's snapshot region that covers the most
     *     entries the rings still follow: one 24-byte READ of each such follower's descriptor, then one READ per
     *     buffer-sized chunk of the chosen image and one of its descriptor again, the checksum checked over the
     *     copy, which it stores into this node's own region (CPU stores, covers word last) for this member's
     *     {@link LogReplica#applyCommitted} to restore; it then recovers the entries after the image.</li>
     * <li>Rewrites every recovered entry under the new term into its own log (CPU) and into each granted
     *     follower from that follower's applied count on (one WRITE per entry and follower, in flight together up
     *     to the window), waits until a majority holds them all, then flushes the commit count (one 8-byte WRITE
     *     per attached follower, 1 round trip). A granting member still recovering that got every rewritten entry
     *     from its applied count on (attached) then has its recovering bit cleared: one 8-byte WRITE of its shape
     *     word once its WRITEs completed, 1 round trip each (this member's own by a CPU store).</li>
     * </ol>
     *
     * Costs, for {@code g} members granting and {@code r} entries rewritten per follower: {@code 2f} READs for the
     * shapes and {@code 2f} for the terms (1 round trip each, after the directory's lookups), {@code g - 1} READs
     * per look at the promises, {@code (g - 1) * ceil(log bytes / buffer bytes)} READs of the logs (as many round
     * trips), about {@code r * (g - 1)} WRITEs in {@code ceil(r / window)} round trips, and the flush. Appends
     * continue at the end of the recovered log. A member that granted but whose applied count is behind the
     * entries the granting members still hold (further behind than the ring) is left detached, for
     * {@link #reattach} to bring back from a snapshot; a node should
     * hold one open leader at a time (a leader whose node's candidate word changed, by a later
     * {@code takeOver} there, is deposed).
     *
     * @param thread  the new leader's compute thread, on the group's {@linkplain ReplicaGroup#plane() plane}; its node
     *                must be a member with its {@link LogReplica}
     *                created and its {@link ReplicaAgent} polling
     * @param group   the replica group
     * @param name    the logs' name, as given to {@link LogReplica#create}
     * @param timeout how long the takeover may wait, for the promises and for the recovered entries to commit
     * @return the leader, with {@link #appended()} and {@link #committed()} at the end of the recovered log
     * @throws BadArgumentException    naming the value, for a thread whose node is not a member or not on the
     *                                 group's plane, logs of different shapes, or a compute thread too small (as {@link #open})
     * @throws LeaderFencedException   when a member promised a higher term, or refused a rewrite
     * @throws RemoteTimeoutException  when no majority promised, or held the recovered entries, within the timeout
     * @throws ReplicaBehindException  when this node's own log is further behind than the entries the granting
     *                                 members still hold and no granting follower has a whole snapshot image,
     *                                 fitting this node's region, that covers entries the rings still follow
     */
    public static LogLeader takeOver(ComputeThread thread, ReplicaGroup group, String name, Duration timeout) {
        return takeOver(thread, group, name, timeout, null);
    }

    /**
     * As {@link #takeOver(ComputeThread, ReplicaGroup, String, Duration)}, for a caller whose own thread also
     * drives this member's {@link ReplicaAgent} (its compute thread another of the same owner): while it waits
     * for the promises, each look also {@linkplain ReplicaAgent#poll polls} {@code agent}, so this member grants
     * its own term and its heartbeat goes on. Costs as that method, plus each poll's READs.
     *
     * @param thread  the new leader's compute thread, on the group's plane, not the agent's
     * @param group   the replica group
     * @param name    the logs' name, as given to {@link LogReplica#create}
     * @param timeout how long the takeover may wait, for the promises and for the recovered entries to commit
     * @param agent   this member's agent, owned by the calling thread; null: none polled
     * @return the leader, with {@link #appended()} and {@link #committed()} at the end of the recovered log
     * @throws BadArgumentException    as the other overload, or for an agent of another node
     * @throws LeaderFencedException   when a member promised a higher term, or refused a rewrite
     * @throws RemoteTimeoutException  when no majority promised, or held the recovered entries, within the timeout
     * @throws ReplicaBehindException  as the other overload
     */
    public static LogLeader takeOver(ComputeThread thread, ReplicaGroup group, String name, Duration timeout,
                                     ReplicaAgent agent) {
        Objects.requireNonNull(thread, "thread");
        if (agent != null && agent.nodeId() != thread.nodeId()) {
            throw new BadArgumentException("the agent of node " + agent.nodeId() + " given to a takeover on node "
                    + thread.nodeId());
        }
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timeout, "timeout");
        int self = group.requireMember(thread.nodeId(), "leader");
        requirePlane(thread, group, name);
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        int n = group.size();
        long[] logs = new long[n];
        boolean[] recovering = new boolean[n];
        boolean[] suspected = new boolean[n];
        int found = 0;
        int skipped = 0;
        long shape = -1;
        ReplicaAgent hint = agent;
        for (int pass = 0; pass < 2; pass++) {
            for (int k = 0; k < n; k++) {
                int i = k == 0 ? self : k <= self ? k - 1 : k;
                if (pass == 0 && k == 1 && hint == null && logs[self] != RemotePtr.NULL) {
                    hint = ReplicaAgent.ofLog(logs[self]);
                }
                if (pass == 0 && i != self && hint != null && hint.isSuspected(group.member(i))) {
                    suspected[i] = true;
                    skipped++;
                    continue;
                }
                if (pass == 1 && !suspected[i]) {
                    continue;
                }
                try {
                    long ptr = lookUp(thread, group.member(i), name);
                    if (ptr != RemotePtr.NULL) {
                        long word = thread.read(ptr + LogLayout.SHAPE);
                        shape = checkShape(group, name, i, ptr, word, shape, self);
                        recovering[i] = (word & LogLayout.RECOVERING) != 0;
                        logs[i] = ptr;
                        found++;
                    }
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    logs[i] = RemotePtr.NULL;
                }
            }
            if (found >= group.majority() || skipped == 0) {
                break;
            }
            skipped = 0;
        }
        if (logs[self] == RemotePtr.NULL) {
            throw new BadArgumentException("log \"" + name + "\" is not published on the leader's node " + thread.nodeId());
        }
        MemorySegment words = MemorySegment.ofArray(new long[2]);
        long seen = 0;
        for (int i = 0; i < n; i++) {
            if (logs[i] != RemotePtr.NULL) {
                try {
                    thread.read(logs[i] + LogLayout.CANDIDATE, words);
                    seen = Math.max(seen, Math.max(words.get(ValueLayout.JAVA_LONG, 0), words.get(ValueLayout.JAVA_LONG, 8)));
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    logs[i] = RemotePtr.NULL;
                }
            }
        }
        long term = LogLayout.nextTerm(seen, self, n);
        thread.writeLocal(logs[self] + LogLayout.CANDIDATE, term);
        boolean[] granted = awaitPromises(thread, group, logs, recovering, term, deadline, timeout, agent);
        LogLeader leader = create(thread, group, name, term, logs, shape);
        leader.elected = true;
        leader.suspectsSkipped = skipped;
        leader.recover(granted, recovering, deadline, timeout);
        return leader;
    }

    /**
     * Looks a member's log up by name in its directory; when the member's node restarted since this thread last
     * reached it, looks it up once more in the new incarnation's directory.
     */
    private static long lookUp(ComputeThread thread, int member, String name) {
        try {
            return NameDirectory.open(thread, member).lookup(name);
        } catch (PeerRestartedException e) {
            return NameDirectory.open(thread, member).lookup(name);
        }
    }

    private static boolean[] awaitPromises(ComputeThread thread, ReplicaGroup group, long[] logs, boolean[] recovering,
                                           long term, long deadline, Duration timeout, ReplicaAgent agent) {
        int n = group.size();
        boolean[] granted = new boolean[n];
        int count = 0;
        int sources = 0;
        int looks = 0;
        while (true) {
            if (agent != null) {
                agent.poll();
            }
            for (int i = 0; i < n; i++) {
                if (logs[i] != RemotePtr.NULL && granted[i] && recovering[i]) {
                    try {
                        if ((thread.read(logs[i] + LogLayout.SHAPE) & LogLayout.RECOVERING) == 0) {
                            recovering[i] = false;
                            sources++;
                        }
                    } catch (RemoteOperationException | RemoteTimeoutException e) {
                        logs[i] = RemotePtr.NULL;
                        granted[i] = false;
                        count--;
                    }
                }
                if (logs[i] == RemotePtr.NULL || granted[i]) {
                    continue;
                }
                long p;
                try {
                    p = thread.read(logs[i] + LogLayout.PROMISED);
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    logs[i] = RemotePtr.NULL;
                    continue;
                }
                if (p == term) {
                    granted[i] = true;
                    count++;
                    if (!recovering[i]) {
                        sources++;
                    }
                } else if (p > term) {
                    throw new LeaderFencedException(group.member(i), "node " + group.member(i) + " promised term " + p
                            + ", above term " + term + " of the takeover on node " + thread.nodeId());
                }
            }
            if (count >= group.majority() && sources >= group.majority()) {
                return granted;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException(count + " of group " + group + " promised term " + term + " to node "
                        + thread.nodeId() + " within " + timeout + ", " + sources + " of them with a log no rejoin left "
                        + "recovering; a majority of each is " + group.majority());
            }
            looks++;
            if (looks <= PROMISE_SPINS) {
                ThreadTime.onSpinWait("a majority's promises");
            } else {
                ThreadTime.parkNanos("a majority's promises",
                        Math.min(PROMISE_PARK_MAX_NANOS, 1_000L << Math.min(20, looks - PROMISE_SPINS - 1)));
            }
        }
    }

    /** Steps 4 and 5 of {@link #takeOver}. */
    private void recover(boolean[] granted, boolean[] recovering, long deadline, Duration timeout) {
        int n = group.size();
        long logBytes = LogLayout.logBytes(slots, maxEntryBytes);
        MemorySegment[] img = new MemorySegment[n];
        long[] applied = new long[n];
        long known = 0;
        long lo = Long.MAX_VALUE;
        long maxIndex = -1;
        int chunk = (int) Math.min(thread.buffer().byteSize(), logBytes);
        for (int i = 0; i < n; i++) {
            if (!granted[i]) {
                continue;
            }
            try {
                img[i] = MemorySegment.ofArray(new long[(int) (logBytes / 8)]);
                for (long off = 0; off < logBytes; off += chunk) {
                    thread.read(logs[i] + off, img[i].asSlice(off, Math.min(chunk, logBytes - off)));
                }
            } catch (RemoteOperationException | RemoteTimeoutException e) {
                granted[i] = false;
                img[i] = null;
                continue;
            }
            applied[i] = img[i].get(ValueLayout.JAVA_LONG, LogLayout.APPLIED);
            if (recovering[i]) {
                continue;
            }
            known = Math.max(known, Math.max(applied[i], img[i].get(ValueLayout.JAVA_LONG, LogLayout.COMMIT)));
            lo = Math.min(lo, applied[i]);
            for (int k = 0; k < slots; k++) {
                MemorySegment slot = img[i].asSlice(LogLayout.HEADER_BYTES + (long) k * slotBytes, slotBytes);
                long stamp = slot.get(ValueLayout.JAVA_LONG, LogLayout.STAMP);
                if (stamp > 0 && LogLayout.wholeLength(slot, stamp - 1, maxEntryBytes) > 0) {
                    maxIndex = Math.max(maxIndex, stamp - 1);
                    known = Math.max(known, slot.get(ValueLayout.JAVA_LONG, LogLayout.SLOT_COMMIT));
                }
            }
        }
        long from = Math.max(lo, maxIndex + 1 - slots);
        int span = (int) Math.max(0, maxIndex + 1 - from);
        int[] best = new int[span];
        long[] bestTerm = new long[span];
        Arrays.fill(best, -1);
        for (int i = 0; i < n; i++) {
            if (img[i] == null || recovering[i]) {
                continue;
            }
            for (int d = 0; d < span; d++) {
                long index = from + d;
                MemorySegment slot = slotOf(img[i], index);
                if (LogLayout.wholeLength(slot, index, maxEntryBytes) > 0) {
                    long t = slot.get(ValueLayout.JAVA_LONG, LogLayout.TERM);
                    if (best[d] < 0 || t > bestTerm[d]) {
                        best[d] = i;
                        bestTerm[d] = t;
                    }
                }
            }
        }
        if (known > from + span) {
            throw new ReplicaBehindException(thread.nodeId(), applied[self], known, "the members that granted term "
                    + term + " to node " + thread.nodeId() + " know " + known + " entries committed but hold entries up to "
                    + maxIndex + " only");
        }
        long end = Math.max(from, known);
        while (end - from < span && best[(int) (end - from)] >= 0) {
            end++;
        }
        long servable = from;
        for (long index = from; index < Math.min(known, end); index++) {
            if (best[(int) (index - from)] < 0) {
                servable = index + 1;
            }
        }
        if (applied[self] < servable) {
            long covers = restoreFromMember(img, granted, servable, end);
            if (covers >= 0) {
                applied[self] = covers;
            }
        }
        if (applied[self] < servable) {
            throw new ReplicaBehindException(thread.nodeId(), applied[self], servable, "the new leader on node "
                    + thread.nodeId() + " applied " + applied[self] + " entries; the members that granted term " + term
                    + " hold entries from " + servable + " on only, and none of them has a snapshot image covering "
                    + servable + " to " + end + " entries that fits this member's snapshot region");
        }
        for (int i = 0; i < n; i++) {
            attached[i] = i != self && granted[i] && applied[i] >= servable;
            if (granted[i]) {
                appliedSeen[i] = applied[i];
                matched[i] = Math.min(applied[i], end);
            }
        }
        matched[self] = end;
        appliedSeen[self] = applied[self];
        committed = Math.min(known, end);
        long start = applied[self];
        for (int i = 0; i < n; i++) {
            if (attached[i]) {
                start = Math.min(start, applied[i]);
            }
        }
        MemorySegment buffer = thread.buffer();
        for (long index = start; index < end; index++) {
            MemorySegment src = slotOf(img[best[(int) (index - from)]], index);
            long length = LogLayout.wholeLength(src, index, maxEntryBytes);
            int slotLength = LogLayout.slotBytes((int) length);
            int area = awaitFreeArea(deadline, timeout);
            long areaOffset = (long) area * slotBytes;
            MemorySegment image = buffer.asSlice(areaOffset, slotLength);
            MemorySegment.copy(src, 0, image, 0, slotLength);
            image.set(ValueLayout.JAVA_LONG, LogLayout.TERM, term);
            image.set(ValueLayout.JAVA_LONG, LogLayout.SLOT_COMMIT, Math.min(known, index));
            long checksum = LogLayout.checksum(image, length);
            image.set(ValueLayout.JAVA_LONG, LogLayout.CHECKSUM, checksum);
            image.set(ValueLayout.JAVA_LONG, slotLength - 8, checksum);
            long slotOffset = LogLayout.HEADER_BYTES + (index % slots) * slotBytes;
            if (index >= applied[self]) {
                thread.writeLocal(logs[self] + slotOffset + 8, areaOffset + 8, slotLength - 8);
                thread.writeLocal(logs[self] + slotOffset, index + 1);
            }
            for (int i = 0; i < n; i++) {
                if (attached[i] && applied[i] <= index && awaitRoom(i)) {
                    int f = i;
                    long h = post(i, () -> thread.writeAsync(logs[f] + slotOffset, areaOffset, slotLength, false));
                    if (h >= 0) {
                        push(i, h, index, area);
                        rewritten++;
                    }
                }
            }
        }
        recovered = end - Math.min(start, end);
        appended = end;
        recomputeCommit();
        long last = end;
        awaitMajority(deadline, timeout, () -> committed >= last, "the recovered entries up to " + end);
        long left = deadline - ThreadTime.nanoTime();
        flushCommit(Duration.ofNanos(Math.max(1, left)));
        for (int i = 0; i < n; i++) {
            if (recovering[i] && (i == self || attached[i])) {
                clearRecovering(i);
            }
        }
    }

    /**
     * Clears member {@code i}'s recovering bit once every WRITE to it in flight completed (so its log holds this
     * leader's from its applied count on): one 8-byte WRITE of its shape word, or a CPU store for this node's own.
     * A follower whose WRITE fails is detached and keeps its bit.
     */
    private void clearRecovering(int i) {
        long shape = (long) slots << 32 | slotBytes;
        if (i == self) {
            thread.writeLocal(logs[self] + LogLayout.SHAPE, shape);
            recoveriesCleared++;
            return;
        }
        while (attached[i] && pendingCount[i] > 0) {
            finishHead(i);
        }
        if (!attached[i]) {
            return;
        }
        long h = post(i, () -> thread.writeWordAsync(logs[i] + LogLayout.SHAPE, shape, false));
        if (h < 0) {
            return;
        }
        try {
            thread.await(h);
            recoveriesCleared++;
        } catch (RemoteAccessException e) {
            fencedWrites++;
            if (deposedBy < 0) {
                deposedBy = group.member(i);
            }
            requireLeading();
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            detach(i, true);
        }
    }

    /**
     * Posts one operation to follower {@code i}: {@return its handle, or -1 when the follower's node cannot be reached
     * or restarted (the post failed, so the log pointer this leader holds may be void): the follower is then detached,
     * for {@link #reattach} to look its log up again}. A restarted node's log pointer is forgotten at once: the compute
     * thread reports the restart once ({@link PeerRestartedException}) and drops the node's regions, so the former
     * pointer lies in no segment of the new incarnation and is never posted again.
     */
    private long post(int i, java.util.function.LongSupplier op) {
        try {
            return op.getAsLong();
        } catch (PeerUnreachableException e) {
            if (e instanceof PeerRestartedException) {
                logs[i] = RemotePtr.NULL;
            }
            detach(i, true);
            return -1;
        }
    }

    /**
     * Restores this member, behind the granting members' rings, from a granting member's snapshot: READs the
     * snapshot descriptors of the granting followers that have a region (one 24-byte READ each), picks the image
     * covering the most entries between {@code servable} and {@code end}, READs it (one READ per buffer-sized
     * chunk, one after another) and its descriptor again, checks its checksum over the copy, and stores it into
     * this node's own region with CPU stores (covers word cleared first, descriptor last); this member's
     * {@link LogReplica#applyCommitted} restores it. Returns the entries it covers, or -1 when no granting member
     * has such an image (or its READs failed, or it changed while read).
     */
    private long restoreFromMember(MemorySegment[] img, boolean[] granted, long servable, long end) {
        long ownPtr = img[self].get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT);
        long ownCapacity = img[self].get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT_CAPACITY);
        if (ownPtr == 0) {
            return -1;
        }
        MemorySegment descriptor = MemorySegment.ofArray(new long[3]);
        int best = -1;
        long bestCovers = -1;
        for (int i = 0; i < group.size(); i++) {
            if (i == self || !granted[i] || img[i].get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT) == 0) {
                continue;
            }
            try {
                snapshotReads++;
                thread.read(img[i].get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT) + LogLayout.SNAP_COVERS, descriptor);
            } catch (RemoteOperationException | RemoteTimeoutException e) {
                continue;
            }
            long covers = descriptor.get(ValueLayout.JAVA_LONG, 0);
            long length = descriptor.get(ValueLayout.JAVA_LONG, 8);
            if (covers >= servable && covers <= end && covers > bestCovers && length >= 0 && length <= ownCapacity) {
                best = i;
                bestCovers = covers;
            }
        }
        if (best < 0) {
            return -1;
        }
        long region = img[best].get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT);
        try {
            snapshotReads++;
            thread.read(region + LogLayout.SNAP_COVERS, descriptor);
            long covers = descriptor.get(ValueLayout.JAVA_LONG, 0);
            long length = descriptor.get(ValueLayout.JAVA_LONG, 8);
            long checksum = descriptor.get(ValueLayout.JAVA_LONG, 16);
            if (covers != bestCovers || length < 0 || length > ownCapacity) {
                return -1;
            }
            long padded = LogLayout.padded(length);
            MemorySegment copy = MemorySegment.ofArray(new long[(int) (padded / 8)]);
            long chunk = thread.buffer().byteSize() & ~7L;
            for (long off = 0; off < padded; off += chunk) {
                thread.read(region + LogLayout.SNAP_IMAGE + off, copy.asSlice(off, Math.min(chunk, padded - off)));
                snapshotReads++;
            }
            MemorySegment again = MemorySegment.ofArray(new long[3]);
            thread.read(region + LogLayout.SNAP_COVERS, again);
            snapshotReads++;
            if (again.get(ValueLayout.JAVA_LONG, 0) != covers || again.get(ValueLayout.JAVA_LONG, 8) != length
                    || again.get(ValueLayout.JAVA_LONG, 16) != checksum
                    || LogLayout.snapshotChecksum(covers, length, copy) != checksum) {
                return -1;
            }
            MemorySegment own = thread.localSegment(ownPtr, LogLayout.snapshotRegionBytes(ownCapacity));
            ThreadTime.onLocalAccess();
            WORD.setVolatile(own, (long) LogLayout.SNAP_COVERS, 0L);
            MemorySegment.copy(copy, 0, own, LogLayout.SNAP_IMAGE, padded);
            WORD.setVolatile(own, (long) LogLayout.SNAP_LENGTH, length);
            WORD.setVolatile(own, (long) LogLayout.SNAP_CHECKSUM, checksum);
            WORD.setVolatile(own, (long) LogLayout.SNAP_COVERS, covers);
            snapshotRestoredFrom = group.member(best);
            return covers;
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            return -1;
        }
    }

    private MemorySegment slotOf(MemorySegment log, long index) {
        return log.asSlice(LogLayout.HEADER_BYTES + (index % slots) * slotBytes, slotBytes);
    }

    /** Waits (each wait bounded by the thread's operation timeout) until follower {@code i}'s window has room. */
    private boolean awaitRoom(int i) {
        while (attached[i] && pendingCount[i] == window) {
            finishHead(i);
        }
        return attached[i];
    }

    /**
     * Brings a detached follower back (catch-up): READs its shape word, applied count, promised term and snapshot
     * region (one 64-byte READ of its header, 1 round trip; when that READ finds the follower's node restarted,
     * {@link io.remus.core.error.PeerRestartedException}, or {@link #takeOver} could not find its log, its log is
     * looked up again by name in its node's {@link NameDirectory} first, the directory's READs and one 8-byte READ
     * of the shape), and when it granted this leader's term (a log {@link LogReplica#rejoin} made: once it granted
     * any leader since) (for a leader from
     * {@link #open}: always) and this leader's own log still holds every entry from its applied count on, WRITEs
     * it those entries from this node's log (one WRITE per entry, in flight together up to the window:
     * {@code ceil(r / window)} round trips for {@code r} entries) and waits for them, then attaches it again.
     *
     * <p>When the follower is further behind than this leader's ring (Raft's InstallSnapshot, Ongaro's thesis
     * ch. 5), the leader installs the image in its own member's snapshot region, when that image covers more than
     * the follower applied and the ring holds every entry after it: it copies the image (CPU loads, checked whole
     * against its checksum), waits for every follower's operations in flight, then WRITEs into the follower's
     * region one 8-byte WRITE clearing the covers word and one WRITE per chunk of {@code buffer / window} bytes,
     * in flight together up to the window ({@code ceil((1 + chunks) / window)} round trips), and, once all
     * completed, the 24-byte descriptor (1 round trip); then the entries after the image as above. The follower's
     * {@link LogReplica#applyCommitted} restores the image, checking it whole on its own copy, and applies on from
     * there. A follower without a region, or a leader whose member has no such image (its program takes snapshots
     * with {@link LogReplica#takeSnapshot}), returns false.
     *
     * <p>When the follower's log carries the {@linkplain LogLayout#RECOVERING recovering bit}
     * ({@link LogReplica#rejoin}), once every catch-up WRITE completed the leader clears it with one 8-byte WRITE of
     * the shape word (1 round trip): the log then holds this leader's log from its applied count to its end, so
     * every entry committed so far, and counts as a source in later takeovers.
     *
     * <p>Before that, the follower's operations still in flight are collected (each wait bounded by the thread's
     * operation timeout). The entries commit on the follower as later appends or {@link #flushCommit} reach it.
     * Blocking, bounded by the caller's timeout.
     *
     * @param nodeId  a follower of the group
     * @param timeout how long the caller lets the call wait for staging areas
     * @return whether the follower is attached again (true at once when it is attached; false when it does not
     *         answer, its log is not published, or a log made by {@link LogReplica#rejoin} has granted no leader yet)
     * @throws BadArgumentException   naming the node when it is not a member or is this leader's own, or naming
     *                                the sizes when this node's image is larger than the follower's region, or
     *                                naming both shapes when the log looked up again has another shape
     * @throws CorruptedMemoryException when the log looked up again has a shape word that is no log's
     * @throws LeaderFencedException  when a member refused a WRITE of this leader, now or earlier
     * @throws RemoteTimeoutException when no staging area freed within the timeout, or the image's chunks were not
     *                                written by then (its descriptor is then never written: it is never restored)
     */
    public boolean reattach(int nodeId, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        int i = group.requireMember(nodeId, "follower");
        if (i == self) {
            throw new BadArgumentException("node " + nodeId + " is the leader's own; it is never detached");
        }
        requireLeading();
        if (attached[i]) {
            return true;
        }
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        while (pendingCount[i] > 0) {
            finishHead(i);
        }
        MemorySegment header = MemorySegment.ofArray(new long[LogLayout.HEADER_BYTES / 8]);
        try {
            if (logs[i] == RemotePtr.NULL && !lookUpAgain(i)) {
                return false;
            }
            try {
                thread.read(logs[i], header);
            } catch (PeerRestartedException e) {
                logs[i] = RemotePtr.NULL; // void in the new incarnation, even when the new log is not found yet
                if (!lookUpAgain(i)) {
                    return false;
                }
                thread.read(logs[i], header);
            }
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            return false;
        }
        long word = header.get(ValueLayout.JAVA_LONG, LogLayout.SHAPE);
        boolean recovering = (word & LogLayout.RECOVERING) != 0;
        if ((word & LogLayout.UNGRANTED) != 0) {
            return false;
        }
        long applied = header.get(ValueLayout.JAVA_LONG, LogLayout.APPLIED);
        long promised = header.get(ValueLayout.JAVA_LONG, LogLayout.PROMISED);
        long snapPtr = header.get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT);
        long snapCapacity = header.get(ValueLayout.JAVA_LONG, LogLayout.SNAPSHOT_CAPACITY);
        if ((elected && promised != term) || applied > appended) {
            return false;
        }
        MemorySegment own = thread.localSegment(logs[self], LogLayout.logBytes(slots, maxEntryBytes));
        if (!holdsFrom(own, applied)) {
            long covers = installSnapshot(i, applied, snapPtr, snapCapacity, own, deadline, timeout);
            if (covers < 0) {
                return false;
            }
            applied = covers;
        }
        attached[i] = true;
        matched[i] = applied;
        appliedSeen[i] = applied;
        MemorySegment buffer = thread.buffer();
        for (long index = applied; index < appended && attached[i]; index++) {
            MemorySegment src = slotOf(own, index);
            int slotLength = LogLayout.slotBytes((int) LogLayout.wholeLength(src, index, maxEntryBytes));
            int area = awaitFreeArea(deadline, timeout);
            long areaOffset = (long) area * slotBytes;
            MemorySegment.copy(src, 0, buffer, areaOffset, slotLength);
            if (awaitRoom(i)) {
                long at = logs[i] + LogLayout.HEADER_BYTES + (index % slots) * slotBytes;
                long h = post(i, () -> thread.writeAsync(at, areaOffset, slotLength, false));
                if (h >= 0) {
                    push(i, h, index, area);
                    caughtUp++;
                }
            }
        }
        while (attached[i] && pendingCount[i] > 0) {
            finishHead(i);
        }
        if (recovering && attached[i]) {
            clearRecovering(i);
        }
        return attached[i];
    }

    /**
     * Looks follower {@code i}'s log up again by name in its node's directory (the directory's READs), after its
     * node restarted: the log a {@link LogReplica#rejoin} made there, whose shape must be this log's. {@return whether
     * it is published}; a failed lookup returns false.
     */
    private boolean lookUpAgain(int i) {
        long ptr;
        try {
            ptr = lookUp(thread, group.member(i), name);
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            return false;
        }
        if (ptr == RemotePtr.NULL) {
            return false;
        }
        checkShape(group, name, i, ptr, thread.read(ptr + LogLayout.SHAPE), (long) slots << 32 | slotBytes, self);
        logs[i] = ptr;
        logsLookedUpAgain++;
        return true;
    }

    /** Whether this leader's own log holds every entry from {@code from} to {@link #appended} whole. */
    private boolean holdsFrom(MemorySegment own, long from) {
        if (from > appended || appended - from > slots) {
            return false;
        }
        for (long index = from; index < appended; index++) {
            if (LogLayout.wholeLength(slotOf(own, index), index, maxEntryBytes) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Raft's InstallSnapshot over one-sided RDMA: copies this node's latest snapshot image (its own member's
     * region, CPU loads, checked whole against its checksum) and WRITEs it into follower {@code i}'s region: one
     * 8-byte WRITE clearing the covers word, one WRITE per staging chunk ({@code buffer / window} bytes), in flight
     * together up to the window, then, once all completed, one 24-byte WRITE of the descriptor. Returns the entries
     * the image covers, or -1 when this node has no image that helps (none, not above the follower's applied count,
     * or one whose following entries the ring no longer holds), the follower has no region, or a WRITE failed.
     */
    private long installSnapshot(int i, long applied, long snapPtr, long snapCapacity, MemorySegment own, long deadline,
                                 Duration timeout) {
        long ownPtr = thread.readLocal(logs[self] + LogLayout.SNAPSHOT);
        if (ownPtr == 0 || snapPtr == 0) {
            return -1;
        }
        MemorySegment image = copyOwnSnapshot(ownPtr);
        if (image == null) {
            return -1;
        }
        long covers = image.get(ValueLayout.JAVA_LONG, 0);
        long length = image.get(ValueLayout.JAVA_LONG, 8);
        if (covers <= applied || !holdsFrom(own, covers)) {
            return -1;
        }
        if (length > snapCapacity) {
            throw new BadArgumentException("snapshot image of " + length + " bytes on node " + thread.nodeId()
                    + "; the snapshot region of node " + group.member(i) + " takes 0.." + snapCapacity
                    + " (members of a group give the same snapshotBytes)");
        }
        for (int j = 0; j < group.size(); j++) {
            while (pendingCount[j] > 0) {
                finishHead(j);
            }
        }
        if (deposedBy >= 0) {
            requireLeading();
        }
        MemorySegment buffer = thread.buffer();
        int parts = window;
        long chunk = (buffer.byteSize() / parts) & ~7L;
        long padded = LogLayout.padded(length);
        long[] handles = new long[parts];
        int head = 0;
        int inFlight = 0;
        long writes = 0;
        boolean timedOut = false;
        try {
            handles[0] = thread.writeWordAsync(snapPtr + LogLayout.SNAP_COVERS, 0, false);
            inFlight = 1;
            writes++;
            int part = 1 % parts;
            for (long off = 0; off < padded && !timedOut; off += chunk) {
                if (inFlight == parts) {
                    long h = handles[head];
                    head = (head + 1) % parts;
                    inFlight--;
                    thread.await(h);
                }
                int len = (int) Math.min(chunk, padded - off);
                MemorySegment.copy(image, 24 + off, buffer, (long) part * chunk, len);
                handles[part] = thread.writeAsync(snapPtr + LogLayout.SNAP_IMAGE + off, (long) part * chunk, len, false);
                part = (part + 1) % parts;
                inFlight++;
                writes++;
                timedOut = ThreadTime.nanoTime() - deadline > 0;
            }
            while (inFlight > 0) {
                long h = handles[head];
                head = (head + 1) % parts;
                inFlight--;
                thread.await(h);
            }
            if (!timedOut) {
                MemorySegment.copy(image, 0, buffer, 0, LogLayout.SNAP_DESCRIPTOR_BYTES);
                writes++;
                thread.await(thread.writeAsync(snapPtr + LogLayout.SNAP_COVERS, 0, LogLayout.SNAP_DESCRIPTOR_BYTES, false));
            }
        } catch (RemoteAccessException e) {
            drain(handles, head, inFlight);
            snapshotWrites += writes;
            fencedWrites++;
            if (deposedBy < 0) {
                deposedBy = group.member(i);
            }
            throw new LeaderFencedException(deposedBy, "leader on node " + thread.nodeId() + " (term " + term + "): node "
                    + group.member(i) + " refused a WRITE of the snapshot image");
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            drain(handles, head, inFlight);
            snapshotWrites += writes;
            return -1;
        }
        snapshotWrites += writes;
        if (timedOut) {
            throw new RemoteTimeoutException("the snapshot image of " + length + " bytes for node " + group.member(i)
                    + " was not written within " + timeout + " (its descriptor was not written: it is never restored)");
        }
        snapshotInstalls++;
        return covers;
    }

    /** Collects operations still in flight after a failure (each bounded by the thread's operation timeout). */
    private void drain(long[] handles, int head, int inFlight) {
        for (int k = 0; k < inFlight; k++) {
            try {
                thread.await(handles[(head + k) % handles.length]);
            } catch (RemoteOperationException | RemoteTimeoutException e) {
                // already failed: the install is abandoned
            }
        }
    }

    /**
     * A whole copy of the snapshot in this node's own region (CPU loads): the descriptor (covers, length, checksum)
     * in words 0..2, the padded image from byte 24; null when the region holds none or its image is not whole (a
     * snapshot being taken).
     */
    private MemorySegment copyOwnSnapshot(long ownPtr) {
        long capacity = thread.readLocal(ownPtr + LogLayout.SNAP_CAPACITY);
        long covers = thread.readLocal(ownPtr + LogLayout.SNAP_COVERS);
        long length = thread.readLocal(ownPtr + LogLayout.SNAP_LENGTH);
        long checksum = thread.readLocal(ownPtr + LogLayout.SNAP_CHECKSUM);
        if (covers <= 0 || length < 0 || length > capacity) {
            return null;
        }
        long padded = LogLayout.padded(length);
        MemorySegment copy = MemorySegment.ofArray(new long[(int) (3 + padded / 8)]);
        MemorySegment.copy(thread.localSegment(ownPtr + LogLayout.SNAP_IMAGE, Math.max(8, padded)), 0, copy, 24, padded);
        if (thread.readLocal(ownPtr + LogLayout.SNAP_COVERS) != covers
                || LogLayout.snapshotChecksum(covers, length, copy.asSlice(24)) != checksum) {
            return null;
        }
        copy.set(ValueLayout.JAVA_LONG, 0, covers);
        copy.set(ValueLayout.JAVA_LONG, 8, length);
        copy.set(ValueLayout.JAVA_LONG, 16, checksum);
        return copy;
    }

    /**
     * {@return the recovering bits this leader cleared: members {@link LogReplica#rejoin} made anew that it caught up
     *          ({@link #reattach}, or the rewrite of its {@link #takeOver})}
     */
    public long recoveriesCleared() {
        return recoveriesCleared;
    }

    /** {@return how many times {@link #reattach} looked a follower's log up again by name (its node restarted)} */
    public long logsLookedUpAgain() {
        return logsLookedUpAgain;
    }

    /** {@return the READs a {@link #takeOver} made of granting members' snapshot descriptors and images} */
    public long snapshotReads() {
        return snapshotReads;
    }

    /** {@return the snapshot images {@link #reattach} installed in followers} */
    public long snapshotInstalls() {
        return snapshotInstalls;
    }

    /** {@return the WRITEs of snapshot images {@link #reattach} sent (clearing word, chunks, descriptors)} */
    public long snapshotWrites() {
        return snapshotWrites;
    }

    /**
     * {@return the node whose snapshot a {@link #takeOver} restored this member from (it was behind the granting
     *          members' rings), or -1}
     */
    public int snapshotRestoredFrom() {
        return (int) snapshotRestoredFrom;
    }

    /** {@return the term this leader writes into every slot} */
    public long term() {
        return term;
    }

    /** {@return entries a takeover rewrote under this leader's term (its recovered log past the lowest applied count)} */
    public long recoveredEntries() {
        return recovered;
    }

    /**
     * {@return members the {@link #takeOver} that made this leader did not look up because its agent suspected
     *          them and the others were a majority (0 for a leader from {@link #open})}
     */
    public int suspectsSkipped() {
        return suspectsSkipped;
    }

    /** {@return WRITEs of recovered entries a takeover sent to followers} */
    public long rewriteWrites() {
        return rewritten;
    }

    /** {@return WRITEs of entries that {@link #reattach} sent to followers catching up} */
    public long catchUpWrites() {
        return caughtUp;
    }

    /** {@return the largest entry the log takes} */
    public int maxEntryBytes() {
        return maxEntryBytes;
    }

    /** {@return the log's capacity in entries} */
    public int slots() {
        return slots;
    }

    /** {@return how many WRITEs to one follower may be unacknowledged before it is detached} */
    public int window() {
        return window;
    }

    /** {@return entries appended so far, committed or not} */
    public long appended() {
        return appended;
    }

    /** {@return entries known committed (held by a majority): a prefix of the log} */
    public long committed() {
        return committed;
    }

    /** {@return WRITEs that members refused because they switched their write access away from this leader} */
    public long fencedWrites() {
        return fencedWrites;
    }

    /** {@return whether a member's refusal has deposed this leader} */
    public boolean isDeposed() {
        return deposedBy >= 0;
    }

    /** {@return followers detached because they fell behind (window full, or keeping a slot from reuse)} */
    public int detachedLagging() {
        return detachedLagging;
    }

    /** {@return followers detached because a WRITE or READ to them failed (they stopped answering)} */
    public int detachedDown() {
        return detachedDown;
    }

    /**
     * {@return whether the leader still WRITEs entries to {@code nodeId}}
     *
     * @param nodeId a follower of the group
     * @throws BadArgumentException naming the node when it is not a member
     */
    public boolean isAttached(int nodeId) {
        return attached[group.requireMember(nodeId, "follower")];
    }

    /**
     * Appends one entry and returns once a majority of the group holds it: Mu's one-round-trip replication.
     * A CPU copy into this node's log, one RDMA WRITE of the slot (header, entry, canary) to every attached
     * follower, posted together, then a wait for enough acknowledgements: {@code 2f} WRITEs and <b>1 round
     * trip</b>, plus one round trip of 8-byte READs when the log has wrapped and the last look at some
     * follower's applied count is behind (see the class comment). The slot carries the commit count known
     * before this entry, from which the followers learn that the previous entries are committed.
     *
     * @param entry   the entry, 1..{@link #maxEntryBytes()} bytes
     * @param timeout how long the caller lets the append wait (for a majority, or for a slot to be reusable)
     * @return the entry's index
     * @throws BadArgumentException   naming the size and the limit, for an empty or oversized entry (nothing
     *                                written)
     * @throws LeaderFencedException  when a member refused a WRITE of this leader, now or earlier
     * @throws RemoteTimeoutException when no majority acknowledged within the timeout, or no slot became
     *                                reusable; the entry may still commit, and a later append's commit covers it
     */
    public long append(MemorySegment entry, Duration timeout) {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(timeout, "timeout");
        requireLeading();
        long length = entry.byteSize();
        if (length < 1 || length > maxEntryBytes) {
            throw new BadArgumentException("entry of " + length + " bytes; this log takes 1.." + maxEntryBytes);
        }
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        long index = appended;
        reapAll();
        awaitReusableSlot(index, deadline, timeout);
        int area = awaitFreeArea(deadline, timeout);
        long areaOffset = (long) area * slotBytes;
        long stamp = index + 1;
        int slotLength = LogLayout.slotBytes((int) length);
        MemorySegment image = thread.buffer().asSlice(areaOffset, slotLength);
        image.set(ValueLayout.JAVA_LONG, LogLayout.STAMP, stamp);
        image.set(ValueLayout.JAVA_LONG, LogLayout.TERM, term);
        image.set(ValueLayout.JAVA_LONG, LogLayout.SLOT_COMMIT, committed);
        image.set(ValueLayout.JAVA_LONG, LogLayout.CHECK, LogLayout.check(stamp, length));
        image.asSlice(LogLayout.PAYLOAD + LogLayout.padded(length) - 8, 8).fill((byte) 0);
        MemorySegment.copy(entry, 0, image, LogLayout.PAYLOAD, length);
        long checksum = LogLayout.checksum(image, length);
        image.set(ValueLayout.JAVA_LONG, LogLayout.CHECKSUM, checksum);
        image.set(ValueLayout.JAVA_LONG, slotLength - 8, checksum);
        long slotOffset = LogLayout.HEADER_BYTES + (index % slots) * slotBytes;
        thread.writeLocal(logs[self] + slotOffset + 8, areaOffset + 8, slotLength - 8);
        thread.writeLocal(logs[self] + slotOffset, stamp);
        for (int i = 0; i < group.size(); i++) {
            if (attached[i] && roomFor(i)) {
                int f = i;
                long h = post(i, () -> thread.writeAsync(logs[f] + slotOffset, areaOffset, slotLength, false));
                if (h >= 0) {
                    push(i, h, index, area);
                }
            }
        }
        appended = index + 1;
        matched[self] = appended;
        awaitMajority(deadline, timeout, () -> committed > index, "entry " + index);
        return index;
    }

    /**
     * Writes the commit count into every attached follower's log header and returns once a majority holds it,
     * so that followers apply the last entries without waiting for a next append (useful when appends pause).
     * One 8-byte RDMA WRITE per attached follower, posted together, and a CPU store for the local log: {@code 2f}
     * WRITEs, 1 round trip.
     *
     * @param timeout how long the caller lets the call wait for a majority
     * @return the commit count written
     * @throws LeaderFencedException  when a member refused a WRITE of this leader, now or earlier
     * @throws RemoteTimeoutException when no majority acknowledged within the timeout
     */
    public long flushCommit(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        requireLeading();
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        reapAll();
        long ticket = ++flushTicket;
        long value = committed;
        thread.writeLocal(logs[self] + LogLayout.COMMIT, value);
        for (int i = 0; i < group.size(); i++) {
            if (attached[i] && roomFor(i)) {
                int f = i;
                long h = post(i, () -> thread.writeWordAsync(logs[f] + LogLayout.COMMIT, value, false));
                if (h >= 0) {
                    push(i, h, -ticket, -1);
                }
            }
        }
        awaitMajority(deadline, timeout, () -> {
            int acks = 1;
            for (int i = 0; i < group.size(); i++) {
                if (i != self && flushAcked[i] >= ticket) {
                    acks++;
                }
            }
            return acks >= group.majority();
        }, "the commit count " + value);
        return value;
    }

    /**
     * Collects the acknowledgements still in flight (each wait bounded by the compute thread's operation
     * timeout; failures are counted as in an append, not thrown). Idempotent; the compute thread stays open.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < group.size(); i++) {
            while (pendingCount[i] > 0) {
                finishHead(i);
            }
        }
    }

    private void requireLeading() {
        thread.checkOwnerThread();
        if (closed) {
            throw new BadArgumentException("the leader of group " + group + " is closed");
        }
        if (deposedBy < 0 && elected && thread.readLocal(logs[self] + LogLayout.CANDIDATE) != term) {
            deposedBy = thread.nodeId();
        }
        if (deposedBy >= 0) {
            throw new LeaderFencedException(deposedBy, "leader on node " + thread.nodeId() + " (term " + term
                    + ") was deposed: node " + deposedBy + " refused its WRITE or took over with a later term");
        }
    }

    /** Whether follower {@code i} can take one more WRITE; detaches it as lagging when its window stays full. */
    private boolean roomFor(int i) {
        if (pendingCount[i] == window) {
            reap(i);
        }
        if (pendingCount[i] == window) {
            detach(i, false);
            return false;
        }
        return true;
    }

    private void push(int i, long handle, long tag, int area) {
        int at = (pendingHead[i] + pendingCount[i]) % window;
        pendingHandle[i][at] = handle;
        pendingTag[i][at] = tag;
        pendingArea[i][at] = area;
        pendingCount[i]++;
        if (area >= 0) {
            areaUse[area]++;
        }
    }

    private void reapAll() {
        for (int i = 0; i < group.size(); i++) {
            reap(i);
        }
    }

    /** Finishes follower {@code i}'s operations that have completed, oldest first (a queue pair completes in order). */
    private void reap(int i) {
        while (pendingCount[i] > 0 && thread.poll(pendingHandle[i][pendingHead[i]])) {
            finishHead(i);
        }
    }

    private void finishHead(int i) {
        int at = pendingHead[i];
        long tag = pendingTag[i][at];
        int area = pendingArea[i][at];
        pendingHead[i] = (at + 1) % window;
        pendingCount[i]--;
        if (area >= 0) {
            areaUse[area]--;
        }
        if (tag == READ_TAG) {
            reading[i] = false;
            answered[i] = true;
        }
        try {
            long value = thread.await(pendingHandle[i][at]);
            if (tag == READ_TAG) {
                appliedSeen[i] = Math.max(appliedSeen[i], value);
            } else if (tag >= 0) {
                if (attached[i]) {
                    matched[i] = Math.max(matched[i], tag + 1);
                    recomputeCommit();
                }
            } else {
                flushAcked[i] = Math.max(flushAcked[i], -tag);
            }
        } catch (RemoteAccessException e) {
            fencedWrites++;
            if (deposedBy < 0) {
                deposedBy = group.member(i);
            }
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            detach(i, true);
        }
    }

    private void detach(int i, boolean down) {
        if (attached[i]) {
            attached[i] = false;
            if (down) {
                detachedDown++;
            } else {
                detachedLagging++;
            }
        }
    }

    /**
     * The commit count: the majority-th largest of the members' matched counts. A follower's matched count moves
     * only while it is attached: after a failed WRITE detaches it, a later WRITE's acknowledgement does not count,
     * so a matched count always covers a prefix the follower holds whole (a recovering leader relies on it).
     */
    private void recomputeCommit() {
        System.arraycopy(matched, 0, scratch, 0, scratch.length);
        Arrays.sort(scratch);
        long c = scratch[scratch.length - group.majority()];
        if (c > committed) {
            committed = c;
        }
    }

    private void awaitMajority(long deadline, Duration timeout, java.util.function.BooleanSupplier done, String what) {
        while (true) {
            reapAll();
            if (deposedBy >= 0) {
                throw new LeaderFencedException(deposedBy, "leader on node " + thread.nodeId() + " (term " + term + "): node "
                        + deposedBy + " refused the WRITE of " + what + " (" + fencedWrites + " WRITEs refused)");
            }
            if (done.getAsBoolean()) {
                return;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("no majority of group " + group + " acknowledged " + what + " within "
                        + timeout + " (committed " + committed + ", matched " + Arrays.toString(matched) + ")");
            }
            ThreadTime.onSpinWait("a majority's acknowledgements");
        }
    }

    /**
     * Waits until slot {@code index % slots} is free: every attached member applied the entry it held. READs the
     * applied word of each attached follower last seen behind (one READ each, posted together, again while
     * behind); once this node and a majority have applied the entry, a follower whose READ came back behind is
     * detached, and so is one whose READ has not come back by the caller's deadline.
     */
    private void awaitReusableSlot(long index, long deadline, Duration timeout) {
        if (index < slots) {
            return;
        }
        long needed = index - slots + 1;
        if (appliedSeen[self] >= needed && allAttachedApplied(needed)) {
            return;
        }
        Arrays.fill(answered, false);
        while (true) {
            long local = thread.readLocal(logs[self] + LogLayout.APPLIED);
            appliedSeen[self] = local;
            for (int i = 0; i < group.size(); i++) {
                if (attached[i] && appliedSeen[i] < needed && !reading[i] && roomFor(i)) {
                    int f = i;
                    long h = post(i, () -> thread.readWordAsync(logs[f] + LogLayout.APPLIED, false));
                    if (h >= 0) {
                        push(i, h, READ_TAG, -1);
                        reading[i] = true;
                    }
                }
            }
            reapAll();
            int ready = local >= needed ? 1 : 0;
            boolean behind = false;
            for (int i = 0; i < group.size(); i++) {
                if (attached[i]) {
                    if (appliedSeen[i] >= needed) {
                        ready++;
                    } else {
                        behind = true;
                    }
                }
            }
            if (local >= needed && !behind) {
                return;
            }
            boolean late = ThreadTime.nanoTime() - deadline > 0;
            if (local >= needed && ready >= group.majority()) {
                boolean waiting = false;
                for (int i = 0; i < group.size(); i++) {
                    if (attached[i] && appliedSeen[i] < needed) {
                        if ((answered[i] && !reading[i]) || late) {
                            detach(i, false);
                        } else {
                            waiting = true;
                        }
                    }
                }
                if (!waiting) {
                    return;
                }
            }
            if (late) {
                throw new RemoteTimeoutException("slot of entry " + index + " is not reusable within " + timeout
                        + ": entry " + (needed - 1) + " applied by " + ready + " of group " + group + " (this node: "
                        + (local >= needed) + ")");
            }
            ThreadTime.onSpinWait("replicas applying the log");
        }
    }

    private boolean allAttachedApplied(long needed) {
        for (int i = 0; i < group.size(); i++) {
            if (attached[i] && appliedSeen[i] < needed) {
                return false;
            }
        }
        return true;
    }

    private int awaitFreeArea(long deadline, Duration timeout) {
        while (true) {
            for (int a = 0; a < areaUse.length; a++) {
                if (areaUse[a] == 0) {
                    return a;
                }
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("no staging area of the leader's buffer freed within " + timeout);
            }
            ThreadTime.onSpinWait("a follower's WRITE to finish");
            reapAll();
        }
    }

    /**
     * Checks that a leader's compute thread is on its group's plane, the one the members' grants switch.
     *
     * @throws BadArgumentException naming both planes and the log when they differ: that leader's WRITEs would not
     *                              be fenced when the members revoke it
     */
    private static void requirePlane(ComputeThread thread, ReplicaGroup group, String name) {
        if (thread.plane() != group.plane()) {
            throw new BadArgumentException("the leader's compute thread of log " + name + " is on plane " + thread.plane()
                    + ", its group " + group + " replicates on plane " + group.plane() + ": create it with"
                    + " RemusNode.newComputeThread(group.plane()), so that a member's grant fences it");
        }
    }
}
