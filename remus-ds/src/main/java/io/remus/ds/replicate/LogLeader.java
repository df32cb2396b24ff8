package io.remus.ds.replicate;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
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
 * <b>detached</b>: it gets no more WRITEs, so its log has a gap it never fills. Bringing it back (catch-up)
 * is not implemented.
 *
 * <h2>Fencing</h2>
 * Each member lets only its chosen leader write its log ({@link LogReplica#grantWriteTo}, Mu's permission
 * switch). A WRITE refused by a member that switched away deposes this leader: the append throws
 * {@link LeaderFencedException}, the refusal is counted ({@link #fencedWrites()}), the entry is not reported
 * committed (no member applies it, since no later commit count covers it), and every later call throws
 * {@link LeaderFencedException} without an RDMA operation.
 *
 * <h2>What is not here</h2>
 * Leader election, a new leader's recovery of the log (reading the followers' logs and adopting the
 * highest-term values), catch-up of a detached or restarted member, and snapshots. A leader starts appending
 * at index 0 of empty logs.
 *
 * <p>Confined to its compute thread's owner; the thread's buffer is the leader's staging area while the
 * leader is open.
 */
public final class LogLeader implements AutoCloseable {
    /** The tag of a pending READ of a follower's applied count. */
    private static final long READ_TAG = Long.MIN_VALUE;
    private final ComputeThread thread;
    private final ReplicaGroup group;
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

    private LogLeader(ComputeThread thread, ReplicaGroup group, long term, long[] logs, int slots, int maxEntryBytes,
                      int window) {
        this.thread = thread;
        this.group = group;
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
     * @param thread  the leader's compute thread; its node must be a member with its {@link LogReplica} created
     * @param group   the replica group
     * @param name    the logs' name, as given to {@link LogReplica#create}
     * @param term    the leader's term (Mu's proposal number), written into every slot it writes
     * @param timeout how long to wait for the members' logs to be published
     * @return the leader
     * @throws BadArgumentException      naming the value, for a thread whose node is not a member, members whose
     *                                   logs differ in shape, or a compute thread whose operations in flight or
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
        int n = group.size();
        long[] logs = new long[n];
        long shape = -1;
        long start = ThreadTime.nanoTime();
        for (int i = 0; i < n; i++) {
            Duration left = timeout.minusNanos(ThreadTime.nanoTime() - start);
            logs[i] = NameDirectory.open(thread, group.member(i)).await(name, left.isNegative() ? Duration.ZERO : left);
            long s = thread.read(logs[i] + LogLayout.SHAPE);
            int slots = (int) (s >>> 32);
            int bytes = (int) s;
            if (slots < 2 || slots > LogLayout.MAX_SLOTS || bytes <= LogLayout.OVERHEAD_BYTES || (bytes & 7) != 0) {
                throw new CorruptedMemoryException(logs[i] + LogLayout.SHAPE, s, "log \"" + name + "\" at "
                        + RemotePtr.toString(logs[i]) + ": shape word 0x" + Long.toHexString(s) + " is no log's");
            }
            if (shape != -1 && s != shape) {
                throw new BadArgumentException("log \"" + name + "\" of node " + group.member(i) + " has " + slots + " slots of "
                        + bytes + " bytes, node " + group.member(0) + "'s " + (shape >>> 32) + " of " + (int) shape);
            }
            shape = s;
        }
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
        return new LogLeader(thread, group, term, logs, slots, slotBytes - LogLayout.OVERHEAD_BYTES, window);
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
                long h = thread.writeAsync(logs[i] + slotOffset, areaOffset, slotLength, false);
                push(i, h, index, area);
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
                push(i, thread.writeWordAsync(logs[i] + LogLayout.COMMIT, value, false), -ticket, -1);
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
        if (deposedBy >= 0) {
            throw new LeaderFencedException(deposedBy, "leader on node " + thread.nodeId() + " (term " + term
                    + ") was deposed: node " + deposedBy + " refused its WRITE");
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
                matched[i] = Math.max(matched[i], tag + 1);
                recomputeCommit();
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

    /** The commit count: the majority-th largest of the members' matched counts. */
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
                    push(i, thread.readWordAsync(logs[i] + LogLayout.APPLIED, false), READ_TAG, -1);
                    reading[i] = true;
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
}
