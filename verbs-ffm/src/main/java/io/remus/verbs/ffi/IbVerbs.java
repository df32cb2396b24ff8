package io.remus.verbs.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Functions and constants of {@code <infiniband/verbs.h>} (libibverbs), in jextract's header
 * class shape: one static method per C function, named as in C.
 *
 * <p>Each function is declared by a {@link NativeFunction} constant (upper-case C name) and
 * linked lazily by a holder class on first call ({@link NativeFunction#link()}: a missing library
 * or symbol makes every call throw the {@link MissingLibraryReport}'s exception, the verbs layer's
 * {@code NativeLibraryMissingException}).
 *
 * <p>Where the header's name is not an exported symbol (rdma-core 44):
 * <ul>
 *   <li>{@code ibv_reg_mr} is a macro; from Java it always ends at the exported
 *       {@link #ibv_reg_mr_iova2} with {@code iova = addr} (the legacy symbol {@link #ibv_reg_mr}
 *       is declared too).</li>
 *   <li>{@code ibv_query_port} is a macro for the static inline {@code ___ibv_query_port};
 *       {@link #ibv_query_port(MemorySegment, byte, MemorySegment)} does what it does: it calls
 *       {@code verbs_context.query_port} ({@link #QUERY_PORT}) with {@code sizeof(struct ibv_port_attr)}
 *       and falls back to the exported compat symbol {@link #IBV_QUERY_PORT}.</li>
 *   <li>{@code ibv_query_device_ex} is static inline: {@link #ibv_query_device_ex} does what it
 *       does through {@code verbs_context.query_device_ex} ({@link #QUERY_DEVICE_EX}) and falls back
 *       to {@link #ibv_query_device}.</li>
 *   <li>{@code ibv_post_send}, {@code ibv_post_recv}, {@code ibv_poll_cq},
 *       {@code ibv_req_notify_cq} and {@code ibv_post_srq_recv} are static inline calls through
 *       {@code ibv_context_ops}: their methods here take the function address first; read it once
 *       per context with {@link #ops_post_send} and friends and cache it.</li>
 * </ul>
 */
public final class IbVerbs {
    private static final int EOPNOTSUPP = 95;

    private IbVerbs() {
    }

    // ---------------------------------------------------------------- device list

    /** Declaration of {@code ibv_get_device_list}. */
    public static final NativeFunction IBV_GET_DEVICE_LIST = NativeFunction.ibverbsErrno(
            "struct ibv_device **ibv_get_device_list(int *num_devices)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_get_device_list$ {
        static final MethodHandle HANDLE = IBV_GET_DEVICE_LIST.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_device **ibv_get_device_list(int *num_devices)
     * }
     *
     * @param callState   from {@link Errno#allocate}; holds errno after the call
     * @param num_devices an {@code int} out-parameter, or NULL
     * @return a NULL-terminated array of device pointers, or NULL (see errno)
     */
    public static MemorySegment ibv_get_device_list(MemorySegment callState, MemorySegment num_devices) {
        try {
            return (MemorySegment) ibv_get_device_list$.HANDLE.invokeExact(callState, num_devices);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_free_device_list}. */
    public static final NativeFunction IBV_FREE_DEVICE_LIST = NativeFunction.ibverbs(
            "void ibv_free_device_list(struct ibv_device **list)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class ibv_free_device_list$ {
        static final MethodHandle HANDLE = IBV_FREE_DEVICE_LIST.link();
    }

    /**
     * {@snippet lang = c:
     * void ibv_free_device_list(struct ibv_device **list)
     * }
     *
     * @param list the array from {@link #ibv_get_device_list}
     */
    public static void ibv_free_device_list(MemorySegment list) {
        try {
            ibv_free_device_list$.HANDLE.invokeExact(list);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_get_device_name}. */
    public static final NativeFunction IBV_GET_DEVICE_NAME = NativeFunction.ibverbs(
            "const char *ibv_get_device_name(struct ibv_device *device)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_get_device_name$ {
        static final MethodHandle HANDLE = IBV_GET_DEVICE_NAME.link();
    }

    /**
     * {@snippet lang = c:
     * const char *ibv_get_device_name(struct ibv_device *device)
     * }
     *
     * @param device a device from the list
     * @return its name (a NUL-terminated string owned by libibverbs)
     */
    public static MemorySegment ibv_get_device_name(MemorySegment device) {
        try {
            return (MemorySegment) ibv_get_device_name$.HANDLE.invokeExact(device);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_get_device_guid}. */
    public static final NativeFunction IBV_GET_DEVICE_GUID = NativeFunction.ibverbs(
            "__be64 ibv_get_device_guid(struct ibv_device *device)",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS));

    private static final class ibv_get_device_guid$ {
        static final MethodHandle HANDLE = IBV_GET_DEVICE_GUID.link();
    }

    /**
     * {@snippet lang = c:
     * __be64 ibv_get_device_guid(struct ibv_device *device)
     * }
     *
     * @param device a device from the list
     * @return the node GUID in network byte order (0 if unknown)
     */
    public static long ibv_get_device_guid(MemorySegment device) {
        try {
            return (long) ibv_get_device_guid$.HANDLE.invokeExact(device);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_open_device}. */
    public static final NativeFunction IBV_OPEN_DEVICE = NativeFunction.ibverbsErrno(
            "struct ibv_context *ibv_open_device(struct ibv_device *device)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_open_device$ {
        static final MethodHandle HANDLE = IBV_OPEN_DEVICE.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_context *ibv_open_device(struct ibv_device *device)
     * }
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param device    a device from the list
     * @return the context, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_open_device(MemorySegment callState, MemorySegment device) {
        try {
            return (MemorySegment) ibv_open_device$.HANDLE.invokeExact(callState, device);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_close_device}. */
    public static final NativeFunction IBV_CLOSE_DEVICE = NativeFunction.ibverbs(
            "int ibv_close_device(struct ibv_context *context)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_close_device$ {
        static final MethodHandle HANDLE = IBV_CLOSE_DEVICE.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_close_device(struct ibv_context *context)
     * }
     *
     * @param context a context from {@link #ibv_open_device}
     * @return 0, or an errno value on failure
     */
    public static int ibv_close_device(MemorySegment context) {
        try {
            return (int) ibv_close_device$.HANDLE.invokeExact(context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_query_device}. */
    public static final NativeFunction IBV_QUERY_DEVICE = NativeFunction.ibverbs(
            "int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class ibv_query_device$ {
        static final MethodHandle HANDLE = IBV_QUERY_DEVICE.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *device_attr)
     * }
     *
     * @param context     an open context
     * @param device_attr a {@link ibv_device_attr} to fill
     * @return 0, or an errno value on failure
     */
    public static int ibv_query_device(MemorySegment context, MemorySegment device_attr) {
        try {
            return (int) ibv_query_device$.HANDLE.invokeExact(context, device_attr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_query_gid}. */
    public static final NativeFunction IBV_QUERY_GID = NativeFunction.ibverbsErrno(
            "int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS));

    private static final class ibv_query_gid$ {
        static final MethodHandle HANDLE = IBV_QUERY_GID.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
     * }
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param context   an open context
     * @param port_num  the port (from 1)
     * @param index     the GID table index
     * @param gid       a {@link ibv_gid} to fill
     * @return 0, or -1 on failure (see errno)
     */
    public static int ibv_query_gid(MemorySegment callState, MemorySegment context, byte port_num, int index, MemorySegment gid) {
        try {
            return (int) ibv_query_gid$.HANDLE.invokeExact(callState, context, port_num, index, gid);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- port and extended device queries

    /** Declaration of the exported compat symbol {@code ibv_query_port} (the header hides it behind a macro). */
    public static final NativeFunction IBV_QUERY_PORT = NativeFunction.ibverbs(
            "int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *port_attr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS));

    private static final class ibv_query_port$ {
        static final MethodHandle HANDLE = IBV_QUERY_PORT.link();
    }

    /** Declaration of the extension function pointer {@code verbs_context.query_port}. */
    public static final NativeFunction QUERY_PORT = NativeFunction.pointer("verbs_context",
            "int query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr, size_t port_attr_len)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS, JAVA_LONG), false);

    private static final class query_port$ {
        static final MethodHandle HANDLE = QUERY_PORT.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct ibv_port_attr *port_attr)
     * }
     *
     * <p>What C code calling the {@code ibv_query_port} macro gets ({@code ___ibv_query_port}):
     * {@code verbs_context.query_port(context, port_num, port_attr, sizeof(struct ibv_port_attr))}
     * where the context has that extension, else the zeroed struct is passed to the exported compat
     * symbol, which fills the legacy prefix.
     *
     * @param context   an open context (not NULL)
     * @param port_num  the port (from 1)
     * @param port_attr an {@link ibv_port_attr} of at least {@link ibv_port_attr#sizeof()} bytes
     * @return 0, or an errno value on failure
     * @throws IllegalArgumentException if {@code context} is NULL or {@code port_attr} is too small
     */
    public static int ibv_query_port(MemorySegment context, byte port_num, MemorySegment port_attr) {
        requireSize(port_attr, ibv_port_attr.sizeof(), "port_attr");
        MemorySegment fn = verbs_get_ctx_op(context, verbs_context.query_port$OFFSET);
        try {
            if (fn.equals(MemorySegment.NULL)) {
                port_attr.asSlice(0, ibv_port_attr.sizeof()).fill((byte) 0);
                return (int) ibv_query_port$.HANDLE.invokeExact(context, port_num, port_attr);
            }
            return (int) query_port$.HANDLE.invokeExact(fn, context, port_num, port_attr, ibv_port_attr.sizeof());
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of the extension function pointer {@code verbs_context.query_device_ex}. */
    public static final NativeFunction QUERY_DEVICE_EX = NativeFunction.pointer("verbs_context",
            "int query_device_ex(struct ibv_context *context, const struct ibv_query_device_ex_input *input, struct ibv_device_attr_ex *attr, size_t attr_size)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), false);

    private static final class query_device_ex$ {
        static final MethodHandle HANDLE = QUERY_DEVICE_EX.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int ibv_query_device_ex(struct ibv_context *context, const struct ibv_query_device_ex_input *input, struct ibv_device_attr_ex *attr)
     * }
     *
     * <p>Static inline in the header, no symbol: this does what it does. EINVAL if
     * {@code input->comp_mask} is set; {@code verbs_context.query_device_ex(context, input, attr,
     * sizeof(struct ibv_device_attr_ex))} where the context has it; else, or if that reports
     * EOPNOTSUPP or ENOSYS, the zeroed {@code attr} gets {@link #ibv_query_device} in {@code orig_attr}.
     *
     * @param context an open context (not NULL)
     * @param input   an {@link ibv_query_device_ex_input}, or NULL
     * @param attr    an {@link ibv_device_attr_ex} of at least {@link ibv_device_attr_ex#sizeof()} bytes
     * @return 0, or an errno value on failure
     * @throws IllegalArgumentException if {@code context} is NULL or {@code attr} is too small
     */
    public static int ibv_query_device_ex(MemorySegment context, MemorySegment input, MemorySegment attr) {
        requireSize(attr, ibv_device_attr_ex.sizeof(), "attr");
        if (!input.equals(MemorySegment.NULL)
                && ibv_query_device_ex_input.comp_mask(input.reinterpret(ibv_query_device_ex_input.sizeof())) != 0) {
            return Errno.EINVAL;
        }
        MemorySegment fn = verbs_get_ctx_op(context, verbs_context.query_device_ex$OFFSET);
        if (!fn.equals(MemorySegment.NULL)) {
            int ret;
            try {
                ret = (int) query_device_ex$.HANDLE.invokeExact(fn, context, input, attr, ibv_device_attr_ex.sizeof());
            } catch (Throwable t) {
                throw Downcalls.rethrow(t);
            }
            if (ret != EOPNOTSUPP && ret != Errno.ENOSYS) {
                return ret;
            }
        }
        attr.asSlice(0, ibv_device_attr_ex.sizeof()).fill((byte) 0);
        return ibv_query_device(context, ibv_device_attr_ex.orig_attr(attr));
    }

    // ---------------------------------------------------------------- protection domains and memory regions

    /** Declaration of {@code ibv_alloc_pd}. */
    public static final NativeFunction IBV_ALLOC_PD = NativeFunction.ibverbsErrno(
            "struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_alloc_pd$ {
        static final MethodHandle HANDLE = IBV_ALLOC_PD.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
     * }
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param context   an open context
     * @return the protection domain, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_alloc_pd(MemorySegment callState, MemorySegment context) {
        try {
            return (MemorySegment) ibv_alloc_pd$.HANDLE.invokeExact(callState, context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_dealloc_pd}. */
    public static final NativeFunction IBV_DEALLOC_PD = NativeFunction.ibverbs(
            "int ibv_dealloc_pd(struct ibv_pd *pd)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_dealloc_pd$ {
        static final MethodHandle HANDLE = IBV_DEALLOC_PD.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_dealloc_pd(struct ibv_pd *pd)
     * }
     *
     * @param pd a protection domain with no live children
     * @return 0, or an errno value on failure
     */
    public static int ibv_dealloc_pd(MemorySegment pd) {
        try {
            return (int) ibv_dealloc_pd$.HANDLE.invokeExact(pd);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_reg_mr_iova2}. */
    public static final NativeFunction IBV_REG_MR_IOVA2 = NativeFunction.ibverbsErrno(
            "struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT));

    private static final class ibv_reg_mr_iova2$ {
        static final MethodHandle HANDLE = IBV_REG_MR_IOVA2.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access)
     * }
     *
     * <p>The exported entry that the {@code ibv_reg_mr} macro of rdma-core 44 ends at whenever the access
     * flags are not a compile-time constant (always, from Java): {@code __ibv_reg_mr} calls
     * {@code ibv_reg_mr_iova2(pd, addr, length, (uintptr_t) addr, access)}. Unlike the legacy symbol
     * {@link #ibv_reg_mr}, it accepts the optional access flags ({@link #IBV_ACCESS_RELAXED_ORDERING}) and
     * drops them where the device lacks them.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param pd        the protection domain
     * @param addr      start of the memory to register
     * @param length    its length in bytes
     * @param iova      the address the remote side uses ({@code addr} for plain {@code ibv_reg_mr})
     * @param access    {@code IBV_ACCESS_*} flags
     * @return the memory region, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_reg_mr_iova2(MemorySegment callState, MemorySegment pd, MemorySegment addr, long length, long iova, int access) {
        try {
            return (MemorySegment) ibv_reg_mr_iova2$.HANDLE.invokeExact(callState, pd, addr, length, iova, access);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_reg_mr}. */
    public static final NativeFunction IBV_REG_MR = NativeFunction.ibverbsErrno(
            "struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));

    private static final class ibv_reg_mr$ {
        static final MethodHandle HANDLE = IBV_REG_MR.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)
     * }
     *
     * <p>The legacy exported symbol (what the {@code ibv_reg_mr} macro calls only for constant access flags
     * outside {@link #IBV_ACCESS_OPTIONAL_RANGE}). Prefer {@link #ibv_reg_mr_iova2} with
     * {@code iova = addr}, which is what C code calling {@code ibv_reg_mr} gets.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param pd        the protection domain
     * @param addr      start of the memory to register
     * @param length    its length in bytes
     * @param access    {@code IBV_ACCESS_*} flags, none of {@link #IBV_ACCESS_OPTIONAL_RANGE}
     * @return the memory region, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_reg_mr(MemorySegment callState, MemorySegment pd, MemorySegment addr, long length, int access) {
        try {
            return (MemorySegment) ibv_reg_mr$.HANDLE.invokeExact(callState, pd, addr, length, access);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_dereg_mr}. */
    public static final NativeFunction IBV_DEREG_MR = NativeFunction.ibverbs(
            "int ibv_dereg_mr(struct ibv_mr *mr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_dereg_mr$ {
        static final MethodHandle HANDLE = IBV_DEREG_MR.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_dereg_mr(struct ibv_mr *mr)
     * }
     *
     * @param mr a memory region
     * @return 0, or an errno value on failure
     */
    public static int ibv_dereg_mr(MemorySegment mr) {
        try {
            return (int) ibv_dereg_mr$.HANDLE.invokeExact(mr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- completion channels and completion queues

    /** Declaration of {@code ibv_create_comp_channel}. */
    public static final NativeFunction IBV_CREATE_COMP_CHANNEL = NativeFunction.ibverbsErrno(
            "struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_create_comp_channel$ {
        static final MethodHandle HANDLE = IBV_CREATE_COMP_CHANNEL.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)
     * }
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param context   an open context
     * @return the channel, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_create_comp_channel(MemorySegment callState, MemorySegment context) {
        try {
            return (MemorySegment) ibv_create_comp_channel$.HANDLE.invokeExact(callState, context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_destroy_comp_channel}. */
    public static final NativeFunction IBV_DESTROY_COMP_CHANNEL = NativeFunction.ibverbs(
            "int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_destroy_comp_channel$ {
        static final MethodHandle HANDLE = IBV_DESTROY_COMP_CHANNEL.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_destroy_comp_channel(struct ibv_comp_channel *channel)
     * }
     *
     * @param channel a channel no CQ uses any more
     * @return 0, or EBUSY while CQs use it
     */
    public static int ibv_destroy_comp_channel(MemorySegment channel) {
        try {
            return (int) ibv_destroy_comp_channel$.HANDLE.invokeExact(channel);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_create_cq}. */
    public static final NativeFunction IBV_CREATE_CQ = NativeFunction.ibverbsErrno(
            "struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));

    private static final class ibv_create_cq$ {
        static final MethodHandle HANDLE = IBV_CREATE_CQ.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)
     * }
     *
     * @param callState   from {@link Errno#allocate}; holds errno after the call
     * @param context     an open context
     * @param cqe         the minimum number of entries
     * @param cq_context  user data returned by {@link #ibv_get_cq_event}, or NULL
     * @param channel     a completion channel, or NULL
     * @param comp_vector the completion vector, below {@code context->num_comp_vectors}
     * @return the completion queue, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_create_cq(MemorySegment callState, MemorySegment context, int cqe, MemorySegment cq_context, MemorySegment channel, int comp_vector) {
        try {
            return (MemorySegment) ibv_create_cq$.HANDLE.invokeExact(callState, context, cqe, cq_context, channel, comp_vector);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_destroy_cq}. */
    public static final NativeFunction IBV_DESTROY_CQ = NativeFunction.ibverbs(
            "int ibv_destroy_cq(struct ibv_cq *cq)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_destroy_cq$ {
        static final MethodHandle HANDLE = IBV_DESTROY_CQ.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_destroy_cq(struct ibv_cq *cq)
     * }
     *
     * @param cq a completion queue no QP uses any more
     * @return 0, or an errno value on failure
     */
    public static int ibv_destroy_cq(MemorySegment cq) {
        try {
            return (int) ibv_destroy_cq$.HANDLE.invokeExact(cq);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_get_cq_event}. */
    public static final NativeFunction IBV_GET_CQ_EVENT = NativeFunction.ibverbsErrno(
            "int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));

    private static final class ibv_get_cq_event$ {
        static final MethodHandle HANDLE = IBV_GET_CQ_EVENT.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)
     * }
     *
     * <p>Blocks until the channel has an event (unless its fd is non-blocking): never call it from a
     * critical downcall.
     *
     * @param callState  from {@link Errno#allocate}; holds errno after the call
     * @param channel    the completion channel
     * @param cq         a pointer out-parameter for the CQ
     * @param cq_context a pointer out-parameter for the CQ's user data
     * @return 0, or -1 on failure (see errno)
     */
    public static int ibv_get_cq_event(MemorySegment callState, MemorySegment channel, MemorySegment cq, MemorySegment cq_context) {
        try {
            return (int) ibv_get_cq_event$.HANDLE.invokeExact(callState, channel, cq, cq_context);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_ack_cq_events}. */
    public static final NativeFunction IBV_ACK_CQ_EVENTS = NativeFunction.ibverbs(
            "void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)",
            FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));

    private static final class ibv_ack_cq_events$ {
        static final MethodHandle HANDLE = IBV_ACK_CQ_EVENTS.link();
    }

    /**
     * {@snippet lang = c:
     * void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
     * }
     *
     * @param cq      the completion queue
     * @param nevents how many events to acknowledge
     */
    public static void ibv_ack_cq_events(MemorySegment cq, int nevents) {
        try {
            ibv_ack_cq_events$.HANDLE.invokeExact(cq, nevents);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- asynchronous events

    /** Declaration of {@code ibv_get_async_event}. */
    public static final NativeFunction IBV_GET_ASYNC_EVENT = NativeFunction.ibverbsErrno(
            "int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private static final class ibv_get_async_event$ {
        static final MethodHandle HANDLE = IBV_GET_ASYNC_EVENT.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
     * }
     *
     * <p>Blocks until the device has an event (unless {@code context->async_fd} is non-blocking):
     * never call it from a critical downcall. Every event taken must be acknowledged with
     * {@link #ibv_ack_async_event}: destroying the QP, CQ or SRQ it names waits for that.
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param context   the device context
     * @param event     a {@link ibv_async_event} to fill
     * @return 0, or -1 on failure (see errno; EAGAIN: none, on a non-blocking fd)
     */
    public static int ibv_get_async_event(MemorySegment callState, MemorySegment context, MemorySegment event) {
        try {
            return (int) ibv_get_async_event$.HANDLE.invokeExact(callState, context, event);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_ack_async_event}. */
    public static final NativeFunction IBV_ACK_ASYNC_EVENT = NativeFunction.ibverbs(
            "void ibv_ack_async_event(struct ibv_async_event *event)",
            FunctionDescriptor.ofVoid(ADDRESS));

    private static final class ibv_ack_async_event$ {
        static final MethodHandle HANDLE = IBV_ACK_ASYNC_EVENT.link();
    }

    /**
     * {@snippet lang = c:
     * void ibv_ack_async_event(struct ibv_async_event *event)
     * }
     *
     * @param event an event from {@link #ibv_get_async_event}
     */
    public static void ibv_ack_async_event(MemorySegment event) {
        try {
            ibv_ack_async_event$.HANDLE.invokeExact(event);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- queue pairs

    /** Declaration of {@code ibv_create_qp}. */
    public static final NativeFunction IBV_CREATE_QP = NativeFunction.ibverbsErrno(
            "struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));

    private static final class ibv_create_qp$ {
        static final MethodHandle HANDLE = IBV_CREATE_QP.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)
     * }
     *
     * @param callState    from {@link Errno#allocate}; holds errno after the call
     * @param pd           the protection domain
     * @param qp_init_attr a {@link ibv_qp_init_attr}; {@code cap} is updated with the actual values
     * @return the queue pair, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_create_qp(MemorySegment callState, MemorySegment pd, MemorySegment qp_init_attr) {
        try {
            return (MemorySegment) ibv_create_qp$.HANDLE.invokeExact(callState, pd, qp_init_attr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_modify_qp}. */
    public static final NativeFunction IBV_MODIFY_QP = NativeFunction.ibverbs(
            "int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));

    private static final class ibv_modify_qp$ {
        static final MethodHandle HANDLE = IBV_MODIFY_QP.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)
     * }
     *
     * @param qp        the queue pair
     * @param attr      a {@link ibv_qp_attr}
     * @param attr_mask {@code IBV_QP_*} bits saying which members of {@code attr} to apply
     * @return 0, or an errno value on failure
     */
    public static int ibv_modify_qp(MemorySegment qp, MemorySegment attr, int attr_mask) {
        try {
            return (int) ibv_modify_qp$.HANDLE.invokeExact(qp, attr, attr_mask);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_query_qp}. */
    public static final NativeFunction IBV_QUERY_QP = NativeFunction.ibverbs(
            "int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS));

    private static final class ibv_query_qp$ {
        static final MethodHandle HANDLE = IBV_QUERY_QP.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)
     * }
     *
     * @param qp        the queue pair
     * @param attr      a {@link ibv_qp_attr} to fill
     * @param attr_mask {@code IBV_QP_*} bits to query
     * @param init_attr a {@link ibv_qp_init_attr} to fill
     * @return 0, or an errno value on failure
     */
    public static int ibv_query_qp(MemorySegment qp, MemorySegment attr, int attr_mask, MemorySegment init_attr) {
        try {
            return (int) ibv_query_qp$.HANDLE.invokeExact(qp, attr, attr_mask, init_attr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_destroy_qp}. */
    public static final NativeFunction IBV_DESTROY_QP = NativeFunction.ibverbs(
            "int ibv_destroy_qp(struct ibv_qp *qp)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_destroy_qp$ {
        static final MethodHandle HANDLE = IBV_DESTROY_QP.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_destroy_qp(struct ibv_qp *qp)
     * }
     *
     * @param qp the queue pair
     * @return 0, or an errno value on failure
     */
    public static int ibv_destroy_qp(MemorySegment qp) {
        try {
            return (int) ibv_destroy_qp$.HANDLE.invokeExact(qp);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_qp_to_qp_ex}. */
    public static final NativeFunction IBV_QP_TO_QP_EX = NativeFunction.ibverbs(
            "struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)",
            FunctionDescriptor.of(ADDRESS, ADDRESS));

    private static final class ibv_qp_to_qp_ex$ {
        static final MethodHandle HANDLE = IBV_QP_TO_QP_EX.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)
     * }
     *
     * @param qp a queue pair
     * @return the extended QP ({@link ibv_qp_ex}), or NULL if the QP was not created with {@code ibv_create_qp_ex} and send ops flags
     */
    public static MemorySegment ibv_qp_to_qp_ex(MemorySegment qp) {
        try {
            return (MemorySegment) ibv_qp_to_qp_ex$.HANDLE.invokeExact(qp);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- shared receive queues and address handles

    /** Declaration of {@code ibv_create_srq}. */
    public static final NativeFunction IBV_CREATE_SRQ = NativeFunction.ibverbsErrno(
            "struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *srq_init_attr)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));

    private static final class ibv_create_srq$ {
        static final MethodHandle HANDLE = IBV_CREATE_SRQ.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *srq_init_attr)
     * }
     *
     * @param callState     from {@link Errno#allocate}; holds errno after the call
     * @param pd            the protection domain
     * @param srq_init_attr a {@link ibv_srq_init_attr}; {@code attr} is updated with the actual values
     * @return the shared receive queue, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_create_srq(MemorySegment callState, MemorySegment pd, MemorySegment srq_init_attr) {
        try {
            return (MemorySegment) ibv_create_srq$.HANDLE.invokeExact(callState, pd, srq_init_attr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_modify_srq}. */
    public static final NativeFunction IBV_MODIFY_SRQ = NativeFunction.ibverbs(
            "int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));

    private static final class ibv_modify_srq$ {
        static final MethodHandle HANDLE = IBV_MODIFY_SRQ.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)
     * }
     *
     * @param srq           the shared receive queue
     * @param srq_attr      a {@link ibv_srq_attr}
     * @param srq_attr_mask {@code IBV_SRQ_MAX_WR} and/or {@code IBV_SRQ_LIMIT}
     * @return 0, or an errno value on failure
     */
    public static int ibv_modify_srq(MemorySegment srq, MemorySegment srq_attr, int srq_attr_mask) {
        try {
            return (int) ibv_modify_srq$.HANDLE.invokeExact(srq, srq_attr, srq_attr_mask);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_destroy_srq}. */
    public static final NativeFunction IBV_DESTROY_SRQ = NativeFunction.ibverbs(
            "int ibv_destroy_srq(struct ibv_srq *srq)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_destroy_srq$ {
        static final MethodHandle HANDLE = IBV_DESTROY_SRQ.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_destroy_srq(struct ibv_srq *srq)
     * }
     *
     * @param srq the shared receive queue
     * @return 0, or an errno value on failure
     */
    public static int ibv_destroy_srq(MemorySegment srq) {
        try {
            return (int) ibv_destroy_srq$.HANDLE.invokeExact(srq);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_create_ah}. */
    public static final NativeFunction IBV_CREATE_AH = NativeFunction.ibverbsErrno(
            "struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));

    private static final class ibv_create_ah$ {
        static final MethodHandle HANDLE = IBV_CREATE_AH.link();
    }

    /**
     * {@snippet lang = c:
     * struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
     * }
     *
     * @param callState from {@link Errno#allocate}; holds errno after the call
     * @param pd        the protection domain
     * @param attr      a {@link ibv_ah_attr}
     * @return the address handle, or NULL on failure (see errno)
     */
    public static MemorySegment ibv_create_ah(MemorySegment callState, MemorySegment pd, MemorySegment attr) {
        try {
            return (MemorySegment) ibv_create_ah$.HANDLE.invokeExact(callState, pd, attr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_destroy_ah}. */
    public static final NativeFunction IBV_DESTROY_AH = NativeFunction.ibverbs(
            "int ibv_destroy_ah(struct ibv_ah *ah)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private static final class ibv_destroy_ah$ {
        static final MethodHandle HANDLE = IBV_DESTROY_AH.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_destroy_ah(struct ibv_ah *ah)
     * }
     *
     * @param ah the address handle
     * @return 0, or an errno value on failure
     */
    public static int ibv_destroy_ah(MemorySegment ah) {
        try {
            return (int) ibv_destroy_ah$.HANDLE.invokeExact(ah);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- misc

    /** Declaration of {@code ibv_wc_status_str}. */
    public static final NativeFunction IBV_WC_STATUS_STR = NativeFunction.ibverbs(
            "const char *ibv_wc_status_str(enum ibv_wc_status status)",
            FunctionDescriptor.of(ADDRESS, JAVA_INT));

    private static final class ibv_wc_status_str$ {
        static final MethodHandle HANDLE = IBV_WC_STATUS_STR.link();
    }

    /**
     * {@snippet lang = c:
     * const char *ibv_wc_status_str(enum ibv_wc_status status)
     * }
     *
     * @param status an {@code IBV_WC_*} status
     * @return its text (a static NUL-terminated string)
     */
    public static MemorySegment ibv_wc_status_str(int status) {
        try {
            return (MemorySegment) ibv_wc_status_str$.HANDLE.invokeExact(status);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of {@code ibv_fork_init}. */
    public static final NativeFunction IBV_FORK_INIT = NativeFunction.ibverbs(
            "int ibv_fork_init(void)",
            FunctionDescriptor.of(JAVA_INT));

    private static final class ibv_fork_init$ {
        static final MethodHandle HANDLE = IBV_FORK_INIT.link();
    }

    /**
     * {@snippet lang = c:
     * int ibv_fork_init(void)
     * }
     *
     * <p>Call before any other verb if the process may fork while memory is registered.
     *
     * @return 0, or an errno value on failure
     */
    public static int ibv_fork_init() {
        try {
            return (int) ibv_fork_init$.HANDLE.invokeExact();
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- static inline verbs: provider function pointers in ibv_context_ops

    /** Declaration of the provider function pointer {@code ibv_context_ops.post_send}. */
    public static final NativeFunction POST_SEND = NativeFunction.pointer("ibv_context_ops",
            "int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), true);

    private static final class ibv_post_send$ {
        static final MethodHandle HANDLE = POST_SEND.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
     * }
     *
     * <p>The static inline {@code ibv_post_send}: {@code qp->context->ops.post_send(qp, wr, bad_wr)}.
     * Linked critical: it never blocks.
     *
     * @param fn     the function address, read once from the {@code ibv_context_ops} table
     * @param qp     the queue pair
     * @param wr     the first {@link ibv_send_wr} of a list
     * @param bad_wr a pointer out-parameter: the first WR that failed
     * @return 0, or an errno value on failure
     */
    public static int ibv_post_send(MemorySegment fn, MemorySegment qp, MemorySegment wr, MemorySegment bad_wr) {
        try {
            return (int) ibv_post_send$.HANDLE.invokeExact(fn, qp, wr, bad_wr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of the provider function pointer {@code ibv_context_ops.post_recv}. */
    public static final NativeFunction POST_RECV = NativeFunction.pointer("ibv_context_ops",
            "int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), true);

    private static final class ibv_post_recv$ {
        static final MethodHandle HANDLE = POST_RECV.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
     * }
     *
     * <p>The static inline {@code ibv_post_recv}: {@code qp->context->ops.post_recv(qp, wr, bad_wr)}.
     * Linked critical: it never blocks.
     *
     * @param fn     the function address, read once from the {@code ibv_context_ops} table
     * @param qp     the queue pair
     * @param wr     the first {@link ibv_recv_wr} of a list
     * @param bad_wr a pointer out-parameter: the first WR that failed
     * @return 0, or an errno value on failure
     */
    public static int ibv_post_recv(MemorySegment fn, MemorySegment qp, MemorySegment wr, MemorySegment bad_wr) {
        try {
            return (int) ibv_post_recv$.HANDLE.invokeExact(fn, qp, wr, bad_wr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of the provider function pointer {@code ibv_context_ops.poll_cq}. */
    public static final NativeFunction POLL_CQ = NativeFunction.pointer("ibv_context_ops",
            "int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), true);

    private static final class ibv_poll_cq$ {
        static final MethodHandle HANDLE = POLL_CQ.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
     * }
     *
     * <p>The static inline {@code ibv_poll_cq}: {@code cq->context->ops.poll_cq(cq, num_entries, wc)}.
     * Linked critical: it never blocks.
     *
     * @param fn          the function address, read once from the {@code ibv_context_ops} table
     * @param cq          the completion queue
     * @param num_entries the capacity of {@code wc}, in entries
     * @param wc          an array of {@code num_entries} {@link ibv_wc}
     * @return the number of completions written (0 if none), or a negative value on failure
     */
    public static int ibv_poll_cq(MemorySegment fn, MemorySegment cq, int num_entries, MemorySegment wc) {
        try {
            return (int) ibv_poll_cq$.HANDLE.invokeExact(fn, cq, num_entries, wc);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of the provider function pointer {@code ibv_context_ops.req_notify_cq}. */
    public static final NativeFunction REQ_NOTIFY_CQ = NativeFunction.pointer("ibv_context_ops",
            "int req_notify_cq(struct ibv_cq *cq, int solicited_only)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT), false);

    private static final class ibv_req_notify_cq$ {
        static final MethodHandle HANDLE = REQ_NOTIFY_CQ.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int req_notify_cq(struct ibv_cq *cq, int solicited_only)
     * }
     *
     * <p>The static inline {@code ibv_req_notify_cq}: {@code cq->context->ops.req_notify_cq(cq, solicited_only)}.
     *
     * @param fn             the function address, read once from the {@code ibv_context_ops} table
     * @param cq             the completion queue
     * @param solicited_only non-zero to be notified of solicited completions only
     * @return 0, or an errno value on failure
     */
    public static int ibv_req_notify_cq(MemorySegment fn, MemorySegment cq, int solicited_only) {
        try {
            return (int) ibv_req_notify_cq$.HANDLE.invokeExact(fn, cq, solicited_only);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    /** Declaration of the provider function pointer {@code ibv_context_ops.post_srq_recv}. */
    public static final NativeFunction POST_SRQ_RECV = NativeFunction.pointer("ibv_context_ops",
            "int post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr, struct ibv_recv_wr **bad_recv_wr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), true);

    private static final class ibv_post_srq_recv$ {
        static final MethodHandle HANDLE = POST_SRQ_RECV.downcallUnbound();
    }

    /**
     * {@snippet lang = c:
     * int post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr, struct ibv_recv_wr **bad_recv_wr)
     * }
     *
     * <p>The static inline {@code ibv_post_srq_recv}: {@code srq->context->ops.post_srq_recv(srq, recv_wr, bad_recv_wr)}.
     * Linked critical: it never blocks.
     *
     * @param fn          the function address, read once from the {@code ibv_context_ops} table
     * @param srq         the shared receive queue
     * @param recv_wr     the first {@link ibv_recv_wr} of a list
     * @param bad_recv_wr a pointer out-parameter: the first WR that failed
     * @return 0, or an errno value on failure
     */
    public static int ibv_post_srq_recv(MemorySegment fn, MemorySegment srq, MemorySegment recv_wr, MemorySegment bad_recv_wr) {
        try {
            return (int) ibv_post_srq_recv$.HANDLE.invokeExact(fn, srq, recv_wr, bad_recv_wr);
        } catch (Throwable t) {
            throw Downcalls.rethrow(t);
        }
    }

    // ---------------------------------------------------------------- reading function pointers out of a context

    /**
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @return {@code context->ops.post_send}, for {@link #ibv_post_send}
     * @throws IllegalArgumentException if {@code context} is NULL
     * @throws IllegalStateException    if the provider leaves the pointer NULL
     */
    public static MemorySegment ops_post_send(MemorySegment context) {
        return op(context, ibv_context_ops.post_send$OFFSET, "post_send");
    }

    /**
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @return {@code context->ops.post_recv}, for {@link #ibv_post_recv}
     * @throws IllegalArgumentException if {@code context} is NULL
     * @throws IllegalStateException    if the provider leaves the pointer NULL
     */
    public static MemorySegment ops_post_recv(MemorySegment context) {
        return op(context, ibv_context_ops.post_recv$OFFSET, "post_recv");
    }

    /**
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @return {@code context->ops.poll_cq}, for {@link #ibv_poll_cq}
     * @throws IllegalArgumentException if {@code context} is NULL
     * @throws IllegalStateException    if the provider leaves the pointer NULL
     */
    public static MemorySegment ops_poll_cq(MemorySegment context) {
        return op(context, ibv_context_ops.poll_cq$OFFSET, "poll_cq");
    }

    /**
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @return {@code context->ops.req_notify_cq}, for {@link #ibv_req_notify_cq}
     * @throws IllegalArgumentException if {@code context} is NULL
     * @throws IllegalStateException    if the provider leaves the pointer NULL
     */
    public static MemorySegment ops_req_notify_cq(MemorySegment context) {
        return op(context, ibv_context_ops.req_notify_cq$OFFSET, "req_notify_cq");
    }

    /**
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @return {@code context->ops.post_srq_recv}, for {@link #ibv_post_srq_recv}
     * @throws IllegalArgumentException if {@code context} is NULL
     * @throws IllegalStateException    if the provider leaves the pointer NULL
     */
    public static MemorySegment ops_post_srq_recv(MemorySegment context) {
        return op(context, ibv_context_ops.post_srq_recv$OFFSET, "post_srq_recv");
    }

    private static MemorySegment op(MemorySegment context, long member, String name) {
        MemorySegment fn = contextOf(context).get(ADDRESS, ibv_context.ops$OFFSET + member);
        if (fn.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the provider has no ibv_context_ops." + name);
        }
        return fn;
    }

    // ---------------------------------------------------------------- verbs_context (the extension table)

    /**
     * {@snippet lang = c:
     * static inline struct verbs_context *verbs_get_ctx(struct ibv_context *ctx)
     * }
     *
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @return the {@link verbs_context} that contains it, or NULL if the context has no extension table
     * @throws IllegalArgumentException if {@code context} is NULL
     */
    public static MemorySegment verbs_get_ctx(MemorySegment context) {
        MemorySegment c = contextOf(context);
        if (ibv_context.abi_compat(c).address() != -1L) {
            return MemorySegment.NULL;
        }
        return MemorySegment.ofAddress(c.address() - verbs_context.context$OFFSET).reinterpret(verbs_context.sizeof());
    }

    /**
     * The {@code verbs_get_ctx_op(ctx, op)} macro, returning the operation's address instead of the table.
     *
     * @param context an open {@code struct ibv_context *} (not NULL)
     * @param member  the offset of the operation in {@link verbs_context}, e.g. {@code verbs_context.query_port$OFFSET}
     * @return the function address, or NULL if the provider's table is too old to have it or leaves it NULL
     * @throws IllegalArgumentException if {@code context} is NULL
     */
    public static MemorySegment verbs_get_ctx_op(MemorySegment context, long member) {
        MemorySegment vctx = verbs_get_ctx(context);
        if (vctx.equals(MemorySegment.NULL) || verbs_context.sz(vctx) < verbs_context.sizeof() - member) {
            return MemorySegment.NULL;
        }
        return vctx.get(ADDRESS, member);
    }

    private static MemorySegment contextOf(MemorySegment context) {
        if (context == null || context.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("context is NULL");
        }
        return context.reinterpret(ibv_context.sizeof());
    }

    private static void requireSize(MemorySegment s, long size, String name) {
        if (s == null || s.byteSize() < size) {
            throw new IllegalArgumentException(name + " must be a segment of at least " + size + " bytes, got "
                    + (s == null ? "null" : s.byteSize()));
        }
    }

    /**
     * {@snippet lang = c:
     * struct verbs_context {
     *     int (*query_port)(struct ibv_context *context, uint8_t port_num,
     *                       struct ibv_port_attr *port_attr, size_t port_attr_len);
     *     ... 36 more function pointers (see verbs.h) ...
     *     int (*query_device_ex)(struct ibv_context *context,
     *                            const struct ibv_query_device_ex_input *input,
     *                            struct ibv_device_attr_ex *attr, size_t attr_size);
     *     ...
     *     uint64_t _ABI_placeholder3;
     *     size_t   sz;
     *     struct ibv_context context;
     * };
     * }
     *
     * <p>The extension table libibverbs places in front of every {@code struct ibv_context}; new
     * members are added at the front, so a provider's table may be shorter than this one
     * ({@code sz} says how long it is). It lives here rather than in a class of its own because
     * only the static inline verbs of this header use it.
     */
    @SuppressWarnings("checkstyle:TypeName")
    public static final class verbs_context {
        private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
                ADDRESS.withName("query_port"),
                ADDRESS.withName("advise_mr"),
                ADDRESS.withName("alloc_null_mr"),
                ADDRESS.withName("read_counters"),
                ADDRESS.withName("attach_counters_point_flow"),
                ADDRESS.withName("create_counters"),
                ADDRESS.withName("destroy_counters"),
                ADDRESS.withName("reg_dm_mr"),
                ADDRESS.withName("alloc_dm"),
                ADDRESS.withName("free_dm"),
                ADDRESS.withName("modify_flow_action_esp"),
                ADDRESS.withName("destroy_flow_action"),
                ADDRESS.withName("create_flow_action_esp"),
                ADDRESS.withName("modify_qp_rate_limit"),
                ADDRESS.withName("alloc_parent_domain"),
                ADDRESS.withName("dealloc_td"),
                ADDRESS.withName("alloc_td"),
                ADDRESS.withName("modify_cq"),
                ADDRESS.withName("post_srq_ops"),
                ADDRESS.withName("destroy_rwq_ind_table"),
                ADDRESS.withName("create_rwq_ind_table"),
                ADDRESS.withName("destroy_wq"),
                ADDRESS.withName("modify_wq"),
                ADDRESS.withName("create_wq"),
                ADDRESS.withName("query_rt_values"),
                ADDRESS.withName("create_cq_ex"),
                ADDRESS.withName("priv"),
                ADDRESS.withName("query_device_ex"),
                ADDRESS.withName("ibv_destroy_flow"),
                ADDRESS.withName("ABI_placeholder2"),
                ADDRESS.withName("ibv_create_flow"),
                ADDRESS.withName("ABI_placeholder1"),
                ADDRESS.withName("open_qp"),
                ADDRESS.withName("create_qp_ex"),
                ADDRESS.withName("get_srq_num"),
                ADDRESS.withName("create_srq_ex"),
                ADDRESS.withName("open_xrcd"),
                ADDRESS.withName("close_xrcd"),
                JAVA_LONG.withName("_ABI_placeholder3"),
                JAVA_LONG.withName("sz"),
                ibv_context.layout().withName("context")
        ).withName("verbs_context");

        private verbs_context() {
        }

        /** {@return the layout of {@code struct verbs_context}} */
        public static GroupLayout layout() {
            return $LAYOUT;
        }

        /** {@return {@code sizeof(struct verbs_context)}} */
        public static long sizeof() {
            return $LAYOUT.byteSize();
        }

        /** Offset of {@code query_port}. */
        public static final long query_port$OFFSET = 0;

        /** @param s a {@code struct verbs_context} @return {@code s->query_port} */
        public static MemorySegment query_port(MemorySegment s) {
            return s.get(ADDRESS, query_port$OFFSET);
        }

        /** @param s a {@code struct verbs_context} @param v the value for {@code s->query_port} */
        public static void query_port(MemorySegment s, MemorySegment v) {
            s.set(ADDRESS, query_port$OFFSET, v);
        }

        /** Offset of {@code query_device_ex}. */
        public static final long query_device_ex$OFFSET = 216;

        /** @param s a {@code struct verbs_context} @return {@code s->query_device_ex} */
        public static MemorySegment query_device_ex(MemorySegment s) {
            return s.get(ADDRESS, query_device_ex$OFFSET);
        }

        /** @param s a {@code struct verbs_context} @param v the value for {@code s->query_device_ex} */
        public static void query_device_ex(MemorySegment s, MemorySegment v) {
            s.set(ADDRESS, query_device_ex$OFFSET, v);
        }

        /** Offset of {@code sz}. */
        public static final long sz$OFFSET = 312;

        /** @param s a {@code struct verbs_context} @return {@code s->sz} */
        public static long sz(MemorySegment s) {
            return s.get(JAVA_LONG, sz$OFFSET);
        }

        /** @param s a {@code struct verbs_context} @param v the value for {@code s->sz} */
        public static void sz(MemorySegment s, long v) {
            s.set(JAVA_LONG, sz$OFFSET, v);
        }

        /** Offset of {@code context}. */
        public static final long context$OFFSET = 320;

        /** @param s a {@code struct verbs_context} @return the nested struct {@code s->context}, as a slice of {@code s} */
        public static MemorySegment context(MemorySegment s) {
            return s.asSlice(context$OFFSET, 328);
        }
    }

    // ---------------------------------------------------------------- ibv_node_type

    /** {@code enum ibv_node_type}: IBV_NODE_UNKNOWN. */
    public static final int IBV_NODE_UNKNOWN = -1;
    /** {@code enum ibv_node_type}: IBV_NODE_CA. */
    public static final int IBV_NODE_CA = 1;
    /** {@code enum ibv_node_type}: IBV_NODE_SWITCH. */
    public static final int IBV_NODE_SWITCH = 2;
    /** {@code enum ibv_node_type}: IBV_NODE_ROUTER. */
    public static final int IBV_NODE_ROUTER = 3;
    /** {@code enum ibv_node_type}: IBV_NODE_RNIC. */
    public static final int IBV_NODE_RNIC = 4;
    /** {@code enum ibv_node_type}: IBV_NODE_USNIC. */
    public static final int IBV_NODE_USNIC = 5;
    /** {@code enum ibv_node_type}: IBV_NODE_USNIC_UDP. */
    public static final int IBV_NODE_USNIC_UDP = 6;
    /** {@code enum ibv_node_type}: IBV_NODE_UNSPECIFIED. */
    public static final int IBV_NODE_UNSPECIFIED = 7;

    // ---------------------------------------------------------------- ibv_transport_type

    /** {@code enum ibv_transport_type}: IBV_TRANSPORT_UNKNOWN. */
    public static final int IBV_TRANSPORT_UNKNOWN = -1;
    /** {@code enum ibv_transport_type}: IBV_TRANSPORT_IB. */
    public static final int IBV_TRANSPORT_IB = 0;
    /** {@code enum ibv_transport_type}: IBV_TRANSPORT_IWARP. */
    public static final int IBV_TRANSPORT_IWARP = 1;
    /** {@code enum ibv_transport_type}: IBV_TRANSPORT_USNIC. */
    public static final int IBV_TRANSPORT_USNIC = 2;
    /** {@code enum ibv_transport_type}: IBV_TRANSPORT_USNIC_UDP. */
    public static final int IBV_TRANSPORT_USNIC_UDP = 3;
    /** {@code enum ibv_transport_type}: IBV_TRANSPORT_UNSPECIFIED. */
    public static final int IBV_TRANSPORT_UNSPECIFIED = 4;

    // ---------------------------------------------------------------- ibv_device_cap_flags

    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_RESIZE_MAX_WR. */
    public static final int IBV_DEVICE_RESIZE_MAX_WR = 1;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_BAD_PKEY_CNTR. */
    public static final int IBV_DEVICE_BAD_PKEY_CNTR = 1 << 1;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_BAD_QKEY_CNTR. */
    public static final int IBV_DEVICE_BAD_QKEY_CNTR = 1 << 2;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_RAW_MULTI. */
    public static final int IBV_DEVICE_RAW_MULTI = 1 << 3;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_AUTO_PATH_MIG. */
    public static final int IBV_DEVICE_AUTO_PATH_MIG = 1 << 4;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_CHANGE_PHY_PORT. */
    public static final int IBV_DEVICE_CHANGE_PHY_PORT = 1 << 5;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_UD_AV_PORT_ENFORCE. */
    public static final int IBV_DEVICE_UD_AV_PORT_ENFORCE = 1 << 6;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_CURR_QP_STATE_MOD. */
    public static final int IBV_DEVICE_CURR_QP_STATE_MOD = 1 << 7;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_SHUTDOWN_PORT. */
    public static final int IBV_DEVICE_SHUTDOWN_PORT = 1 << 8;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_INIT_TYPE. */
    public static final int IBV_DEVICE_INIT_TYPE = 1 << 9;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_PORT_ACTIVE_EVENT. */
    public static final int IBV_DEVICE_PORT_ACTIVE_EVENT = 1 << 10;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_SYS_IMAGE_GUID. */
    public static final int IBV_DEVICE_SYS_IMAGE_GUID = 1 << 11;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_RC_RNR_NAK_GEN. */
    public static final int IBV_DEVICE_RC_RNR_NAK_GEN = 1 << 12;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_SRQ_RESIZE. */
    public static final int IBV_DEVICE_SRQ_RESIZE = 1 << 13;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_N_NOTIFY_CQ. */
    public static final int IBV_DEVICE_N_NOTIFY_CQ = 1 << 14;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_MEM_WINDOW. */
    public static final int IBV_DEVICE_MEM_WINDOW = 1 << 17;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_UD_IP_CSUM. */
    public static final int IBV_DEVICE_UD_IP_CSUM = 1 << 18;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_XRC. */
    public static final int IBV_DEVICE_XRC = 1 << 20;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_MEM_MGT_EXTENSIONS. */
    public static final int IBV_DEVICE_MEM_MGT_EXTENSIONS = 1 << 21;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_MEM_WINDOW_TYPE_2A. */
    public static final int IBV_DEVICE_MEM_WINDOW_TYPE_2A = 1 << 23;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_MEM_WINDOW_TYPE_2B. */
    public static final int IBV_DEVICE_MEM_WINDOW_TYPE_2B = 1 << 24;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_RC_IP_CSUM. */
    public static final int IBV_DEVICE_RC_IP_CSUM = 1 << 25;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_RAW_IP_CSUM. */
    public static final int IBV_DEVICE_RAW_IP_CSUM = 1 << 26;
    /** {@code enum ibv_device_cap_flags}: IBV_DEVICE_MANAGED_FLOW_STEERING. */
    public static final int IBV_DEVICE_MANAGED_FLOW_STEERING = 1 << 29;

    // ---------------------------------------------------------------- ibv_atomic_cap

    /** {@code enum ibv_atomic_cap}: IBV_ATOMIC_NONE. */
    public static final int IBV_ATOMIC_NONE = 0;
    /** {@code enum ibv_atomic_cap}: IBV_ATOMIC_HCA. */
    public static final int IBV_ATOMIC_HCA = 1;
    /** {@code enum ibv_atomic_cap}: IBV_ATOMIC_GLOB. */
    public static final int IBV_ATOMIC_GLOB = 2;

    // ---------------------------------------------------------------- ibv_mtu

    /** {@code enum ibv_mtu}: IBV_MTU_256. */
    public static final int IBV_MTU_256 = 1;
    /** {@code enum ibv_mtu}: IBV_MTU_512. */
    public static final int IBV_MTU_512 = 2;
    /** {@code enum ibv_mtu}: IBV_MTU_1024. */
    public static final int IBV_MTU_1024 = 3;
    /** {@code enum ibv_mtu}: IBV_MTU_2048. */
    public static final int IBV_MTU_2048 = 4;
    /** {@code enum ibv_mtu}: IBV_MTU_4096. */
    public static final int IBV_MTU_4096 = 5;

    // ---------------------------------------------------------------- ibv_port_state

    /** {@code enum ibv_port_state}: IBV_PORT_NOP. */
    public static final int IBV_PORT_NOP = 0;
    /** {@code enum ibv_port_state}: IBV_PORT_DOWN. */
    public static final int IBV_PORT_DOWN = 1;
    /** {@code enum ibv_port_state}: IBV_PORT_INIT. */
    public static final int IBV_PORT_INIT = 2;
    /** {@code enum ibv_port_state}: IBV_PORT_ARMED. */
    public static final int IBV_PORT_ARMED = 3;
    /** {@code enum ibv_port_state}: IBV_PORT_ACTIVE. */
    public static final int IBV_PORT_ACTIVE = 4;
    /** {@code enum ibv_port_state}: IBV_PORT_ACTIVE_DEFER. */
    public static final int IBV_PORT_ACTIVE_DEFER = 5;

    // ---------------------------------------------------------------- link layer

    /** {@code enum (anonymous)}: IBV_LINK_LAYER_UNSPECIFIED. */
    public static final int IBV_LINK_LAYER_UNSPECIFIED = 0;
    /** {@code enum (anonymous)}: IBV_LINK_LAYER_INFINIBAND. */
    public static final int IBV_LINK_LAYER_INFINIBAND = 1;
    /** {@code enum (anonymous)}: IBV_LINK_LAYER_ETHERNET. */
    public static final int IBV_LINK_LAYER_ETHERNET = 2;

    // ---------------------------------------------------------------- ibv_gid_type

    /** {@code enum ibv_gid_type}: IBV_GID_TYPE_IB. */
    public static final int IBV_GID_TYPE_IB = 0;
    /** {@code enum ibv_gid_type}: IBV_GID_TYPE_ROCE_V1. */
    public static final int IBV_GID_TYPE_ROCE_V1 = 1;
    /** {@code enum ibv_gid_type}: IBV_GID_TYPE_ROCE_V2. */
    public static final int IBV_GID_TYPE_ROCE_V2 = 2;

    // ---------------------------------------------------------------- ibv_event_type

    /** {@code enum ibv_event_type}: IBV_EVENT_CQ_ERR. */
    public static final int IBV_EVENT_CQ_ERR = 0;
    /** {@code enum ibv_event_type}: IBV_EVENT_QP_FATAL. */
    public static final int IBV_EVENT_QP_FATAL = 1;
    /** {@code enum ibv_event_type}: IBV_EVENT_QP_REQ_ERR. */
    public static final int IBV_EVENT_QP_REQ_ERR = 2;
    /** {@code enum ibv_event_type}: IBV_EVENT_QP_ACCESS_ERR. */
    public static final int IBV_EVENT_QP_ACCESS_ERR = 3;
    /** {@code enum ibv_event_type}: IBV_EVENT_COMM_EST. */
    public static final int IBV_EVENT_COMM_EST = 4;
    /** {@code enum ibv_event_type}: IBV_EVENT_SQ_DRAINED. */
    public static final int IBV_EVENT_SQ_DRAINED = 5;
    /** {@code enum ibv_event_type}: IBV_EVENT_PATH_MIG. */
    public static final int IBV_EVENT_PATH_MIG = 6;
    /** {@code enum ibv_event_type}: IBV_EVENT_PATH_MIG_ERR. */
    public static final int IBV_EVENT_PATH_MIG_ERR = 7;
    /** {@code enum ibv_event_type}: IBV_EVENT_DEVICE_FATAL. */
    public static final int IBV_EVENT_DEVICE_FATAL = 8;
    /** {@code enum ibv_event_type}: IBV_EVENT_PORT_ACTIVE. */
    public static final int IBV_EVENT_PORT_ACTIVE = 9;
    /** {@code enum ibv_event_type}: IBV_EVENT_PORT_ERR. */
    public static final int IBV_EVENT_PORT_ERR = 10;
    /** {@code enum ibv_event_type}: IBV_EVENT_LID_CHANGE. */
    public static final int IBV_EVENT_LID_CHANGE = 11;
    /** {@code enum ibv_event_type}: IBV_EVENT_PKEY_CHANGE. */
    public static final int IBV_EVENT_PKEY_CHANGE = 12;
    /** {@code enum ibv_event_type}: IBV_EVENT_SM_CHANGE. */
    public static final int IBV_EVENT_SM_CHANGE = 13;
    /** {@code enum ibv_event_type}: IBV_EVENT_SRQ_ERR. */
    public static final int IBV_EVENT_SRQ_ERR = 14;
    /** {@code enum ibv_event_type}: IBV_EVENT_SRQ_LIMIT_REACHED. */
    public static final int IBV_EVENT_SRQ_LIMIT_REACHED = 15;
    /** {@code enum ibv_event_type}: IBV_EVENT_QP_LAST_WQE_REACHED. */
    public static final int IBV_EVENT_QP_LAST_WQE_REACHED = 16;
    /** {@code enum ibv_event_type}: IBV_EVENT_CLIENT_REREGISTER. */
    public static final int IBV_EVENT_CLIENT_REREGISTER = 17;
    /** {@code enum ibv_event_type}: IBV_EVENT_GID_CHANGE. */
    public static final int IBV_EVENT_GID_CHANGE = 18;
    /** {@code enum ibv_event_type}: IBV_EVENT_WQ_FATAL. */
    public static final int IBV_EVENT_WQ_FATAL = 19;

    // ---------------------------------------------------------------- ibv_wc_status

    /** {@code enum ibv_wc_status}: IBV_WC_SUCCESS. */
    public static final int IBV_WC_SUCCESS = 0;
    /** {@code enum ibv_wc_status}: IBV_WC_LOC_LEN_ERR. */
    public static final int IBV_WC_LOC_LEN_ERR = 1;
    /** {@code enum ibv_wc_status}: IBV_WC_LOC_QP_OP_ERR. */
    public static final int IBV_WC_LOC_QP_OP_ERR = 2;
    /** {@code enum ibv_wc_status}: IBV_WC_LOC_EEC_OP_ERR. */
    public static final int IBV_WC_LOC_EEC_OP_ERR = 3;
    /** {@code enum ibv_wc_status}: IBV_WC_LOC_PROT_ERR. */
    public static final int IBV_WC_LOC_PROT_ERR = 4;
    /** {@code enum ibv_wc_status}: IBV_WC_WR_FLUSH_ERR. */
    public static final int IBV_WC_WR_FLUSH_ERR = 5;
    /** {@code enum ibv_wc_status}: IBV_WC_MW_BIND_ERR. */
    public static final int IBV_WC_MW_BIND_ERR = 6;
    /** {@code enum ibv_wc_status}: IBV_WC_BAD_RESP_ERR. */
    public static final int IBV_WC_BAD_RESP_ERR = 7;
    /** {@code enum ibv_wc_status}: IBV_WC_LOC_ACCESS_ERR. */
    public static final int IBV_WC_LOC_ACCESS_ERR = 8;
    /** {@code enum ibv_wc_status}: IBV_WC_REM_INV_REQ_ERR. */
    public static final int IBV_WC_REM_INV_REQ_ERR = 9;
    /** {@code enum ibv_wc_status}: IBV_WC_REM_ACCESS_ERR. */
    public static final int IBV_WC_REM_ACCESS_ERR = 10;
    /** {@code enum ibv_wc_status}: IBV_WC_REM_OP_ERR. */
    public static final int IBV_WC_REM_OP_ERR = 11;
    /** {@code enum ibv_wc_status}: IBV_WC_RETRY_EXC_ERR. */
    public static final int IBV_WC_RETRY_EXC_ERR = 12;
    /** {@code enum ibv_wc_status}: IBV_WC_RNR_RETRY_EXC_ERR. */
    public static final int IBV_WC_RNR_RETRY_EXC_ERR = 13;
    /** {@code enum ibv_wc_status}: IBV_WC_LOC_RDD_VIOL_ERR. */
    public static final int IBV_WC_LOC_RDD_VIOL_ERR = 14;
    /** {@code enum ibv_wc_status}: IBV_WC_REM_INV_RD_REQ_ERR. */
    public static final int IBV_WC_REM_INV_RD_REQ_ERR = 15;
    /** {@code enum ibv_wc_status}: IBV_WC_REM_ABORT_ERR. */
    public static final int IBV_WC_REM_ABORT_ERR = 16;
    /** {@code enum ibv_wc_status}: IBV_WC_INV_EECN_ERR. */
    public static final int IBV_WC_INV_EECN_ERR = 17;
    /** {@code enum ibv_wc_status}: IBV_WC_INV_EEC_STATE_ERR. */
    public static final int IBV_WC_INV_EEC_STATE_ERR = 18;
    /** {@code enum ibv_wc_status}: IBV_WC_FATAL_ERR. */
    public static final int IBV_WC_FATAL_ERR = 19;
    /** {@code enum ibv_wc_status}: IBV_WC_RESP_TIMEOUT_ERR. */
    public static final int IBV_WC_RESP_TIMEOUT_ERR = 20;
    /** {@code enum ibv_wc_status}: IBV_WC_GENERAL_ERR. */
    public static final int IBV_WC_GENERAL_ERR = 21;
    /** {@code enum ibv_wc_status}: IBV_WC_TM_ERR. */
    public static final int IBV_WC_TM_ERR = 22;
    /** {@code enum ibv_wc_status}: IBV_WC_TM_RNDV_INCOMPLETE. */
    public static final int IBV_WC_TM_RNDV_INCOMPLETE = 23;

    // ---------------------------------------------------------------- ibv_wc_opcode

    /** {@code enum ibv_wc_opcode}: IBV_WC_SEND. */
    public static final int IBV_WC_SEND = 0;
    /** {@code enum ibv_wc_opcode}: IBV_WC_RDMA_WRITE. */
    public static final int IBV_WC_RDMA_WRITE = 1;
    /** {@code enum ibv_wc_opcode}: IBV_WC_RDMA_READ. */
    public static final int IBV_WC_RDMA_READ = 2;
    /** {@code enum ibv_wc_opcode}: IBV_WC_COMP_SWAP. */
    public static final int IBV_WC_COMP_SWAP = 3;
    /** {@code enum ibv_wc_opcode}: IBV_WC_FETCH_ADD. */
    public static final int IBV_WC_FETCH_ADD = 4;
    /** {@code enum ibv_wc_opcode}: IBV_WC_BIND_MW. */
    public static final int IBV_WC_BIND_MW = 5;
    /** {@code enum ibv_wc_opcode}: IBV_WC_LOCAL_INV. */
    public static final int IBV_WC_LOCAL_INV = 6;
    /** {@code enum ibv_wc_opcode}: IBV_WC_TSO. */
    public static final int IBV_WC_TSO = 7;
    /** {@code enum ibv_wc_opcode}: IBV_WC_ATOMIC_WRITE. */
    public static final int IBV_WC_ATOMIC_WRITE = 9;
    /** {@code enum ibv_wc_opcode}: IBV_WC_RECV. */
    public static final int IBV_WC_RECV = 1 << 7;
    /** {@code enum ibv_wc_opcode}: IBV_WC_RECV_RDMA_WITH_IMM. */
    public static final int IBV_WC_RECV_RDMA_WITH_IMM = 129;
    /** {@code enum ibv_wc_opcode}: IBV_WC_TM_ADD. */
    public static final int IBV_WC_TM_ADD = 130;
    /** {@code enum ibv_wc_opcode}: IBV_WC_TM_DEL. */
    public static final int IBV_WC_TM_DEL = 131;
    /** {@code enum ibv_wc_opcode}: IBV_WC_TM_SYNC. */
    public static final int IBV_WC_TM_SYNC = 132;
    /** {@code enum ibv_wc_opcode}: IBV_WC_TM_RECV. */
    public static final int IBV_WC_TM_RECV = 133;
    /** {@code enum ibv_wc_opcode}: IBV_WC_TM_NO_TAG. */
    public static final int IBV_WC_TM_NO_TAG = 134;
    /** {@code enum ibv_wc_opcode}: IBV_WC_DRIVER1. */
    public static final int IBV_WC_DRIVER1 = 135;
    /** {@code enum ibv_wc_opcode}: IBV_WC_DRIVER2. */
    public static final int IBV_WC_DRIVER2 = 136;
    /** {@code enum ibv_wc_opcode}: IBV_WC_DRIVER3. */
    public static final int IBV_WC_DRIVER3 = 137;

    // ---------------------------------------------------------------- IBV_WC_IP_CSUM_OK_SHIFT

    /** {@code enum (anonymous)}: IBV_WC_IP_CSUM_OK_SHIFT. */
    public static final int IBV_WC_IP_CSUM_OK_SHIFT = 2;

    // ---------------------------------------------------------------- ibv_wc_flags

    /** {@code enum ibv_wc_flags}: IBV_WC_GRH. */
    public static final int IBV_WC_GRH = 1;
    /** {@code enum ibv_wc_flags}: IBV_WC_WITH_IMM. */
    public static final int IBV_WC_WITH_IMM = 1 << 1;
    /** {@code enum ibv_wc_flags}: IBV_WC_IP_CSUM_OK. */
    public static final int IBV_WC_IP_CSUM_OK = 1 << 2;
    /** {@code enum ibv_wc_flags}: IBV_WC_WITH_INV. */
    public static final int IBV_WC_WITH_INV = 1 << 3;
    /** {@code enum ibv_wc_flags}: IBV_WC_TM_SYNC_REQ. */
    public static final int IBV_WC_TM_SYNC_REQ = 1 << 4;
    /** {@code enum ibv_wc_flags}: IBV_WC_TM_MATCH. */
    public static final int IBV_WC_TM_MATCH = 1 << 5;
    /** {@code enum ibv_wc_flags}: IBV_WC_TM_DATA_VALID. */
    public static final int IBV_WC_TM_DATA_VALID = 1 << 6;

    // ---------------------------------------------------------------- ibv_access_flags

    /** {@code enum ibv_access_flags}: IBV_ACCESS_LOCAL_WRITE. */
    public static final int IBV_ACCESS_LOCAL_WRITE = 1;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_REMOTE_WRITE. */
    public static final int IBV_ACCESS_REMOTE_WRITE = 1 << 1;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_REMOTE_READ. */
    public static final int IBV_ACCESS_REMOTE_READ = 1 << 2;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_REMOTE_ATOMIC. */
    public static final int IBV_ACCESS_REMOTE_ATOMIC = 1 << 3;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_MW_BIND. */
    public static final int IBV_ACCESS_MW_BIND = 1 << 4;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_ZERO_BASED. */
    public static final int IBV_ACCESS_ZERO_BASED = 1 << 5;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_ON_DEMAND. */
    public static final int IBV_ACCESS_ON_DEMAND = 1 << 6;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_HUGETLB. */
    public static final int IBV_ACCESS_HUGETLB = 1 << 7;
    /** {@code enum ibv_access_flags}: IBV_ACCESS_RELAXED_ORDERING. */
    public static final int IBV_ACCESS_RELAXED_ORDERING = 1 << 20;

    /** {@code <infiniband/verbs_api.h>}: IBV_ACCESS_OPTIONAL_FIRST (first optional access flag). */
    public static final int IBV_ACCESS_OPTIONAL_FIRST = 1 << 20;
    /** {@code <infiniband/verbs_api.h>}: IBV_ACCESS_OPTIONAL_RANGE (flags a device may ignore). */
    public static final int IBV_ACCESS_OPTIONAL_RANGE = 0x3ff00000;

    // ---------------------------------------------------------------- ibv_qp_type

    /** {@code enum ibv_qp_type}: IBV_QPT_RC. */
    public static final int IBV_QPT_RC = 2;
    /** {@code enum ibv_qp_type}: IBV_QPT_UC. */
    public static final int IBV_QPT_UC = 3;
    /** {@code enum ibv_qp_type}: IBV_QPT_UD. */
    public static final int IBV_QPT_UD = 4;
    /** {@code enum ibv_qp_type}: IBV_QPT_RAW_PACKET. */
    public static final int IBV_QPT_RAW_PACKET = 8;
    /** {@code enum ibv_qp_type}: IBV_QPT_XRC_SEND. */
    public static final int IBV_QPT_XRC_SEND = 9;
    /** {@code enum ibv_qp_type}: IBV_QPT_XRC_RECV. */
    public static final int IBV_QPT_XRC_RECV = 10;
    /** {@code enum ibv_qp_type}: IBV_QPT_DRIVER. */
    public static final int IBV_QPT_DRIVER = 255;

    // ---------------------------------------------------------------- ibv_qp_init_attr_mask

    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_PD. */
    public static final int IBV_QP_INIT_ATTR_PD = 1;
    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_XRCD. */
    public static final int IBV_QP_INIT_ATTR_XRCD = 1 << 1;
    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_CREATE_FLAGS. */
    public static final int IBV_QP_INIT_ATTR_CREATE_FLAGS = 1 << 2;
    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_MAX_TSO_HEADER. */
    public static final int IBV_QP_INIT_ATTR_MAX_TSO_HEADER = 1 << 3;
    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_IND_TABLE. */
    public static final int IBV_QP_INIT_ATTR_IND_TABLE = 1 << 4;
    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_RX_HASH. */
    public static final int IBV_QP_INIT_ATTR_RX_HASH = 1 << 5;
    /** {@code enum ibv_qp_init_attr_mask}: IBV_QP_INIT_ATTR_SEND_OPS_FLAGS. */
    public static final int IBV_QP_INIT_ATTR_SEND_OPS_FLAGS = 1 << 6;

    // ---------------------------------------------------------------- ibv_qp_create_send_ops_flags

    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_RDMA_WRITE. */
    public static final int IBV_QP_EX_WITH_RDMA_WRITE = 1;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM. */
    public static final int IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM = 1 << 1;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_SEND. */
    public static final int IBV_QP_EX_WITH_SEND = 1 << 2;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_SEND_WITH_IMM. */
    public static final int IBV_QP_EX_WITH_SEND_WITH_IMM = 1 << 3;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_RDMA_READ. */
    public static final int IBV_QP_EX_WITH_RDMA_READ = 1 << 4;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP. */
    public static final int IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP = 1 << 5;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD. */
    public static final int IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD = 1 << 6;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_LOCAL_INV. */
    public static final int IBV_QP_EX_WITH_LOCAL_INV = 1 << 7;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_BIND_MW. */
    public static final int IBV_QP_EX_WITH_BIND_MW = 1 << 8;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_SEND_WITH_INV. */
    public static final int IBV_QP_EX_WITH_SEND_WITH_INV = 1 << 9;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_TSO. */
    public static final int IBV_QP_EX_WITH_TSO = 1 << 10;
    /** {@code enum ibv_qp_create_send_ops_flags}: IBV_QP_EX_WITH_ATOMIC_WRITE. */
    public static final int IBV_QP_EX_WITH_ATOMIC_WRITE = 1 << 12;

    // ---------------------------------------------------------------- ibv_qp_attr_mask

    /** {@code enum ibv_qp_attr_mask}: IBV_QP_STATE. */
    public static final int IBV_QP_STATE = 1;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_CUR_STATE. */
    public static final int IBV_QP_CUR_STATE = 1 << 1;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_EN_SQD_ASYNC_NOTIFY. */
    public static final int IBV_QP_EN_SQD_ASYNC_NOTIFY = 1 << 2;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_ACCESS_FLAGS. */
    public static final int IBV_QP_ACCESS_FLAGS = 1 << 3;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_PKEY_INDEX. */
    public static final int IBV_QP_PKEY_INDEX = 1 << 4;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_PORT. */
    public static final int IBV_QP_PORT = 1 << 5;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_QKEY. */
    public static final int IBV_QP_QKEY = 1 << 6;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_AV. */
    public static final int IBV_QP_AV = 1 << 7;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_PATH_MTU. */
    public static final int IBV_QP_PATH_MTU = 1 << 8;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_TIMEOUT. */
    public static final int IBV_QP_TIMEOUT = 1 << 9;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_RETRY_CNT. */
    public static final int IBV_QP_RETRY_CNT = 1 << 10;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_RNR_RETRY. */
    public static final int IBV_QP_RNR_RETRY = 1 << 11;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_RQ_PSN. */
    public static final int IBV_QP_RQ_PSN = 1 << 12;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_MAX_QP_RD_ATOMIC. */
    public static final int IBV_QP_MAX_QP_RD_ATOMIC = 1 << 13;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_ALT_PATH. */
    public static final int IBV_QP_ALT_PATH = 1 << 14;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_MIN_RNR_TIMER. */
    public static final int IBV_QP_MIN_RNR_TIMER = 1 << 15;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_SQ_PSN. */
    public static final int IBV_QP_SQ_PSN = 1 << 16;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_MAX_DEST_RD_ATOMIC. */
    public static final int IBV_QP_MAX_DEST_RD_ATOMIC = 1 << 17;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_PATH_MIG_STATE. */
    public static final int IBV_QP_PATH_MIG_STATE = 1 << 18;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_CAP. */
    public static final int IBV_QP_CAP = 1 << 19;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_DEST_QPN. */
    public static final int IBV_QP_DEST_QPN = 1 << 20;
    /** {@code enum ibv_qp_attr_mask}: IBV_QP_RATE_LIMIT. */
    public static final int IBV_QP_RATE_LIMIT = 1 << 25;

    // ---------------------------------------------------------------- ibv_qp_state

    /** {@code enum ibv_qp_state}: IBV_QPS_RESET. */
    public static final int IBV_QPS_RESET = 0;
    /** {@code enum ibv_qp_state}: IBV_QPS_INIT. */
    public static final int IBV_QPS_INIT = 1;
    /** {@code enum ibv_qp_state}: IBV_QPS_RTR. */
    public static final int IBV_QPS_RTR = 2;
    /** {@code enum ibv_qp_state}: IBV_QPS_RTS. */
    public static final int IBV_QPS_RTS = 3;
    /** {@code enum ibv_qp_state}: IBV_QPS_SQD. */
    public static final int IBV_QPS_SQD = 4;
    /** {@code enum ibv_qp_state}: IBV_QPS_SQE. */
    public static final int IBV_QPS_SQE = 5;
    /** {@code enum ibv_qp_state}: IBV_QPS_ERR. */
    public static final int IBV_QPS_ERR = 6;
    /** {@code enum ibv_qp_state}: IBV_QPS_UNKNOWN. */
    public static final int IBV_QPS_UNKNOWN = 7;

    // ---------------------------------------------------------------- ibv_mig_state

    /** {@code enum ibv_mig_state}: IBV_MIG_MIGRATED. */
    public static final int IBV_MIG_MIGRATED = 0;
    /** {@code enum ibv_mig_state}: IBV_MIG_REARM. */
    public static final int IBV_MIG_REARM = 1;
    /** {@code enum ibv_mig_state}: IBV_MIG_ARMED. */
    public static final int IBV_MIG_ARMED = 2;

    // ---------------------------------------------------------------- ibv_wr_opcode

    /** {@code enum ibv_wr_opcode}: IBV_WR_RDMA_WRITE. */
    public static final int IBV_WR_RDMA_WRITE = 0;
    /** {@code enum ibv_wr_opcode}: IBV_WR_RDMA_WRITE_WITH_IMM. */
    public static final int IBV_WR_RDMA_WRITE_WITH_IMM = 1;
    /** {@code enum ibv_wr_opcode}: IBV_WR_SEND. */
    public static final int IBV_WR_SEND = 2;
    /** {@code enum ibv_wr_opcode}: IBV_WR_SEND_WITH_IMM. */
    public static final int IBV_WR_SEND_WITH_IMM = 3;
    /** {@code enum ibv_wr_opcode}: IBV_WR_RDMA_READ. */
    public static final int IBV_WR_RDMA_READ = 4;
    /** {@code enum ibv_wr_opcode}: IBV_WR_ATOMIC_CMP_AND_SWP. */
    public static final int IBV_WR_ATOMIC_CMP_AND_SWP = 5;
    /** {@code enum ibv_wr_opcode}: IBV_WR_ATOMIC_FETCH_AND_ADD. */
    public static final int IBV_WR_ATOMIC_FETCH_AND_ADD = 6;
    /** {@code enum ibv_wr_opcode}: IBV_WR_LOCAL_INV. */
    public static final int IBV_WR_LOCAL_INV = 7;
    /** {@code enum ibv_wr_opcode}: IBV_WR_BIND_MW. */
    public static final int IBV_WR_BIND_MW = 8;
    /** {@code enum ibv_wr_opcode}: IBV_WR_SEND_WITH_INV. */
    public static final int IBV_WR_SEND_WITH_INV = 9;
    /** {@code enum ibv_wr_opcode}: IBV_WR_TSO. */
    public static final int IBV_WR_TSO = 10;
    /** {@code enum ibv_wr_opcode}: IBV_WR_DRIVER1. */
    public static final int IBV_WR_DRIVER1 = 11;
    /** {@code enum ibv_wr_opcode}: IBV_WR_ATOMIC_WRITE. */
    public static final int IBV_WR_ATOMIC_WRITE = 15;

    // ---------------------------------------------------------------- ibv_send_flags

    /** {@code enum ibv_send_flags}: IBV_SEND_FENCE. */
    public static final int IBV_SEND_FENCE = 1;
    /** {@code enum ibv_send_flags}: IBV_SEND_SIGNALED. */
    public static final int IBV_SEND_SIGNALED = 1 << 1;
    /** {@code enum ibv_send_flags}: IBV_SEND_SOLICITED. */
    public static final int IBV_SEND_SOLICITED = 1 << 2;
    /** {@code enum ibv_send_flags}: IBV_SEND_INLINE. */
    public static final int IBV_SEND_INLINE = 1 << 3;
    /** {@code enum ibv_send_flags}: IBV_SEND_IP_CSUM. */
    public static final int IBV_SEND_IP_CSUM = 1 << 4;

    // ---------------------------------------------------------------- ibv_srq_attr_mask

    /** {@code enum ibv_srq_attr_mask}: IBV_SRQ_MAX_WR. */
    public static final int IBV_SRQ_MAX_WR = 1;
    /** {@code enum ibv_srq_attr_mask}: IBV_SRQ_LIMIT. */
    public static final int IBV_SRQ_LIMIT = 1 << 1;

    // ---------------------------------------------------------------- ibv_fork_status

    /** {@code enum ibv_fork_status}: IBV_FORK_DISABLED. */
    public static final int IBV_FORK_DISABLED = 0;
    /** {@code enum ibv_fork_status}: IBV_FORK_ENABLED. */
    public static final int IBV_FORK_ENABLED = 1;
    /** {@code enum ibv_fork_status}: IBV_FORK_UNNEEDED. */
    public static final int IBV_FORK_UNNEEDED = 2;

    // ---------------------------------------------------------------- sysfs limits

    /** {@code enum (anonymous)}: IBV_SYSFS_NAME_MAX. */
    public static final int IBV_SYSFS_NAME_MAX = 64;
    /** {@code enum (anonymous)}: IBV_SYSFS_PATH_MAX. */
    public static final int IBV_SYSFS_PATH_MAX = 256;
}
