package io.remus.check;

/** The outcome of a linearizability check. */
public enum Verdict {
    /** Some order of the operations respects real time and the specification. */
    LINEARIZABLE,
    /** No order does: the history is a violation. */
    NOT_LINEARIZABLE,
    /** The budget ran out before the search decided; says nothing about the history. */
    UNKNOWN
}
