package io.remus.core.config;

/** How a compute thread picks one of its QP lanes to a peer for each operation. */
public enum LanePolicy {
    /** Lanes in turn. */
    ROUND_ROBIN,
    /** The lane chosen by the target address, so operations on one word stay on one QP, in order. */
    BY_ADDRESS
}
