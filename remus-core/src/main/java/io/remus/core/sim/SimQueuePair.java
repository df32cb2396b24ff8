package io.remus.core.sim;

import io.remus.core.time.ThreadTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.WorkRequests;


/**
 * A simulated RC queue pair: a ring of posted work requests executed in order, by the posting or
 * polling thread, once due. An error completion puts it in the error state and flushes the rest.
 * SEND and WRITE_WITH_IMMEDIATE consume a receive of the peer's receive queue as it was when this
 * queue pair was connected (none when the peer had not created one yet: verbs attaches a queue
 * pair to a shared receive queue when it creates it); with no receive posted they try again after the
 * options' receiver-not-ready timer, {@link SimOptions#rnrRetries()} times, holding up the queue pair's later
 * requests as verbs' RNR NAKs do, and then fail with {@code RECEIVER_NOT_READY}.
 * The fabric's {@link SimCostModel} sets, on posting, when each request executes and how long after
 * its execution its completion becomes pollable; NIC atomics reserve their word's atomic unit on the
 * target node then. With {@link SimOptions#reorderWrites()}, a WRITE followed by another WRITE of the same
 * post is applied after it, {@link SimOptions#REORDER_WINDOW_NANOS} later.
 */
final class SimQueuePair implements QueuePair {
    private final SimNode local;
    /** The peer's incarnation this queue pair reaches: the open node of its id at connect or at the last reset that found one. */
    private SimNode target;
    /** The plane this queue pair connected on, which the target's access switch keys by. */
    private final int plane;
    private final SimCompletionQueue cq;
    private SimReceiveQueue receiver;
    private final SimOptions options;
    private final SimCostModel cost;
    private final boolean costFree;
    private final SimFabric fabric;
    private final Opcode[] opcode;
    private final long[] wrId;
    private final long[] localAddress;
    private final int[] length;
    private final int[] lkey;
    private final long[] remoteAddress;
    private final int[] rkey;
    private final long[] operand;
    private final long[] swap;
    private final int[] flags;
    private final long[] dueNanos;
    private final long[] returnNanos;
    /** Receiver-not-ready retries a message starts with ({@link Integer#MAX_VALUE}: forever). */
    private final int rnrRetries;
    /** Receiver-not-ready retries each slot's message has left; fewer than {@link #rnrRetries} once it waits to retry. */
    private final int[] rnrLeft;
    /** Per slot: posted by the same {@link #post} call as the slot before it. */
    private final boolean[] sameDoorbell;
    /** Per slot: applied early, ahead of the WRITE before it ({@link SimOptions#reorderWrites()}); its outcome. */
    private final CompletionStatus[] appliedEarly;
    private int head;
    private int count;
    private boolean error;
    private volatile boolean closed;

    SimQueuePair(SimNode local, SimNode target, int plane, SimCompletionQueue cq, int depth) {
        if (depth <= 0) {
            throw new BadArgumentException("send queue depth must be positive, got " + depth);
        }
        this.local = local;
        this.target = target;
        this.plane = plane;
        this.cq = cq;
        this.receiver = target.receiveQueue();
        this.options = local.options();
        this.cost = options.costModel();
        this.costFree = cost.isFree();
        this.fabric = local.fabric();
        opcode = new Opcode[depth];
        wrId = new long[depth];
        localAddress = new long[depth];
        length = new int[depth];
        lkey = new int[depth];
        remoteAddress = new long[depth];
        rkey = new int[depth];
        operand = new long[depth];
        swap = new long[depth];
        flags = new int[depth];
        dueNanos = new long[depth];
        returnNanos = new long[depth];
        rnrLeft = new int[depth];
        sameDoorbell = new boolean[depth];
        appliedEarly = new CompletionStatus[depth];
        rnrRetries = options.rnrRetries() == SimOptions.RNR_RETRY_FOREVER ? Integer.MAX_VALUE : options.rnrRetries();
    }

    @Override
    public int peerNodeId() {
        return target.nodeId();
    }

    @Override
    public long peerIncarnation() {
        return target.incarnation();
    }

    @Override
    public int sendQueueDepth() {
        return opcode.length;
    }

    @Override
    public void post(WorkRequests requests) {
        int n = requests.size();
        WorkRequests.requirePostable(target.nodeId(), closed, count, n, opcode.length);
        VirtualTimeScheduler.onPost();
        long now = ThreadTime.nanoTime();
        long due = now + options.executionLatencyNanos();
        for (int k = 0; k < n; k++) {
            int i = (head + count) % opcode.length;
            opcode[i] = requests.opcode(k);
            wrId[i] = requests.wrId(k);
            localAddress[i] = requests.localAddress(k);
            length[i] = requests.length(k);
            lkey[i] = requests.lkey(k);
            remoteAddress[i] = requests.remoteAddress(k);
            rkey[i] = requests.rkey(k);
            operand[i] = requests.compareOrAdd(k);
            swap[i] = requests.swap(k);
            flags[i] = requests.flags(k);
            rnrLeft[i] = rnrRetries;
            sameDoorbell[i] = k > 0;
            appliedEarly[i] = null;
            if (costFree) {
                dueNanos[i] = due;
            } else {
                charge(i, due);
            }
            count++;
        }
        progress(now);
    }

