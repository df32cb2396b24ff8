package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

/**
 * An asynchronous event of a device ({@code struct ibv_async_event}), taken by
 * {@link Context#pollAsyncEvent(java.time.Duration)} and already acknowledged. Most are errors the
 * device found outside any one work request's completion: a completion queue overrun (its
 * completions are lost, and the queue pairs that use it stop), a queue pair's fatal or access
 * error (on the side that served a bad request: the requester gets an error completion, this
 * side only the event), a port going down. The object it names is identified by value, not
 * held: it may be gone by the time the event is read.
 *
 * @param type            the {@code enum ibv_event_type} ({@code IbVerbs.IBV_EVENT_*})
 * @param element         for completion queue, queue pair, shared receive queue and work queue
 *                        events, the object's native address (compare with its {@code handle().address()});
 *                        else 0
 * @param queuePairNumber for queue pair events, the QP number; else -1
 * @param port            for port events, the port number; else 0
 */
public record AsyncEvent(int type, long element, int queuePairNumber, int port) {
    /** {@return whether the event names a queue pair} */
    public boolean isQueuePairEvent() {
        return switch (type) {
            case IbVerbs.IBV_EVENT_QP_FATAL, IbVerbs.IBV_EVENT_QP_REQ_ERR, IbVerbs.IBV_EVENT_QP_ACCESS_ERR,
                 IbVerbs.IBV_EVENT_COMM_EST, IbVerbs.IBV_EVENT_SQ_DRAINED, IbVerbs.IBV_EVENT_PATH_MIG,
                 IbVerbs.IBV_EVENT_PATH_MIG_ERR, IbVerbs.IBV_EVENT_QP_LAST_WQE_REACHED -> true;
            default -> false;
        };
    }

    /** {@return whether the event names a port} */
    public boolean isPortEvent() {
        return switch (type) {
            case IbVerbs.IBV_EVENT_PORT_ACTIVE, IbVerbs.IBV_EVENT_PORT_ERR, IbVerbs.IBV_EVENT_LID_CHANGE,
                 IbVerbs.IBV_EVENT_PKEY_CHANGE, IbVerbs.IBV_EVENT_SM_CHANGE, IbVerbs.IBV_EVENT_CLIENT_REREGISTER,
                 IbVerbs.IBV_EVENT_GID_CHANGE -> true;
            default -> false;
        };
    }

    /** {@return whether something stopped working (an error or fatal event, or a port that went down)} */
    public boolean isError() {
        return switch (type) {
            case IbVerbs.IBV_EVENT_CQ_ERR, IbVerbs.IBV_EVENT_QP_FATAL, IbVerbs.IBV_EVENT_QP_REQ_ERR,
                 IbVerbs.IBV_EVENT_QP_ACCESS_ERR, IbVerbs.IBV_EVENT_PATH_MIG_ERR, IbVerbs.IBV_EVENT_DEVICE_FATAL,
                 IbVerbs.IBV_EVENT_PORT_ERR, IbVerbs.IBV_EVENT_SRQ_ERR, IbVerbs.IBV_EVENT_WQ_FATAL -> true;
            default -> false;
        };
    }

    /** {@return the event's name without its {@code IBV_EVENT_} prefix, e.g. {@code CQ_ERR}} */
    public String typeName() {
        return switch (type) {
            case IbVerbs.IBV_EVENT_CQ_ERR -> "CQ_ERR";
            case IbVerbs.IBV_EVENT_QP_FATAL -> "QP_FATAL";
            case IbVerbs.IBV_EVENT_QP_REQ_ERR -> "QP_REQ_ERR";
            case IbVerbs.IBV_EVENT_QP_ACCESS_ERR -> "QP_ACCESS_ERR";
            case IbVerbs.IBV_EVENT_COMM_EST -> "COMM_EST";
            case IbVerbs.IBV_EVENT_SQ_DRAINED -> "SQ_DRAINED";
            case IbVerbs.IBV_EVENT_PATH_MIG -> "PATH_MIG";
            case IbVerbs.IBV_EVENT_PATH_MIG_ERR -> "PATH_MIG_ERR";
            case IbVerbs.IBV_EVENT_DEVICE_FATAL -> "DEVICE_FATAL";
            case IbVerbs.IBV_EVENT_PORT_ACTIVE -> "PORT_ACTIVE";
            case IbVerbs.IBV_EVENT_PORT_ERR -> "PORT_ERR";
            case IbVerbs.IBV_EVENT_LID_CHANGE -> "LID_CHANGE";
            case IbVerbs.IBV_EVENT_PKEY_CHANGE -> "PKEY_CHANGE";
            case IbVerbs.IBV_EVENT_SM_CHANGE -> "SM_CHANGE";
            case IbVerbs.IBV_EVENT_SRQ_ERR -> "SRQ_ERR";
            case IbVerbs.IBV_EVENT_SRQ_LIMIT_REACHED -> "SRQ_LIMIT_REACHED";
            case IbVerbs.IBV_EVENT_QP_LAST_WQE_REACHED -> "QP_LAST_WQE_REACHED";
            case IbVerbs.IBV_EVENT_CLIENT_REREGISTER -> "CLIENT_REREGISTER";
            case IbVerbs.IBV_EVENT_GID_CHANGE -> "GID_CHANGE";
            case IbVerbs.IBV_EVENT_WQ_FATAL -> "WQ_FATAL";
            default -> "event " + type;
        };
    }

    /** {@return one line: the event and what it names} */
    public String describe() {
        if (isQueuePairEvent()) {
            return typeName() + " on queue pair " + queuePairNumber;
        }
        if (isPortEvent()) {
            return typeName() + " on port " + port;
        }
        if (type == IbVerbs.IBV_EVENT_CQ_ERR) {
            return typeName() + " (completion queue overrun) on the completion queue at 0x" + Long.toHexString(element);
        }
        return element == 0 ? typeName() : typeName() + " on the object at 0x" + Long.toHexString(element);
    }
}
