package io.remus.ds.replicate;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.RemusNode;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Objects;

/**
 * One member's copy of a replicated log and the loop that applies it: Mu's replica (Aguilera et al.,
 * "Microsecond Consensus for Microsecond Applications", OSDI 2020). The log is in this node's memory
 * ({@link LogLayout}); the leader fills it with RDMA WRITEs, and this replica reads it with CPU loads only:
 * <b>no call of this class makes an RDMA operation</b>, except that {@link #create} publishes the log's
 * pointer in this node's {@link NameDirectory} (its RDMA compare-and-swaps on this node's own memory, through
 * the loopback path) and {@link #restart} looks it up there (the lookup's READs, through the same path).
 *
 * <p><b>Leader change.</b> The member's {@link ReplicaAgent}, on the same thread, increments the log header's
 * heartbeat word and stores the header's promised word after each grant switch; a new leader reads them and the
 * log ({@link LogLeader#takeOver}). A new leader may rewrite entries this replica has taken but not applied (with
 * the same values when they were committed), so each entry's slot is checked whole again when it is applied.
 *
 * <p><b>Placement.</b> {@link #create} allocates the log with the node's allocator on this node
 * ({@code RemoteAllocator.allocate(bytes, thisNode)}) and binds it under the log's name in this node's
 * {@link NameDirectory}; a leader finds every member's log by that name ({@link LogLeader#open}).
 *
 * <p><b>Commit point.</b> Each entry's slot carries the number of entries its leader knew committed when it
 * wrote the slot (Mu piggybacks the commit index on the next entry), and the header's commit word carries
 * what {@link LogLeader#flushCommit} last wrote. The replica applies entry {@code i} once it has taken
 * entry {@code i} and a commit count above {@code i} was seen in either place. It never applies an entry it
 * has not taken whole (stamp, check, checksum and canary agree, see {@link LogLayout}), and never one that
 * is not committed.
 *
 * <p><b>Fencing.</b> {@link #grantWriteTo} is Mu's permission switch: every other member but the leader
 * loses write access to this node's memory ({@link RemusNode#setPeerAccess}), so a deposed leader's WRITEs
 * are refused and never land here.
 *
 * <p><b>Snapshots.</b> With a snapshot region ({@link #create(RemusNode, ComputeThread, ReplicaGroup, String, int,
 * int, int, StateMachine)}), {@link #takeSnapshot} stores an image of the state machine there (CPU stores), and
 * {@link #applyCommitted} restores an image that covers more entries than this member applied (installed by a
 * leader, {@link LogLeader#reattach}, or kept over a {@link #restart}) once its checksum holds over a copy, then
 * applies the entries after it: Raft's InstallSnapshot receiver (Ongaro's thesis, ch. 5), whose state and log
 * position are replaced by the image's. An image that is torn, still landing or unfinished is never restored.
 *
 * <p>Confined to its compute thread's owner. {@link #applyCommitted()} is wait-free.
 */
public final class LogReplica {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final RemusNode node;
    private final String name;
    private final ComputeThread thread;
    private final ReplicaGroup group;
    private final StateMachine machine;
    private final long ptr;
    private final MemorySegment log;
    private final int slots;
    private final int slotBytes;
    private final int maxEntryBytes;
    private long received;
    private long applied;
    private long commitSeen;
    private long incompleteSlots;
    private int grantedTo = -1;
    private final long snapPtr;
    private final MemorySegment snap;
    private final long snapCapacity;
    private long snapshotsTaken;
    private long snapshotsRestored;
    private long snapshotsRejected;

    private LogReplica(RemusNode node, ComputeThread thread, ReplicaGroup group, String name, StateMachine machine,
                       long ptr, MemorySegment log, int slots, int maxEntryBytes) {
        this.node = node;
        this.name = name;
        this.thread = thread;
        this.group = group;
        this.machine = machine;
        this.ptr = ptr;
        this.log = log;
        this.slots = slots;
        this.maxEntryBytes = maxEntryBytes;
        this.slotBytes = LogLayout.slotBytes(maxEntryBytes);
        this.snapPtr = (long) WORD.getVolatile(log, (long) LogLayout.SNAPSHOT);
        this.snapCapacity = snapPtr == 0 ? 0 : (long) WORD.getVolatile(log, (long) LogLayout.SNAPSHOT_CAPACITY);
        this.snap = snapPtr == 0 ? null : thread.localSegment(snapPtr, LogLayout.snapshotRegionBytes(snapCapacity));
    }

