package io.remus.memcached;

/** The outcome of a storage command, named after its protocol line. */
public enum StoreResult {
    /** {@code STORED}. */
    STORED,
    /** {@code NOT_STORED}: the condition of add, replace, append or prepend did not hold. */
    NOT_STORED,
    /** {@code EXISTS}: a cas whose item changed since the client fetched it. */
    EXISTS,
    /** {@code NOT_FOUND}: a cas on a key that holds no item. */
    NOT_FOUND
}
