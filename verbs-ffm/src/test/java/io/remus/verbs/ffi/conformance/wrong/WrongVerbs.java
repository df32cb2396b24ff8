package io.remus.verbs.ffi.conformance.wrong;

import io.remus.verbs.ffi.NativeFunction;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Wrong function and constant declarations, one mistake each. */
public final class WrongVerbs {
    /** Prototype wrong: the header takes {@code struct ibv_device **}. */
    public static final NativeFunction IBV_FREE_DEVICE_LIST = new NativeFunction("ibv_free_device_list",
            "void ibv_free_device_list(struct ibv_device *list)",
            FunctionDescriptor.ofVoid(ADDRESS), false, false, null);
    /** Descriptor wrong: returns {@code JAVA_LONG} for a {@code const char *}. */
    public static final NativeFunction IBV_GET_DEVICE_NAME = new NativeFunction("ibv_get_device_name",
            "const char *ibv_get_device_name(struct ibv_device *device)",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS), false, false, null);
    /** Descriptor wrong: {@code uint8_t port_num} as {@code JAVA_INT}. */
    public static final NativeFunction IBV_QUERY_GID = new NativeFunction("ibv_query_gid",
            "int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), false, false, null);
    /** Descriptor wrong: a parameter missing. */
    public static final NativeFunction IBV_CLOSE_DEVICE = new NativeFunction("ibv_close_device",
            "int ibv_close_device(struct ibv_context *context)",
            FunctionDescriptor.of(JAVA_INT), false, false, null);
    /** Prototype wrong for a function pointer: {@code post_recv} takes {@code ibv_recv_wr}. */
    public static final NativeFunction POST_RECV = new NativeFunction("ibv_context_ops.post_recv",
            "int post_recv(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS), false, true, null);
    /** Name and prototype disagree. */
    public static final NativeFunction IBV_OPEN_DEVICE = new NativeFunction("ibv_open_device",
            "struct ibv_context *ibv_open_devices(struct ibv_device *device)",
            FunctionDescriptor.of(ADDRESS, ADDRESS), false, false, null);
    /** Value wrong: C has 4. */
    public static final int IBV_ACCESS_REMOTE_READ = 8;

    private WrongVerbs() {
    }
}
