package io.remus.alock.kind;

import io.remus.alock.Lock;
import io.remus.alock.LockContext;
import io.remus.alock.LockWord;
import io.remus.alock.asymmetric.ALock;
import io.remus.alock.mcs.RdmaMcsLock;
import io.remus.alock.spin.RdmaSpinLock;
import io.remus.core.error.BadArgumentException;

import java.util.Objects;

/** The lock algorithms, each opening handles on a {@link LockWord}. */
public enum LockKind {
    /** {@link ALock}: local threads use CPU atomics only, remote threads RDMA. */
    ALOCK("alock"),
    /** {@link RdmaSpinLock}: RDMA compare-and-swap loop for every thread. */
    SPIN("spin"),
    /** {@link RdmaMcsLock}: RDMA MCS queue lock for every thread. */
    MCS("mcs"),
    /** {@link ALock} with every thread, local ones too, in the remote cohort (through loopback). */
    ALOCK_REMOTE_ONLY("alock-remote-only"),
    /**
     * {@link ALock} whose local-cohort waiters park after {@link ALock#SPINS_BEFORE_PARKING} pauses until their
     * predecessor's hand-over wakes them, where {@link #ALOCK}'s spin (yielding every 64th pause) for as long as
     * they wait.
     */
    ALOCK_PARKING("alock-parking");

    private final String cliName;

    LockKind(String cliName) {
        this.cliName = cliName;
    }

    /** {@return the name used on command lines} */
    public String cliName() {
        return cliName;
    }

    /**
     * Looks up a kind by its command-line name.
     *
     * @param name a {@link #cliName()}
     * @return its kind
     * @throws BadArgumentException when no kind has that name
     */
    public static LockKind parse(String name) {
        Objects.requireNonNull(name, "name");
        for (LockKind k : values()) {
            if (k.cliName.equals(name)) {
                return k;
            }
        }
        throw new BadArgumentException("unknown lock kind '" + name + "' (alock, spin, mcs, alock-remote-only, alock-parking)");
    }

    /**
     * Opens a handle on {@code word} for the context's thread.
     *
     * @param context the thread's lock context
     * @param word    a lock word of this kind ({@link LockWord#allocate})
     * @return the handle
     */
    public Lock open(LockContext context, long word) {
        Objects.requireNonNull(context, "context");
        return switch (this) {
            case ALOCK -> new ALock(context, word, false);
            case SPIN -> new RdmaSpinLock(context, word);
            case MCS -> new RdmaMcsLock(context, word);
            case ALOCK_REMOTE_ONLY -> new ALock(context, word, true);
            case ALOCK_PARKING -> new ALock(context, word, false, true);
        };
    }
}