    /** Sets slot {@code i}'s execution time and return leg by the cost model, for a request sent at {@code sent}. */
    private void charge(int i, long sent) {
        Opcode op = opcode[i];
        long arrival = sent + cost.outboundNanos(op, length[i]);
        if (cost.nicRequestPicos() > 0) {
            arrival = target.reserveNic(arrival, cost.nicBusyPicos(length[i]));
        }
        if ((op == Opcode.COMPARE_AND_SWAP || op == Opcode.FETCH_AND_ADD) && (remoteAddress[i] & 7) == 0) {
            if (cost.nicAtomicPicos() > 0) {
                arrival = target.reserveAtomicEngine(arrival, cost.nicAtomicPicos());
            }
            if (cost.atomicUnitNanos() > 0) {
                arrival = target.reserveAtomicUnit(remoteAddress[i], arrival, cost.atomicUnitNanos());
            }
        }
        dueNanos[i] = arrival;
        returnNanos[i] = cost.returnNanos(op, length[i]);
    }

    void progress(long now) {
        while (count > 0) {
            int i = head;
            CompletionStatus result;
            if (error) {
                result = CompletionStatus.FLUSHED;
            } else if (dueNanos[i] - now > 0) {
                return;
            } else if (!reachable()) {
                if (now - dueNanos[i] < options.transportTimeoutNanos()) {
                    return;
                }
                result = CompletionStatus.RETRY_EXCEEDED;
            } else if (target.consumeInjectedFailure()) {
                result = CompletionStatus.REMOTE_OPERATION_ERROR;
            } else if (appliedEarly[i] != null) {
                result = appliedEarly[i];
                appliedEarly[i] = null;
            } else {
                if (options.reorderWrites()) {
                    applyLaterWriteFirst(i, now);
                }
                if (rnrLeft[i] == rnrRetries) {
                    fabric.beforeApply(opcode[i]);
                }
                result = execute(i, now);
                if (result == CompletionStatus.RECEIVER_NOT_READY && rnrLeft[i] > 0 && options.rnrTimerNanos() > 0) {
                    rnrLeft[i]--;
                    dueNanos[i] = now + options.rnrTimerNanos();
                    return;
                }
            }
            if (result != CompletionStatus.SUCCESS) {
                error = true;
            }
            if (result != CompletionStatus.SUCCESS || (flags[i] & WorkRequests.SIGNALED) != 0) {
                cq.add(wrId[i], opcode[i], result, now + returnNanos[i] + options.completionDelayNanos());
            }
            opcode[i] = null;
            returnNanos[i] = 0;
            head = (head + 1) % opcode.length;
            count--;
        }
    }

    /**
     * {@return the earliest time at which {@link #progress} can change anything: the oldest request's execution time
     *          (after the transport timeout when its target does not answer), {@link Long#MAX_VALUE} when none is
     *          posted, {@code now} when an error flushes the rest at once}
     *
     * @param now the current time
     */
    long nextEventNanos(long now) {
        if (count == 0) {
            return Long.MAX_VALUE;
        }
        if (error || appliedEarly[head] != null) {
            return now;
        }
        long due = dueNanos[head];
        return reachable() ? due : Math.max(due, due + options.transportTimeoutNanos());
    }

    /** {@return whether the target answers and no partition cuts the link to it ({@link SimFabric#partition})} */
    private boolean reachable() {
        return target.answering() && !fabric.cut(local.nodeId(), target.nodeId());
    }

    /**
     * With {@link SimOptions#reorderWrites()}: where the WRITE at slot {@code i} is followed by a due WRITE of the
     * same post, applies that one now and pauses {@link SimOptions#REORDER_WINDOW_NANOS} before slot {@code i} is.
     */
    private void applyLaterWriteFirst(int i, long now) {
        int j = (i + 1) % opcode.length;
        if (count < 2 || opcode[i] != Opcode.WRITE || opcode[j] != Opcode.WRITE || !sameDoorbell[j]
                || appliedEarly[j] != null || dueNanos[j] - now > 0) {
            return;
        }
        fabric.beforeApply(opcode[j]);
        appliedEarly[j] = execute(j, now);
        ThreadTime.parkNanos(null, SimOptions.REORDER_WINDOW_NANOS);
    }

