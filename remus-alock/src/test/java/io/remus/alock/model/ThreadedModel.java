package io.remus.alock.model;

/**
 * The state layout both lock models share: {@code shared} words, then {@code fields} words per
 * thread, field 0 of which is the thread's program counter; a thread has finished at {@link #DONE}.
 */
abstract class ThreadedModel implements Model {
    static final int PC = 0;
    static final int DONE = 99;

    private final int threads;
    private final int shared;
    private final int fields;

    ThreadedModel(int threads, int shared, int fields) {
        this.threads = threads;
        this.shared = shared;
        this.fields = fields;
    }

    @Override
    public final int threads() {
        return threads;
    }

    @Override
    public final int[] initial() {
        return new int[shared + fields * threads];
    }

    /** @return the index of thread {@code t}'s {@code field} in a state */
    final int at(int t, int field) {
        return shared + fields * t + field;
    }

    /** @return whether program counter {@code pc} of thread {@code t} is its critical section */
    abstract boolean isCriticalSection(int t, int pc);

    @Override
    public final int inCriticalSection(int[] s) {
        int n = 0;
        for (int t = 0; t < threads; t++) {
            if (isCriticalSection(t, s[at(t, PC)])) {
                n++;
            }
        }
        return n;
    }

    @Override
    public final boolean finished(int[] s) {
        for (int t = 0; t < threads; t++) {
            if (s[at(t, PC)] != DONE) {
                return false;
            }
        }
        return true;
    }
}
