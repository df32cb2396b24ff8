package io.remus.core.fabric;

import io.remus.core.BadArgumentException;

/**
 * A reusable array of work completions that {@link CompletionQueue#poll(Completions)} fills (like
 * the {@code ibv_wc} array of {@code ibv_poll_cq}). Stored as parallel arrays; allocation-free.
 */
public final class Completions {
    private final long[] wrId;
    private final CompletionStatus[] status;
    private final Opcode[] opcode;

    /** @param capacity the most completions one poll returns, positive */
    public Completions(int capacity) {
        if (capacity <= 0) {
            throw new BadArgumentException("completion array capacity must be positive, got " + capacity);
        }
        wrId = new long[capacity];
        status = new CompletionStatus[capacity];
        opcode = new Opcode[capacity];
    }

    /** @return the most completions one poll returns */
    public int capacity() {
        return wrId.length;
    }

    /**
     * Stores completion {@code i} (for fabric implementations).
     *
     * @param i      index below {@link #capacity()}
     * @param id     the work request's wr_id
     * @param op     its opcode
     * @param result its status
     */
    public void set(int i, long id, Opcode op, CompletionStatus result) {
        wrId[i] = id;
        opcode[i] = op;
        status[i] = result;
    }

    /** @param i an index below the poll's count @return the completion's wr_id */
    public long wrId(int i) {
        return wrId[i];
    }

    /** @param i an index @return the completion's status */
    public CompletionStatus status(int i) {
        return status[i];
    }

    /** @param i an index @return the completed request's opcode */
    public Opcode opcode(int i) {
        return opcode[i];
    }
}