    /**
     * Creates this member's log, empty, and publishes it under {@code name} in this node's
     * {@link NameDirectory}. Costs: the allocation ({@code RemoteAllocator.allocate}), CPU stores clearing the
     * log, and the directory's publish (RDMA atomics on this node's own memory). Every member of a group
     * creates its log with the same name, slot count and entry size before a leader opens the group.
     *
     * @param node          this member's node, whose peer access {@link #grantWriteTo} switches
     * @param thread        a compute thread of {@code node}; the replica is confined to its owner
     * @param group         the replica group; {@code node} must be a member
     * @param name          the log's name in every member's directory, 1..{@value NameDirectory#MAX_NAME_BYTES}
     *                      printable ASCII characters
     * @param slots         the log's capacity in entries, 2..{@value LogLayout#MAX_SLOTS}
     * @param maxEntryBytes the largest entry, at least 1
     * @param machine       what committed entries are applied to
     * @return the replica
     * @throws BadArgumentException naming the value, for a node that is not the thread's or not in the group, a
     *                              slot count or entry size out of range, or a name already bound on this node
     */
    public static LogReplica create(RemusNode node, ComputeThread thread, ReplicaGroup group, String name, int slots,
                                    int maxEntryBytes, StateMachine machine) {
        return create(node, thread, group, name, slots, maxEntryBytes, 0, machine);
    }

    /**
     * As {@link #create(RemusNode, ComputeThread, ReplicaGroup, String, int, int, StateMachine)}, with a snapshot
     * region for images of up to {@code snapshotBytes} bytes: a second block from the node's allocator
     * ({@link LogLayout}: a 64-byte descriptor and the image), named by the log header's snapshot word, into
     * which {@link #takeSnapshot} stores this member's images and a leader WRITEs its own
     * ({@link LogLeader#reattach}). Every member of a group gives the same capacity; 0 makes none (as the other
     * overload). Costs as the other overload plus the region's allocation and CPU stores clearing it.
     *
     * @param node          this member's node, whose peer access {@link #grantWriteTo} switches
     * @param thread        a compute thread of {@code node}; the replica is confined to its owner
     * @param group         the replica group; {@code node} must be a member
     * @param name          the log's name in every member's directory
     * @param slots         the log's capacity in entries, 2..{@value LogLayout#MAX_SLOTS}
     * @param maxEntryBytes the largest entry, at least 1
     * @param snapshotBytes the largest snapshot image, 0 (no region) up to one allocation less 64 bytes
     * @param machine       what committed entries are applied to; with a region, it should implement
     *                      {@link StateMachine#snapshot} and {@link StateMachine#restore}
     * @return the replica
     * @throws BadArgumentException naming the value, as the other overload, or for a snapshot capacity out of range
     */
    public static LogReplica create(RemusNode node, ComputeThread thread, ReplicaGroup group, String name, int slots,
                                    int maxEntryBytes, int snapshotBytes, StateMachine machine) {
        return make(node, thread, group, name, slots, maxEntryBytes, snapshotBytes, machine, false, 0);
    }

