package io.remus.alock.model;

/**
 * The naive mixed lock ({@code NaiveMixedLock}) as a model: one lock word, compare-and-swapped in
 * one CPU step by {@code locals} home-node threads and in two NIC steps (load, conditional store;
 * atomic only among NIC atomics) by {@code remotes} remote threads; released by a plain store.
 */
final class NaiveMixedLockModel extends ThreadedModel {
    private static final int WORD = 0;
    private static final int NIC = 1;
    private static final int SHARED = 2;
    private static final int OLD = 1;
    private static final int ROUND = 2;
    private static final int FIELDS = 3;
    private static final int CS = 3;

    private final int locals;
    private final int rounds;

    NaiveMixedLockModel(int locals, int remotes, int rounds) {
        super(locals + remotes, SHARED, FIELDS);
        this.locals = locals;
        this.rounds = rounds;
    }

    @Override
    public int[] step(int[] state, int t) {
        int[] s = state.clone();
        int me = t + 1;
        int pc = at(t, PC);
        switch (s[pc]) {
            case 0 -> s[pc] = s[at(t, ROUND)] == rounds ? DONE : (t < locals ? 1 : 2);
            case 1 -> {
                if (s[WORD] == 0) {
                    s[WORD] = me;
                    s[pc] = CS;
                }
            }
            case 2 -> {
                if (s[NIC] != 0) {
                    return null;
                }
                s[NIC] = me;
                s[at(t, OLD)] = s[WORD];
                s[pc] = 4;
            }
            case 4 -> {
                if (s[at(t, OLD)] == 0) {
                    s[WORD] = me;
                    s[pc] = CS;
                } else {
                    s[pc] = 2;
                }
                s[NIC] = 0;
                s[at(t, OLD)] = 0;
            }
            case CS -> s[pc] = 5;
            case 5 -> {
                s[WORD] = 0;
                s[at(t, ROUND)]++;
                s[pc] = 0;
            }
            default -> {
                return null;
            }
        }
        return s;
    }

    @Override
    boolean isCriticalSection(int t, int pc) {
        return pc == CS;
    }
}
