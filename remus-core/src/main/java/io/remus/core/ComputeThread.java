package io.remus.core;

import io.remus.core.time.ThreadTime;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.LanePolicy;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.ClosedComputeThreadException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.error.PeerRestartedException;
import io.remus.core.error.PeerUnreachableException;
import io.remus.core.error.RemoteAccessException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.error.StaleHandleException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.Plane;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.fabric.WorkRequests;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One application thread's access to the memory of the cluster (Remus' {@code cThread}): one-sided
 * {@code read}, {@code write}, {@code compareAndSwap} and {@code fetchAndAdd} on {@link RemotePtr}s,
 * synchronous, asynchronous ({@link OpHandle}) and in doorbell batches ({@link DoorbellBatch}).
 *
 * <p>The thread owns a registered buffer ({@link #buffer()}), one completion queue, and
 * {@code qpLanesPerPeer} queue pairs to each peer, connected on first use. Sync, async and batched
 * operations allocate nothing in steady state. Every wait is bounded by the configured operation
 * timeout.
 *
 * <p><b>Thread confinement.</b> Not thread-safe: one instance per application thread, enforced. The
 * owner is the first Java thread that calls an operation (so a thread may be created on one thread
 * and handed to the worker that uses it); from then on every operation, {@link OpHandle} await and
 * poll, doorbell batch entry and post, and {@link #checkOwnerThread()} called from any other thread
 * throws {@link ThreadConfinementException} naming both threads, before anything is posted. The
 * check is one comparison of {@link Thread#currentThread()} with a field. The configuration and
 * directory queries ({@link #nodeId()}, {@link #config()}, {@link #buffer()}, {@link #isClosed()},
 * {@link #segmentCount}, {@link #segmentBase}, {@link #segmentLength}) may be called from any
 * thread. {@link #close()} runs on the owner, or on another thread once the owner has ended (after
 * joining it, for example); from another thread while the owner is alive it is refused, so a close
 * never runs beside one of the owner's operations.
 *
 * <p>Targets on the thread's own node follow the local/remote atomicity table: reads take the CPU
 * path; atomics go through the NIC (loopback QP), since a CPU atomic is not atomic with a NIC atomic
 * on the same word (IBV_ATOMIC_HCA); writes go through the NIC too, because a CPU write racing a
 * NIC compare-and-swap can be lost; {@link #writeLocal(long, long)} is the explicit CPU path for data
 * that no RDMA atomic touches. Through the NIC is not enough for a word that RDMA atomics race on,
 * though: a device may apply a compare-and-swap as a load and a store that writes the loaded value
 * back when the compare fails (Soft-RoCE does), and an RDMA WRITE landing in between is lost. Change
 * such a word only with {@link #compareAndSwap} or {@link #fetchAndAdd}. Nor is an 8-byte WRITE
 * atomic for a CPU reading the word meanwhile everywhere: Soft-RoCE stores it in pieces, so a word
 * that its owner polls while peers store into it should change by {@link #compareAndSwap}, which
 * every device stores whole (the queue locks of remus-alock do).
 *
 * <p><b>Fences.</b> Each operation takes an optional fence, and {@link DoorbellBatch#fence()} fences
 * the next entry of a batch. A fenced operation starts only after every earlier READ and atomic
 * (compare-and-swap, fetch-and-add) this thread posted on the same queue pair has completed, so
 * it sees their effects and, when it is a WRITE from the buffer an earlier READ or atomic filled,
 * sends what that READ or atomic fetched. Operations on one queue pair (one peer, one lane) always
 * execute in posting order at the target; the fence adds the wait for the data of earlier READs
 * and atomics to come back. It says nothing about other threads, other peers or other lanes
 * (with {@code qpLanesPerPeer > 1} pick {@link LanePolicy#BY_ADDRESS} to keep one word on one
 * lane). The simulator executes every queue pair's requests one at a time, which satisfies every
 * fence. The verbs fabric applies the fence in software rather than with {@code IBV_SEND_FENCE}
 * (Soft-RoCE stalls on it): a fenced {@code *Async} call, or a batch with a fenced entry, returns
 * only after the earlier READs and atomics on that queue pair completed.
 *
 * <p>Every argument is checked before anything is posted: a pointer to an unknown node, a
 * misaligned atomic, a range outside every published segment or a local range outside the
 * registered buffer is a {@link BadArgumentException}.
 */
public final class ComputeThread implements AutoCloseable {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle REGIONS = MethodHandles.arrayElementVarHandle(RemoteRegion[][].class);
    /** Volatile access to {@link #republishing}: the owner sets it, any thread's look reads and clears it. */
    private static final VarHandle REPUBLISHING = MethodHandles.arrayElementVarHandle(boolean[].class);
    private static final VarHandle OWNER;
    private static final VarHandle CLOSE_STATE;
    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final AtomicInteger TAGS = new AtomicInteger();
    private static final int NO_NODE = -1;
    private static final long RESULT_TO_SLOT = -1;
    private static final long VALUE_FROM_SLOT = -2;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(ComputeThread.class, "owner", Thread.class);
            CLOSE_STATE = MethodHandles.lookup().findVarHandle(ComputeThread.class, "closeState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Fabric fabric;
    private final FabricNode fabricNode;
    private final ClusterConfig config;
    private final int self;
    private final RegisteredMemory registered;
    private final MemorySegment memory;
    private final MemorySegment userBuffer;
    private final long base;
    private final int lkey;
    private final int bufferSize;
    private final long wordsOffset;
    private final RegisteredMemory[] localMemory;
    private final CompletionQueue cq;
    private final Completions completions;
    private final QueuePair[][] queuePairs;
    private final int[][] outstanding;
    private final RemoteRegion[][] regions;
    /** Per node, the incarnation its queue pairs reached ({@link QueuePair#peerIncarnation()}); 0 before the first. */
    private final long[] incarnations;
    /**
     * Per node, whether it restarted (a queue pair reached a new incarnation) and this thread has not yet seen all of
     * its segments published again: a look-up that finds fewer is then a peer that cannot be reached yet, not a bad
     * argument.
     */
    private final boolean[] republishing;
    private final OpSlot[] handles;
    private final long[] posted = new long[Opcode.values().length];
    private long bytesRead;
    private long bytesWritten;
    private long roundTrips;
    private long postSequence;
    private final long[] postedAt;
    private long waitMark;
    private final int tag;
    /** How many compute threads its node created before this one: {@link FreeBlockPool}'s home shard comes from it. */
    private final int ordinal;
    /** The plane every queue pair of this thread connects on ({@link Plane}). */
    private final int plane;
    private final int[] freeSlots;
    private int freeCount;
    private final WorkRequests single = new WorkRequests(1);
    private final DoorbellBatch batch;
    private final long timeoutNanos;
    private final int lanes;
    private final LanePolicy lanePolicy;
    private final int sendQueueDepth;
    private RemoteAllocator allocator;
    private int nextLane;
    private volatile boolean closed;
    /** {@link #OPEN}, or {@link #CLOSING} from the start of the one {@link #close()} that wins the compare-and-set on. */
    private volatile int closeState;
    private Thread owner;

    /**
     * Creates the thread's completion queue, then its registered buffer; when the buffer cannot be
     * had, the queue is closed again, so a refused thread holds nothing (the queue comes first
     * because its size is what a device limits: {@code max_cqe}).
     *
     * @throws BadArgumentException when the completion queue of {@code 2 * opsInFlightPerThread *
     *                              wrsPerBatch} entries exceeds what the fabric node allows
     */
    ComputeThread(Fabric fabric, FabricNode fabricNode, ClusterConfig config, List<RegisteredMemory> localMemory) {
        this(fabric, fabricNode, config, localMemory, 0);
    }

    /**
     * As {@link #ComputeThread(Fabric, FabricNode, ClusterConfig, List)}, for the node's {@code ordinal}-th thread.
     */
    ComputeThread(Fabric fabric, FabricNode fabricNode, ClusterConfig config, List<RegisteredMemory> localMemory,
            int ordinal) {
        this(fabric, fabricNode, config, localMemory, ordinal, Plane.DEFAULT);
    }

    /**
     * As {@link #ComputeThread(Fabric, FabricNode, ClusterConfig, List, int)}, connecting every queue pair on
     * plane {@code plane} (checked by the caller).
     */
    ComputeThread(Fabric fabric, FabricNode fabricNode, ClusterConfig config, List<RegisteredMemory> localMemory,
            int ordinal, int plane) {
        this.fabric = fabric;
        this.ordinal = ordinal;
        this.plane = plane;
        this.fabricNode = fabricNode;
        this.config = config;
        this.self = fabricNode.nodeId();
        int ops = config.opsInFlightPerThread();
        this.bufferSize = config.bufferSizePerThread();
        this.wordsOffset = 2L * bufferSize;
        this.sendQueueDepth = ops * config.wrsPerBatch();
        this.cq = fabricNode.createCompletionQueue(sendQueueDepth * 2);
        try {
            this.registered = fabricNode.allocate(wordsOffset + 8L * ops);
        } catch (RuntimeException e) {
            closeQuietly(cq, e);
            throw e;
        }
        this.memory = registered.segment();
        this.userBuffer = memory.asSlice(0, bufferSize);
        this.base = registered.address();
        this.lkey = registered.lkey();
        this.localMemory = localMemory.toArray(RegisteredMemory[]::new);
        int nodes = config.nodes().size();
        this.lanes = config.qpLanesPerPeer();
        this.lanePolicy = config.lanePolicy();
        this.completions = new Completions(Math.min(64, sendQueueDepth));
        this.queuePairs = new QueuePair[nodes][];
        this.outstanding = new int[nodes][];
        this.regions = new RemoteRegion[nodes][];
        this.incarnations = new long[nodes];
        this.republishing = new boolean[nodes];
        this.handles = new OpSlot[ops];
        this.postedAt = new long[ops];
        this.tag = Math.floorMod(TAGS.getAndIncrement(), 0xFFFF) + 1;
        this.freeSlots = new int[ops];
        for (int i = 0; i < ops; i++) {
            handles[i] = new OpSlot(i);
            freeSlots[i] = ops - 1 - i;
        }
        this.freeCount = ops;
        this.batch = new DoorbellBatch(this, config.wrsPerBatch());
        this.timeoutNanos = config.operationTimeout().toNanos();
    }

    /**
     * {@return how many compute threads this thread's node created before it (0 for the first), deterministic
     * wherever the node's threads are created in a deterministic order, as under the virtual-time scheduler}
     */
    int ordinal() {
        return ordinal;
    }

    /**
     * {@return the plane this thread's queue pairs connect on ({@link Plane#DEFAULT} unless it was created on
     *          another, {@link RemusNode#newComputeThread(int)}): a target node switches this thread's WRITEs and
     *          atomics with that plane's access for this node ({@link FabricNode#setPeerAccess(int, int, io.remus.core.fabric.PeerAccess)})}
     */
    public int plane() {
        return plane;
    }

    /** {@return this thread's node id} */
    public int nodeId() {
        return self;
    }

    /** {@return the cluster configuration} */
    public ClusterConfig config() {
        return config;
    }

    /** {@return the thread's registered buffer, {@code bufferSizePerThread} bytes, for zero-copy transfers} */
    public MemorySegment buffer() {
        return userBuffer;
    }

    // ---------------------------------------------------------------- synchronous words

    /**
     * Reads the 8-byte word at {@code ptr}.
     *
     * @param ptr the word
     * @return its value
     */
    public long read(long ptr) {
        return read(ptr, false);
    }

    /**
     * Reads the 8-byte word at {@code ptr}, after the thread's earlier reads and atomics when fenced.
     *
     * @param ptr   the word
     * @param fence whether to fence
     * @return its value
     */
    public long read(long ptr, boolean fence) {
        confinedOpen();
        if (RemotePtr.node(ptr) == self) {
            checkTarget(ptr, 8, false);
            return localWord(ptr);
        }
        return await(postSingle(Opcode.READ, ptr, RESULT_TO_SLOT, 8, 0, 0, fence));
    }

    /**
     * Writes the 8-byte word at {@code ptr} (through the NIC, also on the thread's own node).
     *
     * @param ptr   the word
     * @param value its new value
     */
    public void write(long ptr, long value) {
        write(ptr, value, false);
    }

    /**
     * Writes the 8-byte word at {@code ptr}, fenced behind earlier reads and atomics when asked.
     *
     * @param ptr   the word
     * @param value its new value
     * @param fence whether to fence
     */
    public void write(long ptr, long value, boolean fence) {
        confinedOpen();
        await(postSingle(Opcode.WRITE, ptr, VALUE_FROM_SLOT, 8, value, 0, fence));
    }

    /**
     * Atomically (among NIC atomics) replaces the word at {@code ptr} by {@code desired} if it
     * equals {@code expected}.
     *
     * @param ptr      an 8-byte aligned word
     * @param expected the value it must hold
     * @param desired  its new value
     * @return the value it held (equal to {@code expected} when the swap happened)
     */
    public long compareAndSwap(long ptr, long expected, long desired) {
        return compareAndSwap(ptr, expected, desired, false);
    }

    /**
     * {@link #compareAndSwap(long, long, long)}, fenced when asked.
     *
     * @param ptr      an 8-byte aligned word
     * @param expected the value it must hold
     * @param desired  its new value
     * @param fence    whether to fence
     * @return the value it held
     */
    public long compareAndSwap(long ptr, long expected, long desired, boolean fence) {
        confinedOpen();
        return await(postSingle(Opcode.COMPARE_AND_SWAP, ptr, RESULT_TO_SLOT, 8, expected, desired, fence));
    }

    /**
     * Atomically (among NIC atomics) adds {@code delta} to the word at {@code ptr}.
     *
     * @param ptr   an 8-byte aligned word
     * @param delta what to add
     * @return the value it held before
     */
    public long fetchAndAdd(long ptr, long delta) {
        return fetchAndAdd(ptr, delta, false);
    }

    /**
     * {@link #fetchAndAdd(long, long)}, fenced when asked.
     *
     * @param ptr   an 8-byte aligned word
     * @param delta what to add
     * @param fence whether to fence
     * @return the value it held before
     */
    public long fetchAndAdd(long ptr, long delta, boolean fence) {
        confinedOpen();
        return await(postSingle(Opcode.FETCH_AND_ADD, ptr, RESULT_TO_SLOT, 8, delta, 0, fence));
    }

    // ---------------------------------------------------------------- synchronous ranges

    /**
     * Reads {@code length} bytes at {@code ptr} into the buffer at {@code bufferOffset} (zero-copy).
     *
     * @param ptr          the first remote byte
     * @param bufferOffset where in {@link #buffer()} they land
     * @param length       the byte count
     */
    public void read(long ptr, long bufferOffset, int length) {
        confinedOpen();
        await(readSlot(ptr, bufferOffset, length, false));
    }

    /**
     * Writes {@code length} bytes of the buffer at {@code bufferOffset} to {@code ptr} (zero-copy).
     *
     * @param ptr          the first remote byte
     * @param bufferOffset where in {@link #buffer()} they come from
     * @param length       the byte count
     */
    public void write(long ptr, long bufferOffset, int length) {
        confinedOpen();
        checkBuffer(bufferOffset, length);
        await(postSingle(Opcode.WRITE, ptr, bufferOffset, length, 0, 0, false));
    }

    /**
     * Reads {@code destination.byteSize()} bytes at {@code ptr} into {@code destination}, staged
     * through a private part of the registered buffer.
     *
     * @param ptr         the first remote byte
     * @param destination where they go, at most {@code bufferSizePerThread} bytes
     */
    public void read(long ptr, MemorySegment destination) {
        Objects.requireNonNull(destination, "destination");
        confinedOpen();
        int length = stagedLength(destination);
        if (RemotePtr.node(ptr) == self) {
            checkTarget(ptr, length, false);
            RegisteredMemory m = localTarget(ptr, length);
            MemorySegment.copy(m.segment(), RemotePtr.address(ptr) - m.address(), destination, 0, length);
            return;
        }
        await(postSingle(Opcode.READ, ptr, bufferSize, length, 0, 0, false));
        MemorySegment.copy(memory, bufferSize, destination, 0, length);
    }

    /**
     * Writes {@code source} to {@code ptr}, staged through a private part of the registered buffer.
     *
     * @param ptr    the first remote byte
     * @param source the bytes, at most {@code bufferSizePerThread}
     */
    public void write(long ptr, MemorySegment source) {
        Objects.requireNonNull(source, "source");
        confinedOpen();
        int length = stagedLength(source);
        checkTarget(ptr, length, false);
        if (closed) {
            throw closedException();
        }
        MemorySegment.copy(source, 0, memory, bufferSize, length);
        await(postSingle(Opcode.WRITE, ptr, bufferSize, length, 0, 0, false));
    }

    // ---------------------------------------------------------------- explicit local path

    /**
     * Writes the word at {@code ptr}, which must be on this thread's node, with a CPU store. Only
     * for words no RDMA atomic touches: a CPU store racing a NIC atomic can be lost.
     *
     * @param ptr   a word on this node
     * @param value its new value
     */
    public void writeLocal(long ptr, long value) {
        confinedOpen();
        RegisteredMemory m = localTarget(ptr, 8);
        long offset = RemotePtr.address(ptr) - m.address();
        ThreadTime.onLocalAccess();
        if ((RemotePtr.address(ptr) & 7) == 0) {
            WORD.setVolatile(m.segment(), offset, value);
        } else {
            m.segment().set(ValueLayout.JAVA_LONG_UNALIGNED, offset, value);
        }
    }

    /**
     * Reads the word at {@code ptr}, which must be on this thread's node, with a CPU load (volatile where
     * the word is 8-byte aligned). For words the CPU stores ({@link #writeLocal(long, long)}); a CPU load of
     * a word a NIC atomic stores sees it whole.
     *
     * @param ptr a word on this node
     * @return its value
     * @throws BadArgumentException when {@code ptr} is not on this node or outside its segments
     */
    public long readLocal(long ptr) {
        confinedOpen();
        RegisteredMemory m = localTarget(ptr, 8);
        long offset = RemotePtr.address(ptr) - m.address();
        ThreadTime.onLocalAccess();
        if ((RemotePtr.address(ptr) & 7) == 0) {
            return (long) WORD.getVolatile(m.segment(), offset);
        }
        return m.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
    }

    /**
     * Copies {@code length} bytes of the buffer to {@code ptr}, on this thread's node, with the CPU.
     * Only for data no RDMA atomic touches.
     *
     * @param ptr          the first byte, on this node
     * @param bufferOffset where in {@link #buffer()} they come from
     * @param length       the byte count
     */
    public void writeLocal(long ptr, long bufferOffset, int length) {
        confinedOpen();
        checkBuffer(bufferOffset, length);
        RegisteredMemory m = localTarget(ptr, length);
        ThreadTime.onLocalAccess();
        MemorySegment.copy(memory, bufferOffset, m.segment(), RemotePtr.address(ptr) - m.address(), length);
    }

    /**
     * A CPU view of {@code length} bytes at {@code ptr} on this thread's node, for data that only
     * CPU accesses touch atomically (words that no RDMA atomic ever touches; see the atomicity
     * table). The view is a slice of the node's registered segment and lives as long as the node.
     *
     * @param ptr    the first byte, on this node
     * @param length the byte count, positive
     * @return the slice
     * @throws BadArgumentException when the thread is closed, the pointer is on another node, or the
     *                              range is outside this node's segments
     */
    public MemorySegment localSegment(long ptr, long length) {
        confinedOpen();
        if (closed) {
            throw closedException();
        }
        if (length <= 0) {
            throw new BadArgumentException("length must be positive, got " + length);
        }
        RegisteredMemory m = localTarget(ptr, length);
        return m.segment().asSlice(RemotePtr.address(ptr) - m.address(), length);
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- asynchronous

    /**
     * Starts reading {@code length} bytes at {@code ptr} into the buffer at {@code bufferOffset}.
     *
     * @param ptr          the first remote byte
     * @param bufferOffset where in {@link #buffer()} they land
     * @param length       the byte count
     * @param fence        whether to fence
     * @return the operation's {@link OpHandle}, for {@link #await(long)}
     */
    public long readAsync(long ptr, long bufferOffset, int length, boolean fence) {
        confinedOpen();
        return handle(readSlot(ptr, bufferOffset, length, fence));
    }

    /**
     * Starts reading the word at {@code ptr}; {@link #await(long)} returns it.
     *
     * @param ptr   an 8-byte aligned word
     * @param fence whether to fence
     * @return the operation's {@link OpHandle}
     */
    public long readWordAsync(long ptr, boolean fence) {
        confinedOpen();
        if (RemotePtr.node(ptr) == self) {
            checkTarget(ptr, 8, false);
            long value = localWord(ptr);
            OpSlot h = acquire();
            h.localValue = value;
            h.hasLocalValue = true;
            h.state = OpSlot.State.DONE;
            return handle(h);
        }
        return handle(postSingle(Opcode.READ, ptr, RESULT_TO_SLOT, 8, 0, 0, fence));
    }

    /**
     * Starts writing {@code length} bytes of the buffer at {@code bufferOffset} to {@code ptr}.
     *
     * @param ptr          the first remote byte
     * @param bufferOffset where in {@link #buffer()} they come from
     * @param length       the byte count
     * @param fence        whether to fence
     * @return the operation's {@link OpHandle}
     */
    public long writeAsync(long ptr, long bufferOffset, int length, boolean fence) {
        confinedOpen();
        checkBuffer(bufferOffset, length);
        return handle(postSingle(Opcode.WRITE, ptr, bufferOffset, length, 0, 0, fence));
    }

    /**
     * Starts writing the word {@code value} to {@code ptr}.
     *
     * @param ptr   an 8-byte aligned word
     * @param value its new value
     * @param fence whether to fence
     * @return the operation's {@link OpHandle}
     */
    public long writeWordAsync(long ptr, long value, boolean fence) {
        confinedOpen();
        return handle(postSingle(Opcode.WRITE, ptr, VALUE_FROM_SLOT, 8, value, 0, fence));
    }

    /**
     * Starts a compare-and-swap; {@link #await(long)} returns the old value.
     *
     * @param ptr      an 8-byte aligned word
     * @param expected the value it must hold
     * @param desired  its new value
     * @param fence    whether to fence
     * @return the operation's {@link OpHandle}
     */
    public long compareAndSwapAsync(long ptr, long expected, long desired, boolean fence) {
        confinedOpen();
        return handle(postSingle(Opcode.COMPARE_AND_SWAP, ptr, RESULT_TO_SLOT, 8, expected, desired, fence));
    }

    /**
     * Starts a fetch-and-add; {@link #await(long)} returns the old value.
     *
     * @param ptr   an 8-byte aligned word
     * @param delta what to add
     * @param fence whether to fence
     * @return the operation's {@link OpHandle}
     */
    public long fetchAndAddAsync(long ptr, long delta, boolean fence) {
        confinedOpen();
        return handle(postSingle(Opcode.FETCH_AND_ADD, ptr, RESULT_TO_SLOT, 8, delta, 0, fence));
    }

    /**
     * Waits (bounded by the configured operation timeout) for the operation of {@code handle} to
     * finish, frees its slot for the next operation and reports the result. Allocates nothing.
     *
     * @param handle an {@link OpHandle} this thread issued and has not awaited yet
     * @return the old value of an atomic, the word of a word read, otherwise 0
     * @throws RemoteOperationException when the operation completed with an error
     * @throws RemoteTimeoutException   when it did not complete within the timeout
     * @throws StaleHandleException     when the handle was already awaited (its slot may carry another
     *                                  operation now) or another compute thread issued it
     */
    public long await(long handle) {
        confinedOpen();
        return await(current(handle));
    }

    /**
     * Drives the completion queue once and reports whether the operation of {@code handle} has
     * finished. Allocates nothing.
     *
     * @param handle an {@link OpHandle} this thread issued and has not awaited yet
     * @return whether {@link #await(long)} would return without waiting
     * @throws StaleHandleException when the handle was already awaited or another compute thread issued it
     */
    public boolean poll(long handle) {
        confinedOpen();
        OpSlot h = current(handle);
        if (h.state == OpSlot.State.PENDING) {
            progress();
        }
        return h.state == OpSlot.State.DONE;
    }

    /** {@return this thread's doorbell batch, empty unless entries were added and not posted} */
    public DoorbellBatch batch() {
        confined();
        return batch;
    }

    /**
     * How many work requests of one kind this thread has posted to the fabric since it was created:
     * the RDMA operations it issued, for tests and profiles that check an algorithm's cost. What
     * takes the CPU path on the thread's own node is not counted (word and byte reads there,
     * {@code writeLocal}, {@link #localSegment}); writes, atomics and doorbell batches there go
     * through the NIC and are.
     *
     * @param op the kind
     * @return the count
     */
    public long postedOperations(Opcode op) {
        Objects.requireNonNull(op, "op");
        confined();
        return posted[op.ordinal()];
    }

    /**
     * Payload bytes of the RDMA READs this thread has posted since it was created (the lengths of
     * the READ work requests, doorbell batches included). Reads that take the CPU path on the
     * thread's own node are not counted, as in {@link #postedOperations}; atomics are counted there
     * (each moves one 8-byte word each way) and not here.
     *
     * @return the byte count
     */
    public long bytesRead() {
        confined();
        return bytesRead;
    }

    /**
     * Payload bytes of the RDMA WRITEs this thread has posted since it was created (the lengths of
     * the WRITE work requests, doorbell batches included, word writes counting 8). What
     * {@code writeLocal} stores with the CPU is not counted.
     *
     * @return the byte count
     */
    public long bytesWritten() {
        confined();
        return bytesWritten;
    }

    /**
     * Network round trips this thread has waited for since it was created: how many times it
     * waited for operations it posted to the fabric. A round trip is counted when the thread waits
     * (a synchronous operation, {@link #await(long)}, {@link DoorbellBatch#execute()}) for an
     * operation posted after the start of the previous counted wait; that wait then covers every
     * operation posted so far. So a synchronous operation is one round trip; a doorbell batch is one;
     * and {@code k} asynchronous operations (or batches, to one node or several) posted before the
     * first of them is awaited are one round trip however they are awaited, since they are in flight
     * together. An operation posted while earlier ones are awaited starts a new round trip when it is
     * awaited. Operations that take the CPU path on the thread's own node are no round trip; an
     * operation that completed before it was awaited (found by {@link #poll(long)}) still counts,
     * since its result came back over the network. Allocates nothing.
     *
     * @return the count
     */
    public long roundTrips() {
        confined();
        return roundTrips;
    }

    /**
     * Makes the calling Java thread this compute thread's owner if none used it yet, or checks that
     * it is the owner: for layers above (locks, data structures) whose operations have paths that
     * do not go through this thread's operations (CPU paths on its node's memory, or state of their
     * own). Costs one comparison once the owner is bound.
     *
     * @throws ThreadConfinementException when another Java thread owns this compute thread
     */
    public void checkOwnerThread() {
        confined();
    }

    // ---------------------------------------------------------------- directory

    /**
     * Counts the segments a node publishes. A node's published regions are read from the fabric on the
     * thread's first look at the node and kept from then on; a memory node's only once they are all its
     * {@code segmentCount} segments (it publishes them together, see {@link MemoryNode}). Allocates
     * nothing and makes no RDMA operation after that first look.
     *
     * @param nodeId a node of the cluster
     * @return how many segments it publishes
     * @throws BadArgumentException naming the node when it is outside the cluster, publishes no memory, or
     *                              is a memory node that shows fewer than {@code segmentCount} segments
     * @throws PeerUnreachableException naming the node when it restarted (this thread saw a
     *                              {@link PeerRestartedException} for it) and shows fewer than {@code segmentCount}
     *                              segments yet: its new process has not published them again, so a later look may
     *                              find them
     */
    public int segmentCount(int nodeId) {
        return regionsOf(nodeId).length;
    }

    /**
     * Locates a segment of a node.
     *
     * @param nodeId  a node of the cluster
     * @param segment a segment index below {@link #segmentCount(int)}
     * @return a pointer to the segment's first byte
     * @throws BadArgumentException as {@link #segmentCount(int)} does, or naming {@code segment} when it is
     *                              not below the node's segment count
     * @throws PeerUnreachableException as {@link #segmentCount(int)} does
     */
    public long segmentBase(int nodeId, int segment) {
        return RemotePtr.of(nodeId, segmentOf(nodeId, segment).address());
    }

    /**
     * Measures a segment of a node.
     *
     * @param nodeId  a node of the cluster
     * @param segment a segment index below {@link #segmentCount(int)}
     * @return the segment's length in bytes
     * @throws BadArgumentException as {@link #segmentBase(int, int)} does
     */
    public long segmentLength(int nodeId, int segment) {
        return segmentOf(nodeId, segment).length();
    }

    /**
     * Whether {@code [ptr, ptr + length)} lies inside one segment its node publishes: the check every
     * operation makes before it posts, without the exception, for a caller that tells a pointer read torn
     * (half of an old value and half of a new one) from a good one. No RDMA.
     *
     * @param ptr    any word
     * @param length bytes from {@code ptr}
     * @return true when an operation on the range would be posted; false for a node outside the cluster,
     *         publishing no memory or (a memory node) fewer than {@code segmentCount} segments, a range outside
     *         every published segment, or a length that is not positive
     */
    public boolean isPublished(long ptr, long length) {
        int nodeId = RemotePtr.node(ptr);
        if (length <= 0 || nodeId < 0 || nodeId >= regions.length) {
            return false;
        }
        RemoteRegion[] rs = (RemoteRegion[]) REGIONS.getAcquire(regions, nodeId);
        if (rs == null) {
            rs = lookUpRegions(nodeId);
            if (rs.length < expectedRegions(nodeId)) {
                return false;
            }
        }
        long address = RemotePtr.address(ptr);
        for (RemoteRegion r : rs) {
            if (r.contains(address, length)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- machinery

    private long localWord(long ptr) {
        RegisteredMemory m = localTarget(ptr, 8);
        long offset = RemotePtr.address(ptr) - m.address();
        ThreadTime.onLocalAccess();
        if ((RemotePtr.address(ptr) & 7) == 0) {
            return (long) WORD.getVolatile(m.segment(), offset);
        }
        return m.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, offset);
    }

    private RegisteredMemory localTarget(long ptr, long length) {
        if (RemotePtr.node(ptr) != self) {
            throw new BadArgumentException(RemotePtr.toString(ptr) + " is not on this thread's node " + self);
        }
        long address = RemotePtr.address(ptr);
        for (RegisteredMemory m : localMemory) {
            if (m.contains(address, length)) {
                return m;
            }
        }
        throw new BadArgumentException("[" + RemotePtr.toString(ptr) + ", +" + length + ") is outside this node's segments");
    }

    private int stagedLength(MemorySegment segment) {
        long length = segment.byteSize();
        if (length <= 0 || length > bufferSize) {
            throw new BadArgumentException("a copied transfer must be 1.." + bufferSize + " bytes, got " + length);
        }
        return (int) length;
    }

    void checkBuffer(long offset, long length) {
        if (closed) {
            throw closedException();
        }
        if (length <= 0 || offset < 0 || offset > bufferSize - length) {
            throw new BadArgumentException("local range [" + offset + ", +" + length + ") is outside the registered buffer of "
                    + bufferSize + " bytes");
        }
    }

    long bufferAddress(long offset) {
        return base + offset;
    }

    int lkey() {
        return lkey;
    }

    int checkTarget(long ptr, int length, boolean atomic) {
        if (length <= 0) {
            throw new BadArgumentException("length must be positive, got " + length);
        }
        long address = RemotePtr.address(ptr);
        if (atomic && (address & 7) != 0) {
            throw new BadArgumentException("atomic target " + RemotePtr.toString(ptr) + " is not 8-byte aligned");
        }
        int node = RemotePtr.node(ptr);
        RemoteRegion[] rs = regionsOf(node);
        for (RemoteRegion r : rs) {
            if (r.contains(address, length)) {
                return r.rkey();
            }
        }
        // What this thread kept of the node may be old: the node published more since, or restarted with new memory.
        // Read its table once more before refusing (only on this path, so a hit costs nothing more).
        for (RemoteRegion r : lookUpRegions(node)) {
            if (r.contains(address, length)) {
                return r.rkey();
            }
        }
        throw new BadArgumentException("[" + RemotePtr.toString(ptr) + ", +" + length + ") is outside every segment node "
                + RemotePtr.node(ptr) + " publishes");
    }

    private RemoteRegion[] regionsOf(int nodeId) {
        if (nodeId < 0 || nodeId >= regions.length) {
            throw new BadArgumentException("node " + nodeId + " is not in the cluster of " + regions.length + " nodes");
        }
        RemoteRegion[] rs = (RemoteRegion[]) REGIONS.getAcquire(regions, nodeId);
        if (rs == null) {
            rs = lookUpRegions(nodeId);
            if (rs.length < expectedRegions(nodeId) && (boolean) REPUBLISHING.getVolatile(republishing, nodeId)) {
                throw new PeerUnreachableException(CompletionStatus.RETRY_EXCEEDED, nodeId, "node " + nodeId
                        + " restarted (incarnation 0x" + Long.toHexString(incarnations[nodeId]) + ") and publishes "
                        + rs.length + " of its " + expectedRegions(nodeId) + " segments again so far");
            }
            if (rs.length == 0) {
                throw new BadArgumentException("node " + nodeId + " publishes no memory");
            }
            if (rs.length < expectedRegions(nodeId)) {
                throw new BadArgumentException("memory node " + nodeId + " publishes " + rs.length + " of its "
                        + expectedRegions(nodeId) + " segments (segment.count): it has not published them yet, or its"
                        + " segment.count differs from node " + self + "'s");
            }
        }
        return rs;
    }

    private RemoteRegion segmentOf(int nodeId, int segment) {
        RemoteRegion[] rs = regionsOf(nodeId);
        if (segment < 0 || segment >= rs.length) {
            throw new BadArgumentException("segment " + segment + " of node " + nodeId + " does not exist: it publishes "
                    + rs.length + " segment(s)");
        }
        return rs[segment];
    }

    /**
     * Reads what node {@code nodeId} publishes from the fabric, and keeps it for every later look when it is
     * complete: at least {@link #expectedRegions} regions. An incomplete list is returned and not kept, so
     * the next look reads the fabric again.
     */
    private RemoteRegion[] lookUpRegions(int nodeId) {
        if (owner == Thread.currentThread()) {
            queuePair(nodeId, 0);
        }
        RemoteRegion[] rs = fabric.publishedRegions(nodeId, config.operationTimeout()).toArray(RemoteRegion[]::new);
        if (rs.length > 0 && rs.length >= expectedRegions(nodeId)) {
            REPUBLISHING.setVolatile(republishing, nodeId, false);
            REGIONS.setRelease(regions, nodeId, rs);
        }
        return rs;
    }

    /** {@return the regions a complete view of node {@code nodeId} has: a memory node's segment count, else 1} */
    private int expectedRegions(int nodeId) {
        return config.memoryNodes().contains(nodeId) ? config.segmentCount() : 1;
    }

    void confined() {
        if (owner != Thread.currentThread()) {
            claimOwner();
        }
    }

    /** {@link #confined()}, then refuses a closed thread before anything touches memory or the fabric. */
    void confinedOpen() {
        confined();
        if (closed) {
            throw closedException();
        }
    }

    private ClosedComputeThreadException closedException() {
        return new ClosedComputeThreadException("the compute thread of node " + self + " is closed");
    }

    private static void closeQuietly(AutoCloseable resource, RuntimeException failure) {
        try {
            resource.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Makes the calling thread the owner for {@link #close()}: it already is, none was bound, or the
     * owner has ended; a compare-and-set, so no other thread starts an operation meanwhile.
     *
     * @throws ThreadConfinementException when another Java thread owns this compute thread and is alive
     */
    private void claimForClose() {
        Thread me = Thread.currentThread();
        while (true) {
            Thread was = (Thread) OWNER.getVolatile(this);
            if (was == me) {
                return;
            }
            if (was != null && was.isAlive()) {
                throw new ThreadConfinementException("the compute thread of node " + self + " belongs to Java thread "
                        + ThreadConfinementException.describe(was) + ", which is still alive; close it there, or after that"
                        + " thread has ended (it was closed from " + ThreadConfinementException.describe(me) + ")");
            }
            if (OWNER.compareAndSet(this, was, me)) {
                return;
            }
        }
    }

    private void claimOwner() {
        Thread me = Thread.currentThread();
        Thread was = (Thread) OWNER.compareAndExchange(this, (Thread) null, me);
        if (was != null && was != me) {
            throw new ThreadConfinementException("the compute thread of node " + self + " belongs to Java thread "
                    + ThreadConfinementException.describe(was) + ", which used it first; it was called from "
                    + ThreadConfinementException.describe(me) + " (one compute thread per Java thread)");
        }
    }

    private OpSlot readSlot(long ptr, long bufferOffset, int length, boolean fence) {
        checkBuffer(bufferOffset, length);
        if (RemotePtr.node(ptr) == self) {
            checkTarget(ptr, length, false);
            RegisteredMemory m = localTarget(ptr, length);
            OpSlot h = acquire();
            MemorySegment.copy(m.segment(), RemotePtr.address(ptr) - m.address(), memory, bufferOffset, length);
            h.state = OpSlot.State.DONE;
            return h;
        }
        return postSingle(Opcode.READ, ptr, bufferOffset, length, 0, 0, fence);
    }

    long handle(OpSlot h) {
        return OpHandle.of(tag, h.generation, h.slot);
    }

    private OpSlot current(long handle) {
        int slot = OpHandle.slot(handle);
        if (OpHandle.tag(handle) != tag || slot >= handles.length) {
            throw new StaleHandleException(handle, OpHandle.toString(handle) + " is not a handle of this compute thread"
                    + " (tag " + tag + ", " + handles.length + " slots)");
        }
        OpSlot h = handles[slot];
        if (h.generation != OpHandle.generation(handle)
                || (h.state != OpSlot.State.PENDING && h.state != OpSlot.State.DONE)) {
            throw new StaleHandleException(handle, OpHandle.toString(handle) + " was already awaited (its slot is at generation "
                    + Integer.toUnsignedString(h.generation) + (h.state == OpSlot.State.ABANDONED ? ", its wait timed out" : "")
                    + "); handles are used once");
        }
        return h;
    }

    /** Refuses a closed thread before any target lookup or connection, which a closed fabric node would fail untyped. */
    private void requireOpen() {
        if (closed) {
            throw closedException();
        }
    }

    private OpSlot acquire() {
        requireOpen();
        if (freeCount == 0) {
            throw new BadArgumentException("all " + handles.length + " operations in flight are in use: await some first");
        }
        OpSlot h = handles[freeSlots[--freeCount]];
        h.state = OpSlot.State.PENDING;
        h.status = CompletionStatus.SUCCESS;
        h.hasLocalValue = false;
        h.resultOffset = -1;
        h.node = NO_NODE;
        postedAt[h.slot] = 0;
        return h;
    }

    private void release(OpSlot h) {
        h.generation++;
        h.state = OpSlot.State.FREE;
        freeSlots[freeCount++] = h.slot;
    }

    private static long wrId(OpSlot h, boolean last) {
        return ((long) h.generation << 32) | ((long) h.slot << 1) | (last ? 1 : 0);
    }

    private OpSlot postSingle(Opcode op, long ptr, long bufferOffset, int length, long operand, long swap, boolean fence) {
        requireOpen();
        boolean atomic = op == Opcode.COMPARE_AND_SWAP || op == Opcode.FETCH_AND_ADD;
        int rkey = checkTarget(ptr, length, atomic);
        int node = RemotePtr.node(ptr);
        long address = RemotePtr.address(ptr);
        int lane = lane(address);
        QueuePair qp = queuePair(node, lane);
        OpSlot h = acquire();
        long wordOffset = wordsOffset + 8L * h.slot;
        long local = bufferOffset >= 0 ? base + bufferOffset : base + wordOffset;
        if (bufferOffset == VALUE_FROM_SLOT) {
            memory.set(ValueLayout.JAVA_LONG, wordOffset, operand);
        }
        h.resultOffset = bufferOffset == RESULT_TO_SLOT ? wordOffset : -1;
        int flags = WorkRequests.SIGNALED | (fence ? WorkRequests.FENCE : 0);
        long id = wrId(h, true);
        single.clear();
        switch (op) {
            case READ -> single.addRead(id, local, length, lkey, address, rkey, flags);
            case WRITE -> single.addWrite(id, local, length, lkey, address, rkey, flags);
            case COMPARE_AND_SWAP -> single.addCompareAndSwap(id, local, lkey, address, rkey, operand, swap, flags);
            case FETCH_AND_ADD -> single.addFetchAndAdd(id, local, lkey, address, rkey, operand, flags);
        }
        return post(qp, single, h, node, lane);
    }

    OpSlot postBatch(WorkRequests requests, int node, long firstAddress) {
        requireOpen();
        int lane = lane(firstAddress);
        QueuePair qp = queuePair(node, lane);
        OpSlot h = acquire();
        int n = requests.size();
        for (int i = 0; i < n; i++) {
            boolean last = i == n - 1;
            requests.wrId(i, wrId(h, last));
            int f = requests.flags(i) & ~WorkRequests.SIGNALED;
            requests.flags(i, last ? f | WorkRequests.SIGNALED : f);
        }
        return post(qp, requests, h, node, lane);
    }

    private OpSlot post(QueuePair qp, WorkRequests requests, OpSlot h, int node, int lane) {
        h.node = node;
        h.lane = lane;
        outstanding[node][lane]++;
        try {
            qp.post(requests);
        } catch (RuntimeException e) {
            outstanding[node][lane]--;
            release(h);
            throw e;
        }
        for (int i = 0, n = requests.size(); i < n; i++) {
            Opcode op = requests.opcode(i);
            posted[op.ordinal()]++;
            if (op == Opcode.READ) {
                bytesRead += requests.length(i);
            } else if (op == Opcode.WRITE) {
                bytesWritten += requests.length(i);
            }
        }
        postedAt[h.slot] = ++postSequence;
        return h;
    }

    private int lane(long address) {
        if (lanes == 1) {
            return 0;
        }
        if (lanePolicy == LanePolicy.BY_ADDRESS) {
            return (int) ((address >>> 3) % lanes);
        }
        int l = nextLane;
        nextLane = l + 1 == lanes ? 0 : l + 1;
        return l;
    }

    private QueuePair queuePair(int node, int lane) {
        QueuePair[] qs = queuePairs[node];
        if (qs == null) {
            qs = new QueuePair[lanes];
            queuePairs[node] = qs;
            outstanding[node] = new int[lanes];
        }
        QueuePair qp = qs[lane];
        if (qp == null) {
            qp = fabricNode.connect(node, plane, cq, sendQueueDepth, config.operationTimeout());
            qs[lane] = qp;
            checkIncarnation(qp, node);
        }
        if (qp.inError()) {
            recover(qp, node, lane);
            checkIncarnation(qp, node);
        }
        return qp;
    }

    /**
     * Keeps the incarnation a queue pair to {@code node} reached, the first time; after that, a different one
     * means the node restarted: what this thread kept of its regions, and what its allocator held of the node's heap,
     * is dropped and the operation fails.
     *
     * @throws PeerRestartedException when the queue pair reached another incarnation than this thread knew
     */
    private void checkIncarnation(QueuePair qp, int node) {
        long now = qp.peerIncarnation();
        long known = incarnations[node];
        if (known == 0 || now == 0) {
            incarnations[node] = now;
            return;
        }
        if (now != known) {
            incarnations[node] = now;
            REPUBLISHING.setVolatile(republishing, node, true);
            REGIONS.setRelease(regions, node, null);
            if (allocator != null) {
                allocator.forgetNode(node);
            }
            throw new PeerRestartedException(node, known, now);
        }
    }

    private void recover(QueuePair qp, int node, int lane) {
        long deadline = ThreadTime.nanoTime() + timeoutNanos;
        while (outstanding[node][lane] > 0) {
            if (progress() == 0) {
                if (ThreadTime.nanoTime() - deadline > 0) {
                    throw new RemoteTimeoutException("queue pair to node " + node + " is in error and its "
                            + outstanding[node][lane] + " outstanding operations did not drain within "
                            + config.operationTimeout());
                }
                ThreadTime.onSpinWait();
            }
        }
        qp.reset();
    }

    int progress() {
        int n = cq.poll(completions);
        for (int i = 0; i < n; i++) {
            complete(completions.wrId(i), completions.status(i));
        }
        return n;
    }

    private void complete(long id, CompletionStatus result) {
        int slot = (int) ((id >>> 1) & 0x7FFF_FFFF);
        if (slot >= handles.length) {
            return;
        }
        OpSlot h = handles[slot];
        if (h.generation != (int) (id >>> 32) || (h.state != OpSlot.State.PENDING && h.state != OpSlot.State.ABANDONED)) {
            return;
        }
        if (result != CompletionStatus.SUCCESS && h.status == CompletionStatus.SUCCESS) {
            h.status = result;
        }
        if ((id & 1) == 0) {
            return;
        }
        outstanding[h.node][h.lane]--;
        if (h.state == OpSlot.State.ABANDONED) {
            release(h);
        } else {
            h.state = OpSlot.State.DONE;
        }
    }

    long await(OpSlot h) {
        if (postedAt[h.slot] > waitMark) {
            roundTrips++;
            waitMark = postSequence;
        }
        long deadline = 0;
        int idle = 0;
        while (h.state == OpSlot.State.PENDING) {
            if (progress() > 0) {
                continue;
            }
            idle++;
            if (idle == 1) {
                deadline = ThreadTime.nanoTime() + timeoutNanos;
            } else if ((idle & 0xFF) == 0) {
                if (ThreadTime.nanoTime() - deadline > 0) {
                    h.state = OpSlot.State.ABANDONED;
                    throw new RemoteTimeoutException("operation on node " + h.node + " did not complete within "
                            + config.operationTimeout());
                }
                ThreadTime.yield();
            } else {
                ThreadTime.onSpinWait("a completion");
            }
        }
        CompletionStatus result = h.status;
        long value = h.hasLocalValue ? h.localValue
                : h.resultOffset >= 0 ? memory.get(ValueLayout.JAVA_LONG, h.resultOffset) : 0;
        int node = h.node;
        release(h);
        if (result != CompletionStatus.SUCCESS) {
            throw failure(result, node);
        }
        return value;
    }

    private static RemoteOperationException failure(CompletionStatus result, int node) {
        return switch (result) {
            case REMOTE_ACCESS_ERROR, REMOTE_INVALID_REQUEST ->
                    new RemoteAccessException(result, node, "remote access refused");
            case RETRY_EXCEEDED -> new PeerUnreachableException(result, node, "peer stopped answering");
            default -> new RemoteOperationException(result, node, "remote operation failed");
        };
    }

    /**
     * This thread's remote allocator, created on first use: the one a thread should allocate and
     * free with, so that its caches live as long as the thread and {@link #close()} hands them back
     * to the memory nodes' shared pools (see {@link RemoteAllocator}).
     *
     * @return the allocator, the same one on every call
     * @throws ThreadConfinementException when called from another thread than the owner
     * @throws IllegalStateException      when the thread is closed
     */
    public RemoteAllocator allocator() {
        confined();
        if (allocator == null) {
            allocator = new RemoteAllocator(this);
        }
        return allocator;
    }

    /**
     * Closes {@link #allocator()} (when it was used), which hands its cached and reserved blocks back to
     * the memory nodes' pools, waits (bounded) for operations still in flight, then releases the thread's QPs, CQ and
     * buffer. When a pool cannot be reached the cached blocks stay out of use, at most
     * {@link RemoteAllocator}'s documented cache and run bounds, and the thread still closes.
     *
     * <p>Idempotent and safe to race: one compare-and-set picks the call that closes; any other call,
     * concurrent or later, returns at once. The closing call runs on the owner, or on any thread when
     * no Java thread has used this one yet or its owner has ended (it then becomes the owner by
     * compare-and-set, so no operation can start on another thread meanwhile). A call from another
     * thread while the owner is alive is refused with {@link ThreadConfinementException} and changes
     * nothing: close on the owner, or after joining it. Afterwards every operation, on the remote and
     * on the local (CPU) path alike, throws {@link ClosedComputeThreadException} before it touches
     * memory or the fabric (a Java thread other than the owner gets
     * {@link ThreadConfinementException}).
     *
     * @throws ThreadConfinementException when called from another thread while the owner is alive
     */
    @Override
    public void close() {
        if (!CLOSE_STATE.compareAndSet(this, OPEN, CLOSING)) {
            return;
        }
        try {
            claimForClose();
        } catch (ThreadConfinementException e) {
            CLOSE_STATE.setVolatile(this, OPEN);
            throw e;
        }
        if (allocator != null) {
            try {
                allocator.close();
            } catch (RemusException e) {
                // A peer gone or a pool corrupted: the cached and reserved blocks stay out of use (at most
                // RemoteAllocator's documented bounds), and the thread still closes.
            }
        }
        closed = true;
        long deadline = ThreadTime.nanoTime() + timeoutNanos;
        while (freeCount < handles.length && ThreadTime.nanoTime() - deadline < 0) {
            if (progress() == 0) {
                ThreadTime.parkNanos(null, TimeUnit.MICROSECONDS.toNanos(50));
            }
            if (freeCount + countDone() == handles.length) {
                break;
            }
        }
        for (QueuePair[] qs : queuePairs) {
            if (qs != null) {
                for (QueuePair qp : qs) {
                    if (qp != null) {
                        qp.close();
                    }
                }
            }
        }
        cq.close();
        registered.close();
    }

    private int countDone() {
        int done = 0;
        for (OpSlot h : handles) {
            if (h.state == OpSlot.State.DONE) {
                done++;
            }
        }
        return done;
    }
}
