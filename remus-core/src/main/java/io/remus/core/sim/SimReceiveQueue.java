package io.remus.core.sim;

import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.Opcode;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.ReceiveRequests;

import java.lang.foreign.MemorySegment;

/**
 * A simulated receive queue: a ring of posted receive buffers that the simulated NIC, running on a
 * sender's thread, consumes oldest first, and a ring of the receive completions it produced, which
 * the owner's completion queue hands out. Both rings are guarded by this object's lock (senders and
 * the owner meet here); a receive holds its place until its completion is polled.
 */
final class SimReceiveQueue implements ReceiveQueue {
    /** The completion queue it delivers into, once attached. */
    private volatile SimCompletionQueue cq;
    private final SimNode node;
    private final long[] postedId;
    private final long[] postedAddress;
    private final int[] postedLength;
    private final int[] postedLkey;
    private final long[] doneId;
    private final Opcode[] doneOp;
    private final CompletionStatus[] doneStatus;
    private final int[] doneLength;
    private final int[] doneImmediate;
    private final long[] doneReady;
    private int postedHead;
    private int postedCount;
    private int doneHead;
    private int doneCount;

    SimReceiveQueue(SimNode node, int depth) {
        this.node = node;
        postedId = new long[depth];
        postedAddress = new long[depth];
        postedLength = new int[depth];
        postedLkey = new int[depth];
        doneId = new long[depth];
        doneOp = new Opcode[depth];
        doneStatus = new CompletionStatus[depth];
        doneLength = new int[depth];
        doneImmediate = new int[depth];
        doneReady = new long[depth];
    }

    @Override
    public synchronized void post(ReceiveRequests requests) {
        int n = requests.size();
        ReceiveRequests.requireRoom(node.nodeId(), postedCount + doneCount, n, postedId.length);
        for (int k = 0; k < n; k++) {
            if (node.findByLkey(requests.lkey(k), requests.address(k), requests.length(k)) == null) {
                throw requests.notCovered(k, node.nodeId());
            }
        }
        for (int k = 0; k < n; k++) {
            int i = (postedHead + postedCount) % postedId.length;
            postedId[i] = requests.wrId(k);
            postedAddress[i] = requests.address(k);
            postedLength[i] = requests.length(k);
            postedLkey[i] = requests.lkey(k);
            postedCount++;
        }
    }

    @Override
    public int depth() {
        return postedId.length;
    }

    @Override
    public synchronized int outstanding() {
        return postedCount + doneCount;
    }

    /**
     * Executes a SEND of {@code length} bytes of {@code source} from {@code offset} against the
     * oldest posted receive.
     *
     * @return the sender's completion status
     */
    synchronized CompletionStatus send(MemorySegment source, long offset, int length, long ready) {
        if (postedCount == 0) {
            return CompletionStatus.RECEIVER_NOT_READY;
        }
        int i = postedHead;
        postedHead = (postedHead + 1) % postedId.length;
        postedCount--;
        if (length > postedLength[i]) {
            complete(postedId[i], Opcode.RECEIVE, CompletionStatus.LOCAL_LENGTH_ERROR, 0, 0, ready);
            return CompletionStatus.REMOTE_INVALID_REQUEST;
        }
        SimRegion buffer = node.findByLkey(postedLkey[i], postedAddress[i], postedLength[i]);
        if (buffer == null) {
            complete(postedId[i], Opcode.RECEIVE, CompletionStatus.LOCAL_PROTECTION_ERROR, 0, 0, ready);
            return CompletionStatus.REMOTE_OPERATION_ERROR;
        }
        try {
            MemorySegment.copy(source, offset, buffer.segment(), postedAddress[i] - buffer.address(), length);
        } catch (IllegalStateException deregisteredMeanwhile) {
            complete(postedId[i], Opcode.RECEIVE, CompletionStatus.LOCAL_PROTECTION_ERROR, 0, 0, ready);
            return CompletionStatus.REMOTE_OPERATION_ERROR;
        }
        complete(postedId[i], Opcode.RECEIVE, CompletionStatus.SUCCESS, length, 0, ready);
        return CompletionStatus.SUCCESS;
    }

    /**
     * Executes an RDMA WRITE with immediate: checks that a receive is posted, runs the WRITE of
     * {@code qp}'s ring slot {@code slot}, and on its success consumes the oldest receive with {@code immediate}.
     *
     * @return the sender's completion status
     */
    synchronized CompletionStatus writeWithImmediate(SimQueuePair qp, int slot, SimRegion local, int length,
                                                     int immediate, long ready) {
        if (postedCount == 0) {
            return CompletionStatus.RECEIVER_NOT_READY;
        }
        CompletionStatus written = qp.write(slot, local);
        if (written != CompletionStatus.SUCCESS) {
            return written;
        }
        int i = postedHead;
        postedHead = (postedHead + 1) % postedId.length;
        postedCount--;
        complete(postedId[i], Opcode.RECEIVE_WITH_IMMEDIATE, CompletionStatus.SUCCESS, length, immediate, ready);
        return CompletionStatus.SUCCESS;
    }

    private void complete(long id, Opcode op, CompletionStatus status, int length, int immediate, long ready) {
        int i = (doneHead + doneCount) % doneId.length;
        doneId[i] = id;
        doneOp[i] = op;
        doneStatus[i] = status;
        doneLength[i] = length;
        doneImmediate[i] = immediate;
        doneReady[i] = ready;
        doneCount++;
        SimCompletionQueue queue = cq;
        if (queue != null) {
            queue.delivered();
        }
    }

    /** {@return when the oldest receive completion becomes ready, {@link Long#MAX_VALUE} when none is held} */
    synchronized long headReadyNanos() {
        return doneCount == 0 ? Long.MAX_VALUE : doneReady[doneHead];
    }

    /** The completion queue this queue delivers into, told of every receive completion. */
    void deliversTo(SimCompletionQueue queue) {
        cq = queue;
    }

    /**
     * Moves ready receive completions into {@code out} from index {@code from}.
     *
     * @return the index after the last one stored
     */
    synchronized int drain(Completions out, int from, long now) {
        int n = from;
        int max = out.capacity();
        while (doneCount > 0 && n < max && doneReady[doneHead] - now <= 0) {
            Opcode op = doneOp[doneHead];
            out.set(n++, doneId[doneHead], op, doneStatus[doneHead], doneLength[doneHead], doneImmediate[doneHead],
                    op == Opcode.RECEIVE_WITH_IMMEDIATE && doneStatus[doneHead] == CompletionStatus.SUCCESS);
            doneStatus[doneHead] = null;
            doneOp[doneHead] = null;
            doneHead = (doneHead + 1) % doneId.length;
            doneCount--;
        }
        return n;
    }
}
