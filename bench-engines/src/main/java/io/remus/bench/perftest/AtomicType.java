package io.remus.bench.perftest;

/** The atomic an atomic benchmark issues (perftest's {@code -A}). */
public enum AtomicType {
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}. */
    CMP_AND_SWAP,
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}. */
    FETCH_AND_ADD
}
