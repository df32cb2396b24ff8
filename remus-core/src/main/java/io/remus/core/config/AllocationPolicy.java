package io.remus.core.config;

/** Which memory node serves an allocation that names none. */
public enum AllocationPolicy {
    /** Memory nodes in turn, per compute thread. */
    ROUND_ROBIN,
    /** A memory node chosen uniformly at random. */
    RANDOM,
    /** The thread's own node when it is a memory node, else round-robin. */
    LOCAL_FIRST
}
