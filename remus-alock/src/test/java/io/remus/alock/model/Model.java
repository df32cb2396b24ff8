package io.remus.alock.model;

/**
 * A finite concurrent program for {@link ModelChecker}: a state is an {@code int[]} of shared words
 * and each thread's program counter and registers; a step is one atomic action of one thread.
 */
interface Model {
    /** @return how many threads */
    int threads();

    /** @return the initial state */
    int[] initial();

    /**
     * Performs thread {@code t}'s next atomic step.
     *
     * @param state the current state (not modified)
     * @param t     a thread
     * @return the next state, or null when the thread is blocked or finished in this state
     */
    int[] step(int[] state, int t);

    /** @return how many threads are in the critical section */
    int inCriticalSection(int[] state);

    /** @return whether every thread finished */
    boolean finished(int[] state);
}
