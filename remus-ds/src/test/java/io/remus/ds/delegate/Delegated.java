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

    private Delegated() {
    }

    /** A counter or register word; touched only by its trustee's thread. */
    static final class Cell {
        long value;
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
    }
}
