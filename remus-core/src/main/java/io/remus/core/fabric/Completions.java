package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CompletionStatus;

/**
 * A reusable array of work completions that {@link CompletionQueue#poll(Completions)} fills (like
 * the {@code ibv_wc} array of {@code ibv_poll_cq}). Stored as parallel arrays; allocation-free.
 */
public final class Completions {
    private final long[] wrId;
    private final CompletionStatus[] status;
    private final Opcode[] opcode;
    private final int[] byteLength;
    private final int[] immediate;
    private final boolean[] withImmediate;

    /**
     * Creates an empty array of {@code capacity} completions.
     *
     * @param capacity the most completions one poll returns, positive
     */
    public Completions(int capacity) {
        if (capacity <= 0) {
            throw new BadArgumentException("completion array capacity must be positive, got " + capacity);
        }
        wrId = new long[capacity];
        status = new CompletionStatus[capacity];
        opcode = new Opcode[capacity];
        byteLength = new int[capacity];
        immediate = new int[capacity];
        withImmediate = new boolean[capacity];
    }

    /** {@return the most completions one poll returns} */
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
        set(i, id, op, result, 0, 0, false);
    }

    /**
     * Stores completion {@code i} with the fields a receive completion carries (for fabric
     * implementations).
     *
     * @param i          index below {@link #capacity()}
     * @param id         the work request's wr_id
     * @param op         its opcode
     * @param result     its status
     * @param length     the bytes received ({@code ibv_wc.byte_len})
     * @param imm        the immediate, in host order, when {@code hasImm}
     * @param hasImm     whether the message carried an immediate ({@code IBV_WC_WITH_IMM})
     */
    public void set(int i, long id, Opcode op, CompletionStatus result, int length, int imm, boolean hasImm) {
        wrId[i] = id;
        opcode[i] = op;
        status[i] = result;
        byteLength[i] = length;
        immediate[i] = hasImm ? imm : 0;
        withImmediate[i] = hasImm;
    }

    /**
     * {@return the wr_id of completion {@code i}}
     *
     * @param i an index below the poll's count
     */
    public long wrId(int i) {
        return wrId[i];
    }

    /**
     * {@return the status of completion {@code i}}
     *
     * @param i an index
     */
    public CompletionStatus status(int i) {
        return status[i];
    }

    /**
     * {@return the opcode of the request completion {@code i} completed}
     *
     * @param i an index
     */
    public Opcode opcode(int i) {
        return opcode[i];
    }

    /**
     * The length of a completion's data.
     *
     * @param i an index below the poll's count
     * @return for a successful receive completion, the bytes the message carried (for
     * {@link Opcode#RECEIVE_WITH_IMMEDIATE}, the bytes the WRITE stored in remote memory); 0 otherwise
     */
    public int byteLength(int i) {
        return byteLength[i];
    }

    /**
     * The immediate of a completion.
     *
     * @param i an index below the poll's count
     * @return the 32-bit immediate of a {@link Opcode#RECEIVE_WITH_IMMEDIATE} completion, in host
     * order (verbs carries it big-endian on the wire); 0 when {@link #hasImmediate(int)} is false
     */
    public int immediate(int i) {
        return immediate[i];
    }

    /**
     * {@return whether completion {@code i} carries an immediate}
     *
     * @param i an index below the poll's count
     */
    public boolean hasImmediate(int i) {
        return withImmediate[i];
    }
}
