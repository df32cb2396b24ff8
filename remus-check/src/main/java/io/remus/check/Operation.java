package io.remus.check;

import java.util.Arrays;
import java.util.Objects;

/**
 * One operation of a recorded history: who called it, what it was, what it returned and the
 * interval it ran in.
 *
 * <p>Arguments and results are words ({@code long}s): an operation of a specification takes and
 * returns the few words it names (a 16-byte register value is two words, a boolean is 0 or 1, a
 * dequeue from an empty queue returns no word). The times are those of the history's
 * {@link HistoryClock}: {@code invokedAt} is read before the operation starts and
 * {@code respondedAt} after it returned, so the operation took effect, if at all, in between.
 *
 * <p>A <em>pending</em> operation ({@link #isPending()}) has no response: its thread died, stalled
 * or was stopped before the operation returned. Its result is {@code null} and its response time
 * {@link #PENDING}. Following Herlihy and Wing, the checker may linearize it anywhere after its
 * invocation, with whatever result the specification gives, or not at all.
 *
 * @param id          the operation's index in its history (assigned when the history is built)
 * @param process     the process that ran it (0 in a one-process history), non-negative
 * @param thread      the thread within the process, non-negative
 * @param kind        the operation's name as its specification spells it, e.g. {@code "write"}
 * @param arguments   the argument words
 * @param result      the result words, or {@code null} when pending
 * @param invokedAt   the clock reading before the call
 * @param respondedAt the clock reading after the return, or {@link #PENDING}
 */
public record Operation(int id, int process, int thread, String kind, long[] arguments, long[] result,
                        long invokedAt, long respondedAt) {
    /** The response time of a pending operation: after every other time. */
    public static final long PENDING = Long.MAX_VALUE;

    /**
     * Validates the operation; the arrays are kept as given (treat them as immutable).
     *
     * @throws HistoryFormatException naming the value, for a kind that is no word, a negative process
     *                                or thread number, a result without a response time or the
     *                                reverse, or a response before the invocation
     */
    public Operation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(arguments, "arguments");
        if (kind.isEmpty() || kind.chars().anyMatch(Character::isWhitespace)) {
            throw new HistoryFormatException("operation kind must be a non-empty word without blanks, got '" + kind + "'");
        }
        if (process < 0 || thread < 0) {
            throw new HistoryFormatException("operation " + kind + ": process and thread numbers must be non-negative, got "
                    + "process " + process + ", thread " + thread);
        }
        if ((result == null) != (respondedAt == PENDING)) {
            throw new HistoryFormatException("operation " + kind + ": a result exactly when it responded (result "
                    + Arrays.toString(result) + ", respondedAt " + respondedAt + ")");
        }
        if (respondedAt < invokedAt) {
            throw new HistoryFormatException("operation " + kind + " responded at " + respondedAt
                    + " before its invocation at " + invokedAt);
        }
    }

    /** {@return whether the operation has no response} */
    public boolean isPending() {
        return respondedAt == PENDING;
    }

    /**
     * Whether this operation returned before {@code other} was invoked, strictly: operations whose
     * clock readings are equal are concurrent (a coarse clock only adds concurrency, never a false
     * order).
     *
     * @param other another operation
     * @return whether this one precedes it in real time
     */
    public boolean precedes(Operation other) {
        Objects.requireNonNull(other, "other");
        return respondedAt < other.invokedAt;
    }

    /**
     * Copies this operation with another id.
     *
     * @param newId an id
     * @return this operation with that id
     */
    public Operation withId(int newId) {
        return new Operation(newId, process, thread, kind, arguments, result, invokedAt, respondedAt);
    }

    /** {@return e.g. {@code #3 p0/t1 write(7) -> () [10, 20]} or {@code ... -> pending [10, -]}} */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        s.append('#').append(id).append(" p").append(process).append("/t").append(thread).append(' ')
                .append(kind).append(words(arguments)).append(" -> ")
                .append(result == null ? "pending" : words(result))
                .append(" [").append(invokedAt).append(", ").append(isPending() ? "-" : String.valueOf(respondedAt)).append(']');
        return s.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Operation op && id == op.id && process == op.process && thread == op.thread
                && kind.equals(op.kind) && Arrays.equals(arguments, op.arguments) && Arrays.equals(result, op.result)
                && invokedAt == op.invokedAt && respondedAt == op.respondedAt;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, process, thread, kind, Arrays.hashCode(arguments), Arrays.hashCode(result), invokedAt, respondedAt);
    }

    static String words(long[] w) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < w.length; i++) {
            s.append(i == 0 ? "" : ", ").append(w[i]);
        }
        return s.append(')').toString();
    }
}
