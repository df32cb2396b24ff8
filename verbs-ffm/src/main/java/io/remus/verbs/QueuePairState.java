package io.remus.verbs;

/** The state of a queue pair ({@code enum ibv_qp_state}), in code order. */
public enum QueuePairState {
    /** {@code IBV_QPS_RESET}. */
    RESET,
    /** {@code IBV_QPS_INIT}. */
    INIT,
    /** {@code IBV_QPS_RTR}: ready to receive. */
    READY_TO_RECEIVE,
    /** {@code IBV_QPS_RTS}: ready to send. */
    READY_TO_SEND,
    /** {@code IBV_QPS_SQD}. */
    SEND_QUEUE_DRAINED,
    /** {@code IBV_QPS_SQE}. */
    SEND_QUEUE_ERROR,
    /** {@code IBV_QPS_ERR}: terminal; close the queue pair and build a new one. */
    ERROR,
    /** {@code IBV_QPS_UNKNOWN}. */
    UNKNOWN;

    /**
     * Looks up the state of a code.
     *
     * @param code an {@code IBV_QPS_*} code
     * @return its state ({@link #UNKNOWN} for codes out of range)
     */
    public static QueuePairState ofCode(int code) {
        QueuePairState[] all = values();
        return code >= 0 && code < all.length ? all[code] : UNKNOWN;
    }
}
