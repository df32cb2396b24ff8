package io.remus.bench.structure;

import java.util.Locale;

/**
 * The operations {@link DsBenchmark} issues. A set's lookup is {@code contains}, a map's {@code get};
 * a set's insert is {@code insert}, a map's a {@code put} of a key chosen at random (new or present);
 * the YCSB kinds are the map's only.
 */
public enum OpType {
    /** A set's {@code contains} or a map's {@code get}: true when the key was present. */
    LOOKUP,
    /** A set's {@code insert} or a map's {@code put}: true when the key was new. */
    INSERT,
    /** {@code remove}: true when the key was present. */
    REMOVE,
    /** YCSB's update: a {@code put} of a loaded key (true when the key was new, e.g. removed before). */
    UPDATE,
    /** YCSB's read-modify-write (workload F): a {@code get} then a {@code put} of the key; true when the get found it. */
    RMW;

    /** {@return the lower-case name, as reports spell it} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
