package io.remus.alock.model;

/**
 * ALock ({@link io.remus.alock.asymmetric.ALock}) as a model: {@code locals} home-node threads and
 * {@code remotes} remote threads, each acquiring and releasing {@code rounds} times. Each case of
 * {@link #step} is one atomic action with the atomicity the hardware gives (IBV_ATOMIC_HCA): a CPU
 * swap or compare-and-swap is one step; an RDMA compare-and-swap is two steps, a load and a
 * conditional store, made atomic only against other RDMA atomics by the NIC lock word; plain 8-byte
 * reads and writes of either kind are one step each. Spin waits are steps enabled only when the
 * awaited condition holds. {@code peterson == false} is the deliberately broken variant in which
 * cohort leaders enter without arbitrating.
 */
final class ALockModel extends ThreadedModel {
    static final int R_TAIL = 0;
    static final int L_TAIL = 1;
    static final int VICTIM = 2;
    static final int NIC = 3;
    static final int SHARED = 4;
    static final int BUDGET = 1;
    static final int NEXT = 2;
    static final int REG = 3;
    static final int OLD = 4;
    static final int HELD = 5;
    static final int ROUND = 6;
    static final int FIELDS = 7;
    static final int LOCAL = 1;
    static final int REMOTE = 2;
    static final int LOCAL_CS = 6;
    static final int REMOTE_CS = 8;

    private final int locals;
    private final int rounds;
    private final int localBudget;
    private final int remoteBudget;
    private final boolean peterson;

    ALockModel(int locals, int remotes, int rounds, int localBudget, int remoteBudget, boolean peterson) {
        super(locals + remotes, SHARED, FIELDS);
        this.locals = locals;
        this.rounds = rounds;
        this.localBudget = localBudget;
        this.remoteBudget = remoteBudget;
        this.peterson = peterson;
    }

    @Override
    public int[] step(int[] state, int t) {
        int[] s = state.clone();
        boolean moved = t < locals ? local(s, t) : remote(s, t);
        return moved ? s : null;
    }

