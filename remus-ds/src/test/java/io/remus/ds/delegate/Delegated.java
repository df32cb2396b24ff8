package io.remus.ds.delegate;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The delegated objects of the tests: a counter and a one-word register, as plain Java objects held
 * by a trustee, and the ids their operations are registered under.
 */
final class Delegated {
    static final int FETCH_AND_ADD = 0;
    static final int READ = 1;
    static final int WRITE = 2;
    static final int THROW = 3;
    /** Drops the trustee's own reference ({@link Trustee#release}) to the property whose id is the argument. */
    static final int RELEASE_TRUSTEES_REFERENCE = 4;
    /** Payload: adds every request byte (unsigned) to the cell and answers with the request's bytes reversed. */
    static final int SUM_AND_REVERSE = 5;
    /** Payload: answers with one byte more than the trustee's payloads hold. */
    static final int OVERLONG = 6;
    /** Payload: always throws. */
    static final int PAYLOAD_THROW = 7;

    private Delegated() {
    }

    /** A counter or register word; touched only by its trustee's thread, closed when its trustee drops it. */
    static final class Cell implements AutoCloseable {
        long value;
        volatile boolean closed;

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Registers the cell operations on {@code trustee} and entrusts it one cell, property 0; returns it. */
    static Trustee<Cell> oneCell(Trustee<Cell> trustee) {
        register(trustee);
        trustee.entrust(new Cell());
        return trustee;
    }

    /**
     * Registers the cell operations: fetch-and-add, read, write, and one that always throws; on a trustee
     * with payloads also the payload operations.
     */
    static void register(Trustee<Cell> trustee) {
        trustee.register(FETCH_AND_ADD, (cell, delta) -> {
            long old = cell.value;
            cell.value = old + delta;
            return old;
        });
        trustee.register(READ, (cell, arg) -> cell.value);
        trustee.register(WRITE, (cell, v) -> {
            cell.value = v;
            return 0;
        });
        trustee.register(THROW, (cell, arg) -> {
            throw new IllegalStateException("operation " + THROW + " always throws");
        });
        trustee.register(RELEASE_TRUSTEES_REFERENCE, (cell, id) -> trustee.release((int) id));
        if (trustee.payloadBytes() == 0) {
            return;
        }
        trustee.register(SUM_AND_REVERSE, (Cell cell, MemorySegment request, MemorySegment response) -> {
            int n = (int) request.byteSize();
            for (int i = 0; i < n; i++) {
                byte b = request.get(ValueLayout.JAVA_BYTE, i);
                cell.value += b & 0xFF;
                response.set(ValueLayout.JAVA_BYTE, n - 1 - i, b);
            }
            return n;
        });
        trustee.register(OVERLONG, (Cell cell, MemorySegment request, MemorySegment response) -> trustee.payloadBytes() + 1);
        trustee.register(PAYLOAD_THROW, (Cell cell, MemorySegment request, MemorySegment response) -> {
            throw new IllegalStateException("operation " + PAYLOAD_THROW + " always throws");
        });
    }
}