    private CompletionStatus execute(int i, long now) {
        int len = length[i];
        SimRegion mine = local.findByLkey(lkey[i], localAddress[i], len);
        if (mine == null) {
            return CompletionStatus.LOCAL_PROTECTION_ERROR;
        }
        if (opcode[i] == Opcode.SEND || opcode[i] == Opcode.WRITE_WITH_IMMEDIATE) {
            if (receiver == null) {
                return CompletionStatus.RECEIVER_NOT_READY;
            }
            long ready = now + options.completionDelayNanos();
            try {
                return opcode[i] == Opcode.SEND
                        ? receiver.send(mine.segment(), localAddress[i] - mine.address(), len, ready)
                        : receiver.writeWithImmediate(this, i, mine, len, (int) operand[i], ready);
            } catch (IllegalStateException deregisteredMeanwhile) {
                return CompletionStatus.LOCAL_PROTECTION_ERROR;
            }
        }
        if (opcode[i] == Opcode.READ) {
            return apply(i, mine);
        }
        if (!target.beginWrite(local.nodeId(), plane)) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        try {
            return apply(i, mine);
        } finally {
            target.endWrite();
        }
    }

    /** Executes the READ, WRITE or atomic at slot {@code i} against the target's memory, its local buffer in {@code mine}. */
    private CompletionStatus apply(int i, SimRegion mine) {
        int len = length[i];
        SimRegion theirs = target.findByRkey(rkey[i], remoteAddress[i], len);
        if (theirs == null) {
            return gone();
        }
        long localOffset = localAddress[i] - mine.address();
        long remoteOffset = remoteAddress[i] - theirs.address();
        try {
            switch (opcode[i]) {
                case READ -> SimMemory.copy(theirs.segment(), remoteOffset, mine.segment(), localOffset, len,
                        options.yieldWhileTearing(), false, options.tearReads());
                case WRITE -> SimMemory.copy(mine.segment(), localOffset, theirs.segment(), remoteOffset, len,
                        options.yieldWhileTearing(), options.tearWords());
                case COMPARE_AND_SWAP, FETCH_AND_ADD -> {
                    if ((remoteAddress[i] & 7) != 0 || len != 8) {
                        return CompletionStatus.REMOTE_INVALID_REQUEST;
                    }
                    long old = SimMemory.nicAtomic(target.nicAtomicLock(), theirs.segment(), remoteOffset,
                            opcode[i] == Opcode.FETCH_AND_ADD, operand[i], swap[i], options.yieldInsideNicAtomics());
                    if (options.poisonFreedBlocks() && opcode[i] == Opcode.COMPARE_AND_SWAP && old == operand[i]) {
                        SimMemory.poisonIfFreed(theirs.segment(), remoteOffset, target.nodeId(), remoteAddress[i], old, swap[i]);
                    }
                    SimMemory.storeResult(mine.segment(), localOffset, old);
                }
                default -> {
                    return CompletionStatus.REMOTE_INVALID_REQUEST;
                }
            }
        } catch (IllegalStateException deregisteredMeanwhile) {
            return gone();
        }
        return CompletionStatus.SUCCESS;
    }

    /**
     * The outcome of a request whose target region is not (or no longer) registered: {@code RETRY_EXCEEDED} when the
     * target crashed or closed meanwhile (the dead node never answers it), {@code REMOTE_ACCESS_ERROR} when the
     * region alone is missing or was deregistered.
     */
    private CompletionStatus gone() {
        return target.isClosed() ? CompletionStatus.RETRY_EXCEEDED : CompletionStatus.REMOTE_ACCESS_ERROR;
    }

    /** The WRITE part of the WRITE_WITH_IMMEDIATE at ring slot {@code i}, its local buffer in {@code mine}. */
    CompletionStatus write(int i, SimRegion mine) {
        if (!target.beginWrite(local.nodeId(), plane)) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        }
        try {
            return writeAllowed(i, mine);
        } finally {
            target.endWrite();
        }
    }

    private CompletionStatus writeAllowed(int i, SimRegion mine) {
        SimRegion theirs = target.findByRkey(rkey[i], remoteAddress[i], length[i]);
        if (theirs == null) {
            return gone();
        }
        try {
            SimMemory.copy(mine.segment(), localAddress[i] - mine.address(), theirs.segment(),
                    remoteAddress[i] - theirs.address(), length[i], options.yieldWhileTearing(), options.tearWords());
        } catch (IllegalStateException deregisteredMeanwhile) {
            return gone();
        }
        return CompletionStatus.SUCCESS;
    }

    @Override
    public boolean inError() {
        return error;
    }

    @Override
    public void reset() {
        progress(ThreadTime.nanoTime());
        error = false;
        if (target.isClosed()) {
            SimNode reopened = fabric.openNode(target.nodeId());
            if (reopened != null && reopened != target && count == 0) {
                target = reopened;
                receiver = reopened.receiveQueue();
                reopened.accepted(this);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    /** {@return the receive queue of the target that this queue pair's messages consume, or null} */
    SimReceiveQueue receiver() {
        return receiver;
    }

    /** {@return whether {@link #close} was called} */
    boolean isClosed() {
        return closed;
    }
}
