package io.remus.ds.delegate;

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

    /** Registers the cell operations: fetch-and-add, read, write, and one that always throws. */
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
    }
}
