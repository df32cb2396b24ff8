package io.remus.core;

/**
 * How a writer orders a message's body WRITE and its flag WRITE, where a CPU on the target node polls
 * the flag to learn that the body has arrived. The library's single rule is in docs/DATA-STRUCTURES.md,
 * "Ordering rule for WRITEs": every such protocol defaults to {@link #ONE_DOORBELL}, carries the flag's
 * value inside the body WRITE as well (written last there), and has its reader treat a new flag beside an
 * old body as not yet arrived, counting the event; {@link #COMPLETION} is the conservative order for
 * hardware that breaks the assumption.
 */
public enum WriteOrder {
    /**
     * Body and flag as two WRITEs posted with one doorbell, awaited together: one round trip. Assumes, as
     * ffwd, FaRM and HERD do, that an RC queue pair's responder makes a later WRITE's bytes visible to its
     * CPU no earlier than an earlier WRITE's; the reader's guard detects (and survives) a NIC that does not.
     */
    ONE_DOORBELL,
    /**
     * The body WRITE is awaited before the flag WRITE is posted: two round trips, and no assumption about
     * the order in which two WRITEs' bytes become visible.
     */
    COMPLETION
}