    /**
     * Makes and publishes a log; with {@code recovering}, its shape word carries {@link LogLayout#RECOVERING} and its
     * promised word {@code promised}, both stored before the publish.
     */
    private static LogReplica make(RemusNode node, ComputeThread thread, ReplicaGroup group, String name, int slots,
                                   int maxEntryBytes, int snapshotBytes, StateMachine machine, boolean recovering,
                                   long promised) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(machine, "machine");
        if (node.config().nodeId() != thread.nodeId()) {
            throw new BadArgumentException("compute thread of node " + thread.nodeId() + " given for replica node "
                    + node.config().nodeId());
        }
        group.requireMember(thread.nodeId(), "replica");
        LogLayout.checkShape(slots, maxEntryBytes);
        LogLayout.checkSnapshotCapacity(snapshotBytes);
        long bytes = LogLayout.logBytes(slots, maxEntryBytes);
        long ptr = thread.allocator().allocate(bytes, thread.nodeId());
        MemorySegment log = thread.localSegment(ptr, bytes);
        log.fill((byte) 0);
        long snapPtr = 0;
        long snapBytes = LogLayout.snapshotRegionBytes(snapshotBytes);
        if (snapshotBytes > 0) {
            snapPtr = thread.allocator().allocate(snapBytes, thread.nodeId());
            MemorySegment region = thread.localSegment(snapPtr, snapBytes);
            region.fill((byte) 0);
            WORD.setVolatile(region, (long) LogLayout.SNAP_CAPACITY, (long) snapshotBytes);
            WORD.setVolatile(log, (long) LogLayout.SNAPSHOT_CAPACITY, (long) snapshotBytes);
            WORD.setVolatile(log, (long) LogLayout.SNAPSHOT, snapPtr);
        }
        WORD.setVolatile(log, (long) LogLayout.PROMISED, promised);
        WORD.setVolatile(log, (long) LogLayout.SHAPE, (recovering ? LogLayout.FLAGS : 0L)
                | (long) slots << 32 | LogLayout.slotBytes(maxEntryBytes));
        long bound = NameDirectory.open(thread, thread.nodeId()).publish(name, ptr);
        if (bound != ptr) {
            thread.allocator().deallocate(ptr, bytes);
            if (snapPtr != 0) {
                thread.allocator().deallocate(snapPtr, snapBytes);
            }
            throw new BadArgumentException("log name \"" + name + "\" is bound on node " + thread.nodeId() + " already");
        }
        return new LogReplica(node, thread, group, name, machine, ptr, log, slots, maxEntryBytes);
    }

    /**
     * Opens this member's log again after the member restarted with nothing but its memory: the log is found by
     * name in this node's {@link NameDirectory} (its lookup's loopback READs), its entries and counts are cleared
     * with CPU stores, and the replica starts from entry 0 with a state machine that starts empty too. The
     * promised term is kept (as a Paxos acceptor keeps its promises), so the member never grants a term it
     * refused before. A snapshot region is kept with its image: the first {@link #applyCommitted} restores the
     * image when it is whole (the member starts from the entries it covers, not from 0). The leader brings the
     * member back with {@link LogLeader#reattach}, from the entries its own log still holds, or from its own
     * snapshot and the entries after it.
     *
     * @param node    this member's node
     * @param thread  a compute thread of {@code node}; the replica is confined to its owner
     * @param group   the replica group; {@code node} must be a member
     * @param name    the log's name, as given to {@link #create}
     * @param machine what committed entries are applied to, from entry 0
     * @return the replica, with nothing taken or applied
     * @throws BadArgumentException     naming the value, for a node that is not the thread's or not in the group, or
     *                                  a name not bound on this node
     * @throws io.remus.core.error.CorruptedMemoryException when the bound block's shape word is no log's
     */
    public static LogReplica restart(RemusNode node, ComputeThread thread, ReplicaGroup group, String name,
                                     StateMachine machine) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(machine, "machine");
        if (node.config().nodeId() != thread.nodeId()) {
            throw new BadArgumentException("compute thread of node " + thread.nodeId() + " given for replica node "
                    + node.config().nodeId());
        }
        group.requireMember(thread.nodeId(), "replica");
        long ptr = NameDirectory.open(thread, thread.nodeId()).lookup(name);
        if (ptr == io.remus.core.memory.RemotePtr.NULL) {
            throw new BadArgumentException("log name \"" + name + "\" is not bound on node " + thread.nodeId());
        }
        long shape = thread.readLocal(ptr + LogLayout.SHAPE) & ~LogLayout.FLAGS;
        int slots = (int) (shape >>> 32);
        int slotBytes = (int) shape;
        if (slots < 2 || slots > LogLayout.MAX_SLOTS || slotBytes <= LogLayout.OVERHEAD_BYTES || (slotBytes & 7) != 0) {
            throw new io.remus.core.error.CorruptedMemoryException(ptr + LogLayout.SHAPE, shape, "log \"" + name
                    + "\": shape word 0x" + Long.toHexString(shape) + " is no log's");
        }
        int maxEntryBytes = slotBytes - LogLayout.OVERHEAD_BYTES;
        MemorySegment log = thread.localSegment(ptr, LogLayout.logBytes(slots, maxEntryBytes));
        long promised = (long) WORD.getVolatile(log, (long) LogLayout.PROMISED);
        long snapPtr = (long) WORD.getVolatile(log, (long) LogLayout.SNAPSHOT);
        long snapCapacity = (long) WORD.getVolatile(log, (long) LogLayout.SNAPSHOT_CAPACITY);
        if (snapPtr != 0 && (snapCapacity <= 0 || LogLayout.snapshotRegionBytes(snapCapacity) > io.remus.core.memory.SizeClasses.MAX
                || thread.readLocal(snapPtr + LogLayout.SNAP_CAPACITY) != snapCapacity)) {
            throw new io.remus.core.error.CorruptedMemoryException(ptr + LogLayout.SNAPSHOT_CAPACITY, snapCapacity, "log \""
                    + name + "\": snapshot capacity word " + snapCapacity + " disagrees with its region's");
        }
        log.asSlice(8).fill((byte) 0);
        WORD.setVolatile(log, (long) LogLayout.PROMISED, promised);
        WORD.setVolatile(log, (long) LogLayout.SNAPSHOT_CAPACITY, snapCapacity);
        WORD.setVolatile(log, (long) LogLayout.SNAPSHOT, snapPtr);
        return new LogReplica(node, thread, group, name, machine, ptr, log, slots, maxEntryBytes);
    }

    /**
     * Makes this member's log anew after its process was killed and restarted with new memory (nothing of its former
     * log, directory or grants is left): Viewstamped Replication's recovery (Liskov and Cowling, "Viewstamped
     * Replication Revisited", MIT 2012, section 4.3) on Mu's log (Aguilera et al., OSDI 2020). The member may have
     * promised a term before it died, and may have held committed entries that no other live member holds; so
     * <ol>
     * <li>first every other member loses write access to this node on the group's plane
     *     ({@link RemusNode#setPeerAccess(int, int, PeerAccess)}, no RDMA operation): a fresh node lets every peer
     *     write, and a deposed leader must not;</li>
     * <li>it learns the highest promised term from {@code f + 1} members other than itself (for a group of {@code n}
     *     members, {@code n - majority + 1}): per member, the lookup
     *     of its log by name in its {@link NameDirectory} (the directory's READs) and one 8-byte READ of its promised
     *     word, members that do not answer or have not published their log tried again each round until the deadline.
     *     Any majority that promised a term holds at least one of those {@code f + 1} (a majority less this member is
     *     {@code f} of the {@code 2f} others), so the term learned is at least every term a leader was granted by a
     *     majority, this member's earlier promises included; the log's promised word starts at it, and the member's
     *     {@link ReplicaAgent} grants only a term above it, or that same term to the member that owns it (terms
     *     belong to one member each, {@link LogLayout#nextTerm});</li>
     * <li>it makes the log as {@link #create} does (allocation, CPU stores, the directory's publish on this node),
     *     empty, with the {@linkplain LogLayout#RECOVERING recovering bit} (and the {@linkplain LogLayout#UNGRANTED
     *     ungranted bit}, cleared by its first grant, before which no leader reattaches it) set in its shape word: a
     *     {@link LogLeader#takeOver} never takes it as a source of the log, since entries committed with this member's
     *     lost copy may be held by one other member only. The bit is cleared by a leader once it has caught this log up
     *     ({@link LogLeader#reattach}, or a takeover's rewrite): all WRITEs of its own log, from this member's applied
     *     count to its end, completed, so the log then holds every entry committed so far, as a follower attached all
     *     along does.</li>
     * </ol>
     * The state machine starts empty; the leader brings the member back with {@link LogLeader#reattach} (which finds
     * the new log by name) from its ring or its snapshot. A process that restarts knows only the group, the log's name
     * and its sizes: this call needs nothing else. Blocking, bounded by {@code timeout}.
     *
     * @param node          this member's node, restarted: its fabric node a new incarnation
     * @param thread        a compute thread of {@code node}; the replica is confined to its owner
     * @param group         the replica group; {@code node} must be a member
     * @param name          the log's name, as given to {@link #create} before the restart
     * @param slots         the log's capacity in entries, as before the restart
     * @param maxEntryBytes the largest entry, as before the restart
     * @param snapshotBytes the snapshot region's capacity, as before the restart (0: none)
     * @param machine       what committed entries are applied to, from entry 0 or a restored image
     * @param timeout       how long to wait for {@code f + 1} other members to answer
     * @return the replica, recovering, with nothing taken or applied
     * @throws BadArgumentException   naming the value, as {@link #create}, or for a name already bound on this node
     *                                (the node did not restart with new memory: see {@link #restart})
     * @throws RemoteTimeoutException when fewer than {@code f + 1} other members answered within the timeout; the
     *                                other members have lost write access to this node, and no log is made
     */
    public static LogReplica rejoin(RemusNode node, ComputeThread thread, ReplicaGroup group, String name, int slots,
                                    int maxEntryBytes, int snapshotBytes, StateMachine machine, Duration timeout) {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(timeout, "timeout");
        if (node.config().nodeId() != thread.nodeId()) {
            throw new BadArgumentException("compute thread of node " + thread.nodeId() + " given for replica node "
                    + node.config().nodeId());
        }
        int self = group.requireMember(thread.nodeId(), "replica");
        LogLayout.checkShape(slots, maxEntryBytes);
        LogLayout.checkSnapshotCapacity(snapshotBytes);
        for (int i = 0; i < group.size(); i++) {
            if (i != self) {
                node.setPeerAccess(group.member(i), group.plane(), PeerAccess.READ_ONLY);
            }
        }
        long promised = learnPromised(thread, group, self, name, timeout);
        return make(node, thread, group, name, slots, maxEntryBytes, snapshotBytes, machine, true, promised);
    }

    /**
     * The highest promised word of {@code f + 1} members other than {@code self}: per member not yet answered, its
     * directory's lookup and one 8-byte READ, round after round until enough answered.
     */
    private static long learnPromised(ComputeThread thread, ReplicaGroup group, int self, String name, Duration timeout) {
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        int needed = group.size() - group.majority() + 1;
        boolean[] answered = new boolean[group.size()];
        int count = 0;
        long highest = 0;
        while (true) {
            for (int i = 0; i < group.size() && count < needed; i++) {
                if (i == self || answered[i]) {
                    continue;
                }
                try {
                    long log = NameDirectory.open(thread, group.member(i)).lookup(name);
                    if (log == io.remus.core.memory.RemotePtr.NULL) {
                        continue;
                    }
                    highest = Math.max(highest, thread.read(log + LogLayout.PROMISED));
                    answered[i] = true;
                    count++;
                } catch (io.remus.core.error.RemoteOperationException | RemoteTimeoutException e) {
                    // dead, restarted (its regions looked up again next round) or unreachable: tried again
                }
            }
            if (count >= needed) {
                return highest;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("node " + thread.nodeId() + " rejoining log \"" + name + "\" learned the "
                        + "promised term of " + count + " other members of group " + group + " within " + timeout
                        + "; it needs " + needed + " (f + 1) before it grants anything");
            }
            ThreadTime.parkNanos("other members' promised terms", 10_000);
        }
    }

    /**
     * {@return whether this member's log carries the {@linkplain LogLayout#RECOVERING recovering bit}: made by
     *          {@link #rejoin} and not yet caught up by a leader (a CPU load, no RDMA operation)}
     */
    public boolean recovering() {
        return ((long) WORD.getVolatile(log, (long) LogLayout.SHAPE) & LogLayout.RECOVERING) != 0;
    }

    /** {@return the log's pointer, on this node} */
    public long ptr() {
        return ptr;
    }

    /** {@return the largest entry this log takes} */
    public int maxEntryBytes() {
        return maxEntryBytes;
    }

    /** {@return the log's capacity in entries} */
    public int slots() {
        return slots;
    }

    /** {@return entries applied to the state machine so far} */
    public long applied() {
        return applied;
    }

    /** {@return entries taken whole from the log so far (applied or waiting for their commit)} */
    public long received() {
        return received;
    }

    /** {@return the highest commit count this replica has seen} */
    public long commitSeen() {
        return commitSeen;
    }

    /**
     * {@return how many times a slot carried the expected stamp but was not whole yet (a WRITE still landing,
     *          torn), and was left for a later look instead of being taken}
     */
    public long incompleteSlots() {
        return incompleteSlots;
    }

    /** {@return the node this replica last granted write access to, or -1 before any grant} */
    public int grantedTo() {
        return grantedTo;
    }

    /**
     * Mu's permission switch: revokes write access to this node's memory from every other member of the group
     * but {@code leader}, then grants it to {@code leader} (when it is not this node). Once this returns, a
     * revoked member's WRITEs and atomics on this node fail at that member (its leader's append throws
     * {@link LeaderFencedException}) and nothing of theirs lands afterwards. No RDMA operation
     * ({@link RemusNode#setPeerAccess(int, int, PeerAccess)} on the group's {@linkplain ReplicaGroup#plane() plane}
     * only: on verbs, one {@code ibv_modify_qp} per serving queue pair of that plane of each peer). The peers'
     * other planes, RPC's among them, keep their access.
     *
     * <p>A grant is the node's plane's, not the log's: this refuses, before any switch, a grant on a node where
     * another log on the same plane has a {@link ReplicaAgent} or granted another leader (whose leader the switch
     * would fence). Logs on different planes grant independently.
     *
     * @param leader the member that may write this log from now on
     * @throws BadArgumentException naming the node when it is not a member; naming the node, both logs and the
     *                              other leader when another log on this node's plane has an agent or granted
     *                              another leader
     */
    public void grantWriteTo(int leader) {
        thread.checkOwnerThread();
        group.requireMember(leader, "leader");
        NodeGrants.grant(node, thread.nodeId(), group.plane(), name, leader);
        int self = thread.nodeId();
        for (int i = 0; i < group.size(); i++) {
            int peer = group.member(i);
            if (peer != self && peer != leader) {
                node.setPeerAccess(peer, group.plane(), PeerAccess.READ_ONLY);
            }
        }
        if (leader != self) {
            node.setPeerAccess(leader, group.plane(), PeerAccess.READ_WRITE);
        }
        grantedTo = leader;
        long shape = (long) WORD.getVolatile(log, (long) LogLayout.SHAPE);
        if ((shape & LogLayout.UNGRANTED) != 0) {
            WORD.setVolatile(log, (long) LogLayout.SHAPE, shape & ~LogLayout.UNGRANTED);
        }
    }

    /**
     * Takes every entry that has arrived whole, then applies every taken entry that is committed, in order,
     * to the state machine, and stores the new applied count in the log's header for the leader to read. First,
     * when the snapshot region holds an image covering more entries than this member applied, copies it, checks
     * its checksum over the copy and restores it ({@link StateMachine#restore}; applied and taken counts become
     * the entries it covers); an image that fails is left and counted ({@link #snapshotsRejected}).
     * Wait-free, no RDMA operation: CPU loads of this node's log and region, one CPU store of the applied count.
     *
     * @return how many entries this call applied
     */
    public int applyCommitted() {
        thread.checkOwnerThread();
        ThreadTime.onLocalAccess();
        if (snap != null && (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_COVERS) > applied) {
            restoreSnapshot();
        }
        long flushed = (long) WORD.getVolatile(log, (long) LogLayout.COMMIT);
        if (flushed > commitSeen) {
            commitSeen = flushed;
        }
        while (received - applied < slots && take(received)) {
            received++;
        }
        int n = 0;
        while (applied < received && applied < commitSeen) {
            long slot = slotOffset(applied);
            long length = wholeLength(applied);
            if (length < 0) {
                incompleteSlots++;
                break;
            }
            machine.apply(applied, log.asSlice(slot + LogLayout.PAYLOAD, length).asReadOnly());
            applied++;
            n++;
        }
        if (n > 0) {
            WORD.setVolatile(log, (long) LogLayout.APPLIED, applied);
        }
        return n;
    }

    /**
     * Applies committed entries until {@code count} have been applied, polling the log. Bounded by the
     * caller's timeout; every wait is a {@link ThreadTime} yield point. No RDMA operation.
     *
     * @param count   how many entries must have been applied
     * @param timeout how long to wait
     * @throws RemoteTimeoutException when fewer were applied when the timeout passed
     */
    public void awaitApplied(long count, Duration timeout) {
        long deadline = ThreadTime.nanoTime() + timeout.toNanos();
        while (applied < count) {
            if (applyCommitted() == 0) {
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("replica on node " + thread.nodeId() + " applied " + applied + " of "
                            + count + " entries within " + timeout + " (taken " + received + ", commit seen " + commitSeen + ")");
                }
                ThreadTime.onSpinWait("committed log entries");
            }
        }
    }

    /**
     * Stores an image of the state machine ({@link StateMachine#snapshot}) covering the entries applied so far in
     * this member's snapshot region: CPU stores only, no RDMA operation; the covers word cleared first, the image,
     * then the descriptor (length, checksum, covers last), so a leader copying it and a reader checking it never
     * take a mix. Not when the region holds an image covering more than this member applied (a leader installed
     * it and {@link #applyCommitted} has not restored it yet): then nothing is stored. Wait-free.
     *
     * @return the entries the stored image covers, or -1 when the region holds a newer image not restored yet
     * @throws BadArgumentException naming the value, when this replica has no snapshot region, the machine takes no
     *                              snapshots ({@link StateMachine#snapshot} returned null), or the image is larger
     *                              than the region's capacity (the region is left as it was)
     */
    public long takeSnapshot() {
        thread.checkOwnerThread();
        if (snap == null) {
            throw new BadArgumentException("the log on node " + thread.nodeId() + " has no snapshot region (created with "
                    + "snapshotBytes 0)");
        }
        ThreadTime.onLocalAccess();
        if ((long) WORD.getVolatile(snap, (long) LogLayout.SNAP_COVERS) > applied) {
            return -1;
        }
        MemorySegment image = machine.snapshot();
        if (image == null) {
            throw new BadArgumentException("the state machine of node " + thread.nodeId() + " takes no snapshots "
                    + "(snapshot() returned null)");
        }
        long length = image.byteSize();
        if (length > snapCapacity) {
            throw new BadArgumentException("snapshot image of " + length + " bytes; the snapshot region of node "
                    + thread.nodeId() + " takes 0.." + snapCapacity);
        }
        long covers = applied;
        WORD.setVolatile(snap, (long) LogLayout.SNAP_COVERS, 0L);
        MemorySegment dst = snap.asSlice(LogLayout.SNAP_IMAGE, LogLayout.padded(length));
        dst.fill((byte) 0);
        MemorySegment.copy(image, 0, dst, 0, length);
        long checksum = LogLayout.snapshotChecksum(covers, length, dst);
        WORD.setVolatile(snap, (long) LogLayout.SNAP_LENGTH, length);
        WORD.setVolatile(snap, (long) LogLayout.SNAP_CHECKSUM, checksum);
        WORD.setVolatile(snap, (long) LogLayout.SNAP_COVERS, covers);
        snapshotsTaken++;
        return covers;
    }

    /**
     * Restores the image in the snapshot region when it covers more than this member applied and is whole: copied
     * out first, its checksum computed over the copy; an image that fails is left (counted) for a later look.
     */
    private void restoreSnapshot() {
        long covers = (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_COVERS);
        long length = (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_LENGTH);
        long checksum = (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_CHECKSUM);
        if (length < 0 || length > snapCapacity) {
            snapshotsRejected++;
            return;
        }
        MemorySegment copy = MemorySegment.ofArray(new long[(int) (LogLayout.padded(length) / 8)]);
        MemorySegment.copy(snap, LogLayout.SNAP_IMAGE, copy, 0, copy.byteSize());
        VarHandle.acquireFence();
        if (LogLayout.snapshotChecksum(covers, length, copy) != checksum
                || (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_COVERS) != covers
                || (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_CHECKSUM) != checksum) {
            snapshotsRejected++;
            return;
        }
        machine.restore(copy.asSlice(0, length).asReadOnly(), covers);
        applied = covers;
        received = covers;
        if (covers > commitSeen) {
            commitSeen = covers;
        }
        snapshotsRestored++;
        WORD.setVolatile(log, (long) LogLayout.APPLIED, applied);
    }

    /** {@return the pointer of this member's snapshot region, 0 when it has none} */
    public long snapshotPtr() {
        return snapPtr;
    }

    /** {@return the largest snapshot image this member's region takes, 0 when it has none} */
    public long snapshotCapacity() {
        return snapCapacity;
    }

    /** {@return the entries the image in the snapshot region covers, 0 when it holds none (a CPU load)} */
    public long snapshotCovers() {
        return snap == null ? 0 : (long) WORD.getVolatile(snap, (long) LogLayout.SNAP_COVERS);
    }

    /** {@return the images {@link #takeSnapshot} stored} */
    public long snapshotsTaken() {
        return snapshotsTaken;
    }

    /** {@return the images restored into the state machine (installed by a leader, or found by {@link #restart})} */
    public long snapshotsRestored() {
        return snapshotsRestored;
    }

    /**
     * {@return how many times an image covering more than this member applied was not whole (its checksum, over
     *          this member's copy, disagreed: WRITEs still landing, torn or mixed) and was left for a later look}
     */
    public long snapshotsRejected() {
        return snapshotsRejected;
    }

    private long slotOffset(long index) {
        return LogLayout.HEADER_BYTES + (index % slots) * slotBytes;
    }

    /** Whether entry {@code index} is whole in its slot; on the way, the commit count it carries is noted. */
    private boolean take(long index) {
        long slot = slotOffset(index);
        if ((long) WORD.getVolatile(log, slot + LogLayout.STAMP) != index + 1) {
            return false;
        }
        if (wholeLength(index) < 0) {
            incompleteSlots++;
            return false;
        }
        long carried = (long) WORD.getVolatile(log, slot + LogLayout.SLOT_COMMIT);
        if (carried > commitSeen) {
            commitSeen = carried;
        }
        return true;
    }

    /**
     * The length of entry {@code index} when its slot holds it whole now (a new leader may be rewriting a
     * taken slot under its own term: the entry is checked again when it is applied), else -1.
     */
    private long wholeLength(long index) {
        long slot = slotOffset(index);
        long stamp = index + 1;
        if ((long) WORD.getVolatile(log, slot + LogLayout.STAMP) != stamp) {
            return -1;
        }
        long check = (long) WORD.getVolatile(log, slot + LogLayout.CHECK);
        long length = check >>> 32;
        long checksum = (long) WORD.getVolatile(log, slot + LogLayout.CHECKSUM);
        if ((check & 0xFFFF_FFFFL) != (stamp & 0xFFFF_FFFFL) || length < 1 || length > maxEntryBytes
                || (long) WORD.getVolatile(log, slot + LogLayout.PAYLOAD + LogLayout.padded(length)) != checksum
                || LogLayout.checksum(log.asSlice(slot, slotBytes), length) != checksum
                || (long) WORD.getVolatile(log, slot + LogLayout.STAMP) != stamp) {
            return -1;
        }
        return length;
    }

    /** Increments this member's heartbeat word (a CPU store), for the other members' agents to READ. */
    void beat() {
        ThreadTime.onLocalAccess();
        WORD.setVolatile(log, (long) LogLayout.HEARTBEAT, (long) WORD.getVolatile(log, (long) LogLayout.HEARTBEAT) + 1);
    }

    /** {@return this member's candidate word: the term a leader on this node asked to lead with, 0 if none} */
    long candidate() {
        return (long) WORD.getVolatile(log, (long) LogLayout.CANDIDATE);
    }

    /**
     * {@return the highest term this member granted write access to (0 before any), from its log's header; a CPU
     *          load, no RDMA operation}
     */
    public long promised() {
        return (long) WORD.getVolatile(log, (long) LogLayout.PROMISED);
    }

    /**
     * Grants write access to {@code leader} for {@code term} ({@link #grantWriteTo}) and then publishes the
     * term in the header's promised word: a leader that READs its own term there knows the switch has
     * completed. No RDMA operation.
     */
    void promise(int leader, long term) {
        grantWriteTo(leader);
        WORD.setVolatile(log, (long) LogLayout.PROMISED, term);
    }

    /** {@return the node this replica is on} */
    int nodeId() {
        return thread.nodeId();
    }

    /** {@return the log's name} */
    String name() {
        return name;
    }

    /** {@return this member's node} */
    RemusNode node() {
        return node;
    }

    /** {@return the replica group} */
    ReplicaGroup group() {
        return group;
    }

    /** {@return the compute thread the replica is confined to} */
    ComputeThread thread() {
        return thread;
    }
}
