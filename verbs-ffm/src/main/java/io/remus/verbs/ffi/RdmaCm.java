package io.remus.verbs.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Functions and constants of {@code <rdma/rdma_cma.h>} (librdmacm), in jextract's header class
 * shape: one static method per C function, named as in C.
 *
 * <p>Each function is declared by a {@link NativeFunction} constant (upper-case C name) and
 * linked lazily by a holder class on first call. Nearly all report failure as -1 with errno,
 * so they take a call-state segment first ({@link Errno}). Pointer arguments that librdmacm
 * dereferences unconditionally are checked here: NULL gives an {@link IllegalArgumentException}
 * instead of a crash. Event waits need a timeout: poll the channel's fd ({@link LibC#poll})
 * before {@link #rdma_get_cm_event}.
 */
public final class RdmaCm {
    private RdmaCm() {
    }

    // ---------------------------------------------------------------- event channels and events

    /** Declaration of {@code rdma_create_event_channel}. */
    public static final NativeFunction RDMA_CREATE_EVENT_CHANNEL = NativeFunction.rdmacmErrno(
            "struct rdma_event_channel *rdma_create_event_channel(void)",
            FunctionDescriptor.of(ADDRESS));

    private static final class rdma_create_event_channel$ {
        static final MethodHandle HANDLE = RDMA_CREATE_EVENT_CHANNEL.link();
    }

    /**
     * {@snippet lang = c :
     * struct rdma_event_channel *rdma_create_event_channel(void)
     * }
     *
     * Opens a channel on which librdmacm reports the events of the ids created on it.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @return the channel ({@link rdma_event_channel}), or NULL (see errno; ENODEV or ENOENT on a host
     *         without RDMA)
     */
    public static MemorySegment rdma_create_event_channel(MemorySegment callState) {
        try {
            return (MemorySegment) rdma_create_event_channel$.HANDLE.invokeExact(callState);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_destroy_event_channel}. */
    public static final NativeFunction RDMA_DESTROY_EVENT_CHANNEL = NativeFunction.rdmacm(
            "void rdma_destroy_event_channel(struct rdma_event_channel *channel)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class rdma_destroy_event_channel$ {
        static final MethodHandle HANDLE = RDMA_DESTROY_EVENT_CHANNEL.link();
    }

    /**
     * {@snippet lang = c :
     * void rdma_destroy_event_channel(struct rdma_event_channel *channel)
     * }
     *
     * Closes a channel.
     *
     * @param channel a channel with no ids left on it
     * @throws IllegalArgumentException if {@code channel} is NULL
     */
    public static void rdma_destroy_event_channel(MemorySegment channel) {
        requireNonNull("rdma_destroy_event_channel", "channel", channel);
        try {
            rdma_destroy_event_channel$.HANDLE.invokeExact(channel);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_get_cm_event}. */
    public static final NativeFunction RDMA_GET_CM_EVENT = NativeFunction.rdmacmErrno(
            "int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class rdma_get_cm_event$ {
        static final MethodHandle HANDLE = RDMA_GET_CM_EVENT.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)
     * }
     *
     * Takes the next event. It blocks unless the channel's fd is non-blocking
     * ({@link LibC#fcntl} with {@link LibC#O_NONBLOCK}), in which case it fails with EAGAIN when no
     * event is pending: wait with {@link LibC#poll} and a timeout first.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param channel   the channel
     * @param event     a pointer out-parameter; receives the {@link rdma_cm_event}
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code channel} is NULL or {@code event} is NULL
     */
    public static int rdma_get_cm_event(MemorySegment callState, MemorySegment channel, MemorySegment event) {
        requireNonNull("rdma_get_cm_event", "channel", channel);
        requireNonNull("rdma_get_cm_event", "event", event);
        try {
            return (int) rdma_get_cm_event$.HANDLE.invokeExact(callState, channel, event);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_ack_cm_event}. */
    public static final NativeFunction RDMA_ACK_CM_EVENT = NativeFunction.rdmacmErrno(
            "int rdma_ack_cm_event(struct rdma_cm_event *event)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class rdma_ack_cm_event$ {
        static final MethodHandle HANDLE = RDMA_ACK_CM_EVENT.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_ack_cm_event(struct rdma_cm_event *event)
     * }
     *
     * Releases an event. Every event must be acknowledged before its id can be destroyed.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param event     an event from {@link #rdma_get_cm_event}; invalid afterwards
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code event} is NULL
     */
    public static int rdma_ack_cm_event(MemorySegment callState, MemorySegment event) {
        requireNonNull("rdma_ack_cm_event", "event", event);
        try {
            return (int) rdma_ack_cm_event$.HANDLE.invokeExact(callState, event);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_event_str}. */
    public static final NativeFunction RDMA_EVENT_STR = NativeFunction.rdmacm(
            "const char *rdma_event_str(enum rdma_cm_event_type event)",
            FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private static final class rdma_event_str$ {
        static final MethodHandle HANDLE = RDMA_EVENT_STR.link();
    }

    /**
     * {@snippet lang = c :
     * const char *rdma_event_str(enum rdma_cm_event_type event)
     * }
     *
     * Names an event type.
     *
     * @param event an {@code RDMA_CM_EVENT_*} value
     * @return a static NUL-terminated string (zero-length segment: reinterpret to read it)
     */
    public static MemorySegment rdma_event_str(int event) {
        try {
            return (MemorySegment) rdma_event_str$.HANDLE.invokeExact(event);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_get_devices}. */
    public static final NativeFunction RDMA_GET_DEVICES = NativeFunction.rdmacmErrno(
            "struct ibv_context **rdma_get_devices(int *num_devices)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class rdma_get_devices$ {
        static final MethodHandle HANDLE = RDMA_GET_DEVICES.link();
    }

    /**
     * {@snippet lang = c :
     * struct ibv_context **rdma_get_devices(int *num_devices)
     * }
     *
     * Opens (or reuses) librdmacm's own verbs context of every RDMA device: the contexts that
     * {@code rdma_cm_id.verbs} points to, so a protection domain allocated on one of them can
     * hold the QP of an id on that device. The list keeps them open until
     * {@link #rdma_free_devices}.
     *
     * @param callState   from {@link Errno#allocate}; holds errno after the call
     * @param num_devices an {@code int} out-parameter, or NULL
     * @return a NULL-terminated array of context pointers, or NULL (see errno)
     */
    public static MemorySegment rdma_get_devices(MemorySegment callState, MemorySegment num_devices) {
        try {
            return (MemorySegment) rdma_get_devices$.HANDLE.invokeExact(callState, num_devices);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_free_devices}. */
    public static final NativeFunction RDMA_FREE_DEVICES = NativeFunction.rdmacm(
            "void rdma_free_devices(struct ibv_context **list)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class rdma_free_devices$ {
        static final MethodHandle HANDLE = RDMA_FREE_DEVICES.link();
    }

    /**
     * {@snippet lang = c :
     * void rdma_free_devices(struct ibv_context **list)
     * }
     *
     * Releases a list from {@link #rdma_get_devices}.
     *
     * @param list the list
     * @throws IllegalArgumentException if {@code list} is NULL
     */
    public static void rdma_free_devices(MemorySegment list) {
        requireNonNull("rdma_free_devices", "list", list);
        try {
            rdma_free_devices$.HANDLE.invokeExact(list);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_migrate_id}. */
    public static final NativeFunction RDMA_MIGRATE_ID = NativeFunction.rdmacmErrno(
            "int rdma_migrate_id(struct rdma_cm_id *id, struct rdma_event_channel *channel)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class rdma_migrate_id$ {
        static final MethodHandle HANDLE = RDMA_MIGRATE_ID.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_migrate_id(struct rdma_cm_id *id, struct rdma_event_channel *channel)
     * }
     *
     * Moves an id, and the reporting of its events, to another channel.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param id        a {@code struct rdma_cm_id}
     * @param channel   the new channel, or NULL for synchronous operation
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_migrate_id(MemorySegment callState, MemorySegment id, MemorySegment channel) {
        requireNonNull("rdma_migrate_id", "id", id);
        try {
            return (int) rdma_migrate_id$.HANDLE.invokeExact(callState, id, channel);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- ids and connection setup

    /** Declaration of {@code rdma_create_id}. */
    public static final NativeFunction RDMA_CREATE_ID = NativeFunction.rdmacmErrno(
            "int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context, enum rdma_port_space ps)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));

    private static final class rdma_create_id$ {
        static final MethodHandle HANDLE = RDMA_CREATE_ID.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context, enum rdma_port_space ps)
     * }
     *
     * Creates a communication identifier (the rdma_cm analogue of a socket).
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param channel   the channel reporting its events, or NULL for synchronous operation
     * @param id        a pointer out-parameter; receives the {@link rdma_cm_id}
     * @param context   stored in {@code id->context}, may be NULL
     * @param ps        an {@code RDMA_PS_*} port space
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_create_id(MemorySegment callState, MemorySegment channel, MemorySegment id, MemorySegment context, int ps) {
        requireNonNull("rdma_create_id", "id", id);
        try {
            return (int) rdma_create_id$.HANDLE.invokeExact(callState, channel, id, context, ps);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_destroy_id}. */
    public static final NativeFunction RDMA_DESTROY_ID = NativeFunction.rdmacmErrno(
            "int rdma_destroy_id(struct rdma_cm_id *id)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class rdma_destroy_id$ {
        static final MethodHandle HANDLE = RDMA_DESTROY_ID.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_destroy_id(struct rdma_cm_id *id)
     * }
     *
     * Destroys an id; its QP must be destroyed and its events acknowledged first.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param id        a {@code struct rdma_cm_id}
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_destroy_id(MemorySegment callState, MemorySegment id) {
        requireNonNull("rdma_destroy_id", "id", id);
        try {
            return (int) rdma_destroy_id$.HANDLE.invokeExact(callState, id);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_bind_addr}. */
    public static final NativeFunction RDMA_BIND_ADDR = NativeFunction.rdmacmErrno(
            "int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class rdma_bind_addr$ {
        static final MethodHandle HANDLE = RDMA_BIND_ADDR.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)
     * }
     *
     * Binds an id to a local address (and so to a local RDMA device), before listening.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param id        a {@code struct rdma_cm_id}
     * @param addr      a {@link sockaddr_in} or {@link sockaddr_in6} (port 0 picks one)
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL or {@code addr} is NULL
     */
    public static int rdma_bind_addr(MemorySegment callState, MemorySegment id, MemorySegment addr) {
        requireNonNull("rdma_bind_addr", "id", id);
        requireNonNull("rdma_bind_addr", "addr", addr);
        try {
            return (int) rdma_bind_addr$.HANDLE.invokeExact(callState, id, addr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_resolve_addr}. */
    public static final NativeFunction RDMA_RESOLVE_ADDR = NativeFunction.rdmacmErrno(
            "int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT));

    private static final class rdma_resolve_addr$ {
        static final MethodHandle HANDLE = RDMA_RESOLVE_ADDR.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms)
     * }
     *
     * Starts resolving the peer's address; completion is reported as RDMA_CM_EVENT_ADDR_RESOLVED
     * or RDMA_CM_EVENT_ADDR_ERROR.
     *
     * @param callState  from {@link Errno#allocate}; holds errno after the call
     * @param id         a {@code struct rdma_cm_id}
     * @param src_addr   the local address, or NULL
     * @param dst_addr   the peer's address
     * @param timeout_ms how long resolution may take
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL or {@code dst_addr} is NULL
     */
    public static int rdma_resolve_addr(MemorySegment callState, MemorySegment id, MemorySegment src_addr, MemorySegment dst_addr, int timeout_ms) {
        requireNonNull("rdma_resolve_addr", "id", id);
        requireNonNull("rdma_resolve_addr", "dst_addr", dst_addr);
        try {
            return (int) rdma_resolve_addr$.HANDLE.invokeExact(callState, id, src_addr, dst_addr, timeout_ms);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_resolve_route}. */
    public static final NativeFunction RDMA_RESOLVE_ROUTE = NativeFunction.rdmacmErrno(
            "int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    private static final class rdma_resolve_route$ {
        static final MethodHandle HANDLE = RDMA_RESOLVE_ROUTE.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)
     * }
     *
     * Starts resolving the route to the peer; completion is reported as
     * RDMA_CM_EVENT_ROUTE_RESOLVED or RDMA_CM_EVENT_ROUTE_ERROR.
     *
     * @param callState  from {@link Errno#allocate}; holds errno after the call
     * @param id         a {@code struct rdma_cm_id}
     * @param timeout_ms how long resolution may take
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_resolve_route(MemorySegment callState, MemorySegment id, int timeout_ms) {
        requireNonNull("rdma_resolve_route", "id", id);
        try {
            return (int) rdma_resolve_route$.HANDLE.invokeExact(callState, id, timeout_ms);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_listen}. */
    public static final NativeFunction RDMA_LISTEN = NativeFunction.rdmacmErrno(
            "int rdma_listen(struct rdma_cm_id *id, int backlog)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));

    private static final class rdma_listen$ {
        static final MethodHandle HANDLE = RDMA_LISTEN.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_listen(struct rdma_cm_id *id, int backlog)
     * }
     *
     * Listens for connection requests on a bound id (RDMA_CM_EVENT_CONNECT_REQUEST).
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param id        a {@code struct rdma_cm_id}
     * @param backlog   the queue length of pending connection requests
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_listen(MemorySegment callState, MemorySegment id, int backlog) {
        requireNonNull("rdma_listen", "id", id);
        try {
            return (int) rdma_listen$.HANDLE.invokeExact(callState, id, backlog);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_connect}. */
    public static final NativeFunction RDMA_CONNECT = NativeFunction.rdmacmErrno(
            "int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class rdma_connect$ {
        static final MethodHandle HANDLE = RDMA_CONNECT.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
     * }
     *
     * Starts connecting to the resolved peer; completion is reported as RDMA_CM_EVENT_ESTABLISHED
     * (or an error, rejection or unreachable event).
     *
     * @param callState  from {@link Errno#allocate}; holds errno after the call
     * @param id         a {@code struct rdma_cm_id}
     * @param conn_param a {@link rdma_conn_param}, or NULL when the id has a QP
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_connect(MemorySegment callState, MemorySegment id, MemorySegment conn_param) {
        requireNonNull("rdma_connect", "id", id);
        try {
            return (int) rdma_connect$.HANDLE.invokeExact(callState, id, conn_param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_accept}. */
    public static final NativeFunction RDMA_ACCEPT = NativeFunction.rdmacmErrno(
            "int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class rdma_accept$ {
        static final MethodHandle HANDLE = RDMA_ACCEPT.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)
     * }
     *
     * Accepts a connection request (on the id the CONNECT_REQUEST event carried).
     *
     * @param callState  from {@link Errno#allocate}; holds errno after the call
     * @param id         a {@code struct rdma_cm_id}
     * @param conn_param a {@link rdma_conn_param}, or NULL when the id has a QP
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_accept(MemorySegment callState, MemorySegment id, MemorySegment conn_param) {
        requireNonNull("rdma_accept", "id", id);
        try {
            return (int) rdma_accept$.HANDLE.invokeExact(callState, id, conn_param);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_reject}. */
    public static final NativeFunction RDMA_REJECT = NativeFunction.rdmacmErrno(
            "int rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_BYTE));

    private static final class rdma_reject$ {
        static final MethodHandle HANDLE = RDMA_REJECT.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)
     * }
     *
     * Rejects a connection request.
     *
     * @param callState        from {@link Errno#allocate}; holds errno after the call
     * @param id               a {@code struct rdma_cm_id}
     * @param private_data     sent to the peer, or NULL
     * @param private_data_len its length in bytes
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_reject(MemorySegment callState, MemorySegment id, MemorySegment private_data, byte private_data_len) {
        requireNonNull("rdma_reject", "id", id);
        try {
            return (int) rdma_reject$.HANDLE.invokeExact(callState, id, private_data, private_data_len);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_disconnect}. */
    public static final NativeFunction RDMA_DISCONNECT = NativeFunction.rdmacmErrno(
            "int rdma_disconnect(struct rdma_cm_id *id)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class rdma_disconnect$ {
        static final MethodHandle HANDLE = RDMA_DISCONNECT.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_disconnect(struct rdma_cm_id *id)
     * }
     *
     * Disconnects; both sides then see RDMA_CM_EVENT_DISCONNECTED.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param id        a {@code struct rdma_cm_id}
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static int rdma_disconnect(MemorySegment callState, MemorySegment id) {
        requireNonNull("rdma_disconnect", "id", id);
        try {
            return (int) rdma_disconnect$.HANDLE.invokeExact(callState, id);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_set_option}. */
    public static final NativeFunction RDMA_SET_OPTION = NativeFunction.rdmacmErrno(
            "int rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));

    private static final class rdma_set_option$ {
        static final MethodHandle HANDLE = RDMA_SET_OPTION.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)
     * }
     *
     * Sets an option of an id.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param id        a {@code struct rdma_cm_id}
     * @param level     {@link #RDMA_OPTION_ID} or {@link #RDMA_OPTION_IB}
     * @param optname   an {@code RDMA_OPTION_ID_*} / {@code RDMA_OPTION_IB_*} value
     * @param optval    the value
     * @param optlen    its size in bytes
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL or {@code optval} is NULL, or if {@code optlen} exceeds {@code optval}
     */
    public static int rdma_set_option(MemorySegment callState, MemorySegment id, int level, int optname, MemorySegment optval, long optlen) {
        requireNonNull("rdma_set_option", "id", id);
        requireNonNull("rdma_set_option", "optval", optval);
        if (optlen < 0 || optlen > optval.byteSize()) {
            throw new IllegalArgumentException("rdma_set_option: optlen " + optlen
                    + " does not fit optval of " + optval.byteSize() + " bytes");
        }
        try {
            return (int) rdma_set_option$.HANDLE.invokeExact(callState, id, level, optname, optval, optlen);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_get_src_port}. */
    public static final NativeFunction RDMA_GET_SRC_PORT = NativeFunction.rdmacm(
            "__be16 rdma_get_src_port(struct rdma_cm_id *id)",
            FunctionDescriptor.of(JAVA_SHORT, ADDRESS));

    private static final class rdma_get_src_port$ {
        static final MethodHandle HANDLE = RDMA_GET_SRC_PORT.link();
    }

    /**
     * {@snippet lang = c :
     * __be16 rdma_get_src_port(struct rdma_cm_id *id)
     * }
     *
     * The local port of an id.
     *
     * @param id a {@code struct rdma_cm_id}
     * @return the port in network byte order
     *         ({@code Short.toUnsignedInt(Short.reverseBytes(port))} on little-endian hosts)
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static short rdma_get_src_port(MemorySegment id) {
        requireNonNull("rdma_get_src_port", "id", id);
        try {
            return (short) rdma_get_src_port$.HANDLE.invokeExact(id);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_get_dst_port}. */
    public static final NativeFunction RDMA_GET_DST_PORT = NativeFunction.rdmacm(
            "__be16 rdma_get_dst_port(struct rdma_cm_id *id)",
            FunctionDescriptor.of(JAVA_SHORT, ADDRESS));

    private static final class rdma_get_dst_port$ {
        static final MethodHandle HANDLE = RDMA_GET_DST_PORT.link();
    }

    /**
     * {@snippet lang = c :
     * __be16 rdma_get_dst_port(struct rdma_cm_id *id)
     * }
     *
     * The peer's port of an id.
     *
     * @param id a {@code struct rdma_cm_id}
     * @return the port in network byte order
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static short rdma_get_dst_port(MemorySegment id) {
        requireNonNull("rdma_get_dst_port", "id", id);
        try {
            return (short) rdma_get_dst_port$.HANDLE.invokeExact(id);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- queue pairs

    /** Declaration of {@code rdma_create_qp}. */
    public static final NativeFunction RDMA_CREATE_QP = NativeFunction.rdmacmErrno(
            "int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

    private static final class rdma_create_qp$ {
        static final MethodHandle HANDLE = RDMA_CREATE_QP.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
     * }
     *
     * Creates a QP for an id whose address is resolved (or bound on a device); it is stored in
     * {@code id->qp} and moved through its states by librdmacm.
     *
     * @param callState    from {@link Errno#allocate}; holds errno after the call
     * @param id           a {@code struct rdma_cm_id}
     * @param pd           the protection domain, or NULL for the device's default one
     * @param qp_init_attr a {@code struct ibv_qp_init_attr}; its capabilities are updated
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL or {@code qp_init_attr} is NULL
     */
    public static int rdma_create_qp(MemorySegment callState, MemorySegment id, MemorySegment pd, MemorySegment qp_init_attr) {
        requireNonNull("rdma_create_qp", "id", id);
        requireNonNull("rdma_create_qp", "qp_init_attr", qp_init_attr);
        try {
            return (int) rdma_create_qp$.HANDLE.invokeExact(callState, id, pd, qp_init_attr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_destroy_qp}. */
    public static final NativeFunction RDMA_DESTROY_QP = NativeFunction.rdmacm(
            "void rdma_destroy_qp(struct rdma_cm_id *id)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class rdma_destroy_qp$ {
        static final MethodHandle HANDLE = RDMA_DESTROY_QP.link();
    }

    /**
     * {@snippet lang = c :
     * void rdma_destroy_qp(struct rdma_cm_id *id)
     * }
     *
     * Destroys the QP of an id.
     *
     * @param id a {@code struct rdma_cm_id}
     * @throws IllegalArgumentException if {@code id} is NULL
     */
    public static void rdma_destroy_qp(MemorySegment id) {
        requireNonNull("rdma_destroy_qp", "id", id);
        try {
            rdma_destroy_qp$.HANDLE.invokeExact(id);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_init_qp_attr}. */
    public static final NativeFunction RDMA_INIT_QP_ATTR = NativeFunction.rdmacmErrno(
            "int rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

    private static final class rdma_init_qp_attr$ {
        static final MethodHandle HANDLE = RDMA_INIT_QP_ATTR.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_init_qp_attr(struct rdma_cm_id *id, struct ibv_qp_attr *qp_attr, int *qp_attr_mask)
     * }
     *
     * Fills the attributes for moving a QP the application created itself to the state set in
     * {@code qp_attr->qp_state}.
     *
     * @param callState    from {@link Errno#allocate}; holds errno after the call
     * @param id           a {@code struct rdma_cm_id}
     * @param qp_attr      a {@code struct ibv_qp_attr}; its {@code qp_state} selects the transition
     * @param qp_attr_mask an {@code int} out-parameter; receives the mask for {@code ibv_modify_qp}
     * @return 0, or -1 (see errno)
     * @throws IllegalArgumentException if {@code id} is NULL or {@code qp_attr} is NULL or {@code qp_attr_mask} is NULL
     */
    public static int rdma_init_qp_attr(MemorySegment callState, MemorySegment id, MemorySegment qp_attr, MemorySegment qp_attr_mask) {
        requireNonNull("rdma_init_qp_attr", "id", id);
        requireNonNull("rdma_init_qp_attr", "qp_attr", qp_attr);
        requireNonNull("rdma_init_qp_attr", "qp_attr_mask", qp_attr_mask);
        try {
            return (int) rdma_init_qp_attr$.HANDLE.invokeExact(callState, id, qp_attr, qp_attr_mask);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- address translation

    /** Declaration of {@code rdma_getaddrinfo}. */
    public static final NativeFunction RDMA_GETADDRINFO = NativeFunction.rdmacmErrno(
            "int rdma_getaddrinfo(const char *node, const char *service, const struct rdma_addrinfo *hints, struct rdma_addrinfo **res)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));

    private static final class rdma_getaddrinfo$ {
        static final MethodHandle HANDLE = RDMA_GETADDRINFO.link();
    }

    /**
     * {@snippet lang = c :
     * int rdma_getaddrinfo(const char *node, const char *service, const struct rdma_addrinfo *hints, struct rdma_addrinfo **res)
     * }
     *
     * Resolves a node and service into RDMA addresses.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param node      a host name or numeric address (C string), or NULL
     * @param service   a port number (C string), or NULL
     * @param hints     a {@link rdma_addrinfo} with {@code ai_flags} / {@code ai_family} / {@code ai_port_space}, or NULL
     * @param res       a pointer out-parameter; receives a list to free with {@link #rdma_freeaddrinfo}
     * @return 0; -1 with errno set; or another negative value, an {@code EAI_*} code passed
     *         through from {@code getaddrinfo(3)} (errno then means nothing)
     * @throws IllegalArgumentException if {@code res} is NULL
     */
    public static int rdma_getaddrinfo(MemorySegment callState, MemorySegment node, MemorySegment service, MemorySegment hints, MemorySegment res) {
        requireNonNull("rdma_getaddrinfo", "res", res);
        try {
            return (int) rdma_getaddrinfo$.HANDLE.invokeExact(callState, node, service, hints, res);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code rdma_freeaddrinfo}. */
    public static final NativeFunction RDMA_FREEADDRINFO = NativeFunction.rdmacm(
            "void rdma_freeaddrinfo(struct rdma_addrinfo *res)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class rdma_freeaddrinfo$ {
        static final MethodHandle HANDLE = RDMA_FREEADDRINFO.link();
    }

    /**
     * {@snippet lang = c :
     * void rdma_freeaddrinfo(struct rdma_addrinfo *res)
     * }
     *
     * Frees an address list.
     *
     * @param res a list from {@link #rdma_getaddrinfo}, or NULL
     */
    public static void rdma_freeaddrinfo(MemorySegment res) {
        try {
            rdma_freeaddrinfo$.HANDLE.invokeExact(res);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- constants

    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_ADDR_RESOLVED. */
    public static final int RDMA_CM_EVENT_ADDR_RESOLVED = 0;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_ADDR_ERROR. */
    public static final int RDMA_CM_EVENT_ADDR_ERROR = 1;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_ROUTE_RESOLVED. */
    public static final int RDMA_CM_EVENT_ROUTE_RESOLVED = 2;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_ROUTE_ERROR. */
    public static final int RDMA_CM_EVENT_ROUTE_ERROR = 3;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_CONNECT_REQUEST. */
    public static final int RDMA_CM_EVENT_CONNECT_REQUEST = 4;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_CONNECT_RESPONSE. */
    public static final int RDMA_CM_EVENT_CONNECT_RESPONSE = 5;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_CONNECT_ERROR. */
    public static final int RDMA_CM_EVENT_CONNECT_ERROR = 6;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_UNREACHABLE. */
    public static final int RDMA_CM_EVENT_UNREACHABLE = 7;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_REJECTED. */
    public static final int RDMA_CM_EVENT_REJECTED = 8;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_ESTABLISHED. */
    public static final int RDMA_CM_EVENT_ESTABLISHED = 9;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_DISCONNECTED. */
    public static final int RDMA_CM_EVENT_DISCONNECTED = 10;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_DEVICE_REMOVAL. */
    public static final int RDMA_CM_EVENT_DEVICE_REMOVAL = 11;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_MULTICAST_JOIN. */
    public static final int RDMA_CM_EVENT_MULTICAST_JOIN = 12;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_MULTICAST_ERROR. */
    public static final int RDMA_CM_EVENT_MULTICAST_ERROR = 13;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_ADDR_CHANGE. */
    public static final int RDMA_CM_EVENT_ADDR_CHANGE = 14;
    /** {@code enum rdma_cm_event_type}: RDMA_CM_EVENT_TIMEWAIT_EXIT. */
    public static final int RDMA_CM_EVENT_TIMEWAIT_EXIT = 15;

    /** {@code enum rdma_port_space}: RDMA_PS_IPOIB. */
    public static final int RDMA_PS_IPOIB = 0x0002;
    /** {@code enum rdma_port_space}: RDMA_PS_TCP (reliable connected). */
    public static final int RDMA_PS_TCP = 0x0106;
    /** {@code enum rdma_port_space}: RDMA_PS_UDP (unreliable datagram). */
    public static final int RDMA_PS_UDP = 0x0111;
    /** {@code enum rdma_port_space}: RDMA_PS_IB. */
    public static final int RDMA_PS_IB = 0x013F;

    /** RDMA_UDP_QKEY: the Q_Key of UD QPs in RDMA_PS_UDP. */
    public static final int RDMA_UDP_QKEY = 0x01234567;
    /** RDMA_MAX_RESP_RES: the largest {@code responder_resources}. */
    public static final int RDMA_MAX_RESP_RES = 0xFF;
    /** RDMA_MAX_INIT_DEPTH: the largest {@code initiator_depth}. */
    public static final int RDMA_MAX_INIT_DEPTH = 0xFF;

    /** {@code rdma_addrinfo.ai_flags}: RAI_PASSIVE (an address to listen on). */
    public static final int RAI_PASSIVE = 0x00000001;
    /** {@code rdma_addrinfo.ai_flags}: RAI_NUMERICHOST (the node is a numeric address). */
    public static final int RAI_NUMERICHOST = 0x00000002;
    /** {@code rdma_addrinfo.ai_flags}: RAI_NOROUTE (do not resolve a route). */
    public static final int RAI_NOROUTE = 0x00000004;
    /** {@code rdma_addrinfo.ai_flags}: RAI_FAMILY (honour {@code ai_family}). */
    public static final int RAI_FAMILY = 0x00000008;

    /** Option level RDMA_OPTION_ID: options of the id itself. */
    public static final int RDMA_OPTION_ID = 0;
    /** Option level RDMA_OPTION_IB: InfiniBand options. */
    public static final int RDMA_OPTION_IB = 1;
    /** RDMA_OPTION_ID_TOS: {@code uint8_t} type of service (RFC 2474). */
    public static final int RDMA_OPTION_ID_TOS = 0;
    /** RDMA_OPTION_ID_REUSEADDR: {@code int}, like SO_REUSEADDR. */
    public static final int RDMA_OPTION_ID_REUSEADDR = 1;
    /** RDMA_OPTION_ID_AFONLY: {@code int}, like IPV6_V6ONLY. */
    public static final int RDMA_OPTION_ID_AFONLY = 2;
    /** RDMA_OPTION_ID_ACK_TIMEOUT: {@code uint8_t} QP ack timeout exponent. */
    public static final int RDMA_OPTION_ID_ACK_TIMEOUT = 3;
    /** RDMA_OPTION_IB_PATH: {@code struct ibv_path_data[]}. */
    public static final int RDMA_OPTION_IB_PATH = 1;

    private static void requireNonNull(String function, String param, MemorySegment p) {
        Objects.requireNonNull(p, () -> function + ": " + param + " is null");
        if (p.isNative() && p.address() == 0) {
            throw new IllegalArgumentException(function + ": " + param + " is NULL");
        }
    }
}