    private boolean local(int[] s, int t) {
        int me = t + 1;
        int pc = at(t, PC);
        switch (s[pc]) {
            case 0 -> start(s, t);
            case 1 -> {
                int pred = s[L_TAIL];
                s[L_TAIL] = me;
                s[at(t, REG)] = pred;
                s[pc] = pred != 0 ? 2 : 4;
            }
            case 2 -> {
                s[at(s[at(t, REG)] - 1, NEXT)] = me;
                s[pc] = 3;
            }
            case 3 -> {
                int b = s[at(t, BUDGET)];
                if (b == -1) {
                    return false;
                }
                enterOrArbitrate(s, t, b, 4, LOCAL_CS);
            }
            case 4 -> {
                if (!peterson) {
                    enter(s, t, localBudget, LOCAL_CS);
                } else {
                    s[VICTIM] = LOCAL;
                    s[pc] = 5;
                }
            }
            case 5 -> {
                if (s[R_TAIL] == 0) {
                    enter(s, t, localBudget, LOCAL_CS);
                } else {
                    s[pc] = 51;
                }
            }
            case 51 -> {
                if (s[VICTIM] != LOCAL) {
                    enter(s, t, localBudget, LOCAL_CS);
                } else {
                    s[pc] = 5;
                }
            }
            case LOCAL_CS -> s[pc] = 7;
            case 7 -> {
                int next = s[at(t, NEXT)];
                s[at(t, REG)] = next;
                s[pc] = next != 0 ? 10 : 8;
            }
            case 8 -> {
                if (s[L_TAIL] == me) {
                    s[L_TAIL] = 0;
                    finishRound(s, t);
                } else {
                    s[pc] = 9;
                }
            }
            case 9 -> {
                int next = s[at(t, NEXT)];
                if (next == 0) {
                    return false;
                }
                s[at(t, REG)] = next;
                s[pc] = 10;
            }
            case 10 -> {
                s[at(s[at(t, REG)] - 1, BUDGET)] = s[at(t, HELD)] - 1;
                finishRound(s, t);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private boolean remote(int[] s, int t) {
        int me = t + 1;
        int pc = at(t, PC);
        switch (s[pc]) {
            case 0 -> start(s, t);
            case 1 -> s[pc] = 2;
            case 2 -> {
                if (s[NIC] != 0) {
                    return false;
                }
                s[NIC] = me;
                s[at(t, OLD)] = s[R_TAIL];
                s[pc] = 3;
            }
            case 3 -> {
                int old = s[at(t, OLD)];
                if (old == s[at(t, REG)]) {
                    s[R_TAIL] = me;
                    s[pc] = old != 0 ? 4 : 6;
                } else {
                    s[at(t, REG)] = old;
                    s[pc] = 2;
                }
                s[NIC] = 0;
            }
            case 4 -> {
                s[at(s[at(t, OLD)] - 1, NEXT)] = me;
                s[pc] = 5;
            }
            case 5 -> {
                int b = s[at(t, BUDGET)];
                if (b == -1) {
                    return false;
                }
                enterOrArbitrate(s, t, b, 6, REMOTE_CS);
            }
            case 6 -> {
                if (!peterson) {
                    enter(s, t, remoteBudget, REMOTE_CS);
                } else {
                    s[VICTIM] = REMOTE;
                    s[pc] = 7;
                }
            }
            case 7 -> {
                if (s[L_TAIL] == 0) {
                    enter(s, t, remoteBudget, REMOTE_CS);
                } else {
                    s[pc] = 71;
                }
            }
            case 71 -> {
                if (s[VICTIM] != REMOTE) {
                    enter(s, t, remoteBudget, REMOTE_CS);
                } else {
                    s[pc] = 7;
                }
            }
            case REMOTE_CS -> s[pc] = 9;
            case 9 -> {
                int next = s[at(t, NEXT)];
                s[at(t, REG)] = next;
                s[pc] = next != 0 ? 13 : 10;
            }
            case 10 -> {
                if (s[NIC] != 0) {
                    return false;
                }
                s[NIC] = me;
                s[at(t, OLD)] = s[R_TAIL];
                s[pc] = 11;
            }
            case 11 -> {
                s[NIC] = 0;
                if (s[at(t, OLD)] == me) {
                    s[R_TAIL] = 0;
                    finishRound(s, t);
                } else {
                    s[pc] = 12;
                }
            }
            case 12 -> {
                int next = s[at(t, NEXT)];
                if (next == 0) {
                    return false;
                }
                s[at(t, REG)] = next;
                s[pc] = 13;
            }
            case 13 -> {
                s[at(s[at(t, REG)] - 1, BUDGET)] = s[at(t, HELD)] - 1;
                finishRound(s, t);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private void start(int[] s, int t) {
        if (s[at(t, ROUND)] == rounds) {
            s[at(t, PC)] = DONE;
            return;
        }
        s[at(t, BUDGET)] = -1;
        s[at(t, NEXT)] = 0;
        s[at(t, REG)] = 0;
        s[at(t, OLD)] = 0;
        s[at(t, PC)] = 1;
    }

    private void enterOrArbitrate(int[] s, int t, int received, int arbitratePc, int csPc) {
        if (received > 0) {
            s[at(t, HELD)] = received;
            s[at(t, PC)] = csPc;
        } else {
            s[at(t, PC)] = arbitratePc;
        }
    }

    private void enter(int[] s, int t, int budget, int csPc) {
        s[at(t, HELD)] = budget;
        s[at(t, PC)] = csPc;
    }

    private void finishRound(int[] s, int t) {
        s[at(t, ROUND)]++;
        s[at(t, HELD)] = 0;
        s[at(t, REG)] = 0;
        s[at(t, OLD)] = 0;
        s[at(t, PC)] = 0;
    }

    @Override
    boolean isCriticalSection(int t, int pc) {
        return pc == (t < locals ? LOCAL_CS : REMOTE_CS);
    }
}
