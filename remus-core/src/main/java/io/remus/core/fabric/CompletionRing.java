package io.remus.core.fabric;

import io.remus.core.error.CompletionStatus;
import io.remus.core.error.ResourceInUseException;

/**
 * A bounded first-in first-out ring of completions that a fabric implementation keeps until a
 * {@link CompletionQueue#poll(Completions)} hands them out (for fabric implementations). Each entry
 * holds a wr_id, an opcode and a status; a ring made by {@link #withReceiveFields(int)} also holds a
 * receive completion's byte length and immediate, and one made by {@link #timed(int)} the time from
 * which the entry may be handed out. Adding and draining allocate nothing. One owning thread.
 */
public final class CompletionRing {
    private final long[] wrId;
    private final Opcode[] opcode;
    private final CompletionStatus[] status;
    /** Null unless the ring holds receive fields. */
    private final int[] byteLength;
    private final int[] immediate;
    private final boolean[] withImmediate;
    /** Null unless the ring is timed. */
    private final long[] readyNanos;
    private int head;
    private int count;

    private CompletionRing(int capacity, boolean receiveFields, boolean timed) {
        wrId = new long[capacity];
        opcode = new Opcode[capacity];
        status = new CompletionStatus[capacity];
        byteLength = receiveFields ? new int[capacity] : null;
        immediate = receiveFields ? new int[capacity] : null;
        withImmediate = receiveFields ? new boolean[capacity] : null;
        readyNanos = timed ? new long[capacity] : null;
    }

    /**
     * {@return an empty ring of {@code capacity} entries of wr_id, opcode and status}
     *
     * @param capacity the most entries it holds; positive (the caller checks it)
     */
    public static CompletionRing plain(int capacity) {
        return new CompletionRing(capacity, false, false);
    }

    /**
     * {@return an empty ring of {@code capacity} entries that also carry a receive completion's byte
     * length and immediate}
     *
     * @param capacity the most entries it holds; positive (the caller checks it)
     */
    public static CompletionRing withReceiveFields(int capacity) {
        return new CompletionRing(capacity, true, false);
    }

    /**
     * {@return an empty ring of {@code capacity} entries, each handed out only from its ready time
     * ({@link #add(long, Opcode, CompletionStatus, long)}, {@link #drainReady})}
     *
     * @param capacity the most entries it holds; positive (the caller checks it)
     */
    public static CompletionRing timed(int capacity) {
        return new CompletionRing(capacity, false, true);
    }

    /** {@return the most entries it holds} */
    public int capacity() {
        return wrId.length;
    }

    /** {@return how many entries it holds} */
    public int size() {
        return count;
    }

    /** {@return whether it holds {@link #capacity()} entries: the caller reports the overrun before adding} */
    public boolean isFull() {
        return count == wrId.length;
    }

    /**
     * Appends a completion. The caller checks {@link #isFull()} first.
     *
     * @param id     the wr_id
     * @param op     the opcode
     * @param result the status
     */
    public void add(long id, Opcode op, CompletionStatus result) {
        int i = put(id, op, result);
        if (byteLength != null) {
            byteLength[i] = 0;
            immediate[i] = 0;
            withImmediate[i] = false;
        }
    }

    /**
     * Appends a completion of a {@link #timed(int)} ring, handed out from {@code ready} on. The caller
     * checks {@link #isFull()} first.
     *
     * @param id     the wr_id
     * @param op     the opcode
     * @param result the status
     * @param ready  the {@link System#nanoTime()} from which {@link #drainReady} hands it out
     */
    public void add(long id, Opcode op, CompletionStatus result, long ready) {
        readyNanos[put(id, op, result)] = ready;
    }

    /**
     * Appends a completion with a receive completion's fields to a {@link #withReceiveFields(int)} ring.
     * The caller checks {@link #isFull()} first.
     *
     * @param id     the wr_id
     * @param op     the opcode
     * @param result the status
     * @param length the bytes received
     * @param imm    the immediate, when {@code hasImm}
     * @param hasImm whether the message carried an immediate
     */
    public void add(long id, Opcode op, CompletionStatus result, int length, int imm, boolean hasImm) {
        int i = put(id, op, result);
        byteLength[i] = length;
        immediate[i] = imm;
        withImmediate[i] = hasImm;
    }

    /**
     * Moves entries, oldest first, into {@code out} from index {@code n} on, while any remain and
     * {@code out} has room.
     *
     * @param out the array a poll fills
     * @param n   how many completions {@code out} already holds
     * @return how many it holds now
     */
    public int drain(Completions out, int n) {
        int max = out.capacity();
        while (count > 0 && n < max) {
            if (byteLength == null) {
                out.set(n++, wrId[head], opcode[head], status[head]);
            } else {
                out.set(n++, wrId[head], opcode[head], status[head], byteLength[head], immediate[head],
                        withImmediate[head]);
            }
            removeHead();
        }
        return n;
    }

    /**
     * Moves the entries of a {@link #timed(int)} ring that are ready at {@code now}, oldest first, into
     * {@code out} from index {@code n} on; stops at the first entry not ready yet or when {@code out} is full.
     *
     * @param out the array a poll fills
     * @param n   how many completions {@code out} already holds
     * @param now the current {@link System#nanoTime()}
     * @return how many it holds now
     */
    public int drainReady(Completions out, int n, long now) {
        int max = out.capacity();
        while (count > 0 && n < max && readyNanos[head] - now <= 0) {
            out.set(n++, wrId[head], opcode[head], status[head]);
            removeHead();
        }
        return n;
    }

    /**
     * {@return when the oldest entry of a {@link #timed(int)} ring becomes ready, {@link Long#MAX_VALUE} when it holds
     *          none} Nothing of the ring becomes ready before then.
     */
    public long headReadyNanos() {
        return count == 0 ? Long.MAX_VALUE : readyNanos[head];
    }

    /**
     * {@return the refusal of a completion queue's close while others still deliver into it} As verbs
     * answers {@code EBUSY}: queue pairs created with it are open, or, when it serves the node's receive
     * queue, peers connected to the node after the receive queue existed (their serving queue pairs
     * deliver into it until the node closes).
     *
     * @param nodeId            the queue's node
     * @param openQueuePairs    how many queue pairs created with it are open
     * @param servedConnections how many connections of peers deliver into it through the receive queue
     */
    public static ResourceInUseException closeRefused(int nodeId, long openQueuePairs, long servedConnections) {
        return new ResourceInUseException("completion queue of node " + nodeId + " cannot close: " + openQueuePairs
                + " queue pair(s) created with it are open, and " + servedConnections + " connection(s) of peers to the"
                + " node's receive queue deliver into it until the node closes; close them first");
    }

    private int put(long id, Opcode op, CompletionStatus result) {
        int i = (head + count) % wrId.length;
        wrId[i] = id;
        opcode[i] = op;
        status[i] = result;
        count++;
        return i;
    }

    private void removeHead() {
        status[head] = null;
        head = head + 1 == wrId.length ? 0 : head + 1;
        count--;
    }
}
