package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.RdmaCm;
import io.remus.verbs.ffi.ibv_async_event;
import io.remus.verbs.ffi.ibv_context;
import io.remus.verbs.ffi.ibv_device_attr;
import io.remus.verbs.ffi.ibv_gid;
import io.remus.verbs.ffi.ibv_port_attr;
import io.remus.verbs.ffi.ibv_qp;
import io.remus.verbs.ffi.pollfd;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * An open RDMA device ({@code struct ibv_context}): the parent of protection domains,
 * completion channels and completion queues.
 *
 * <p>{@link #open(String)} opens a context of its own ({@code ibv_open_device}).
 * {@link #openForRdmaCm(String)} uses librdmacm's context of the device instead, the one its
 * connection ids point to: use it for {@link CmListener} and {@link CmConnector}.
 * Thread-safe; close it after everything created from it.
 */
public final class Context extends NativeResource {
    private final MemorySegment context;
    private final MemorySegment cmDeviceList;
    private final String name;
    private final DeviceAttributes attributes;
    private boolean asyncNonBlocking;

    private Context(MemorySegment context, MemorySegment cmDeviceList, String name) {
        super("context of " + name);
        this.context = context.reinterpret(ibv_context.sizeof());
        this.cmDeviceList = cmDeviceList;
        this.name = name;
        this.attributes = queryDeviceAttributes();
    }

    /**
     * Opens the device called {@code name}.
     *
     * @param name a device name from {@link Device#list()}, e.g. {@code rxe0}
     * @return the open context
     * @throws DeviceNotFoundException if no device has that name (the message lists those that exist)
     * @throws VerbsException          if {@code ibv_open_device} fails
     */
    public static Context open(String name) {
        Objects.requireNonNull(name, "name");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment devices = IbVerbs.ibv_get_device_list(callState, count);
            if (devices.equals(MemorySegment.NULL)) {
                throw notFound(name, List.of());
            }
            try {
                int n = count.get(JAVA_INT, 0);
                MemorySegment array = devices.reinterpret(ADDRESS.byteSize() * n);
                List<String> names = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    MemorySegment device = array.getAtIndex(ADDRESS, i);
                    String deviceName = Device.name(device);
                    if (deviceName.equals(name)) {
                        MemorySegment ctx = VerbResults.checkPointer(IbVerbs.ibv_open_device(callState, device),
                                ibv_context.sizeof(), callState, "ibv_open_device", "opening " + name);
                        return new Context(ctx, MemorySegment.NULL, name);
                    }
                    names.add(deviceName);
                }
                throw notFound(name, names);
            } finally {
                IbVerbs.ibv_free_device_list(devices);
            }
        }
    }

    /**
     * Opens the device called {@code name} through librdmacm ({@code rdma_get_devices}), so that
     * connection ids on it ({@link CmListener}, {@link CmConnector}) can take queue pairs built
     * on this context's protection domains.
     *
     * @param name a device name, e.g. {@code rxe0}
     * @return the open context
     * @throws DeviceNotFoundException if no device has that name
     */
    public static Context openForRdmaCm(String name) {
        Objects.requireNonNull(name, "name");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment count = arena.allocate(JAVA_INT);
            MemorySegment list = RdmaCm.rdma_get_devices(callState, count);
            if (list.equals(MemorySegment.NULL)) {
                throw notFound(name, List.of());
            }
            int n = count.get(JAVA_INT, 0);
            MemorySegment array = list.reinterpret(ADDRESS.byteSize() * n);
            List<String> names = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                MemorySegment ctx = array.getAtIndex(ADDRESS, i).reinterpret(ibv_context.sizeof());
                String deviceName = Device.name(ibv_context.device(ctx));
                if (deviceName.equals(name)) {
                    return new Context(ctx, list, name);
                }
                names.add(deviceName);
            }
            RdmaCm.rdma_free_devices(list);
            throw notFound(name, names);
        }
    }

    private static DeviceNotFoundException notFound(String name, List<String> names) {
        return new DeviceNotFoundException("no RDMA device named '" + name + "': "
                + (names.isEmpty() ? "this host has no RDMA devices" : "the devices are " + names));
    }

    /** {@return the device name} */
    public String name() {
        return name;
    }

    /** {@return what the device supports (queried once at open)} */
    public DeviceAttributes queryDevice() {
        requireOpen();
        return attributes;
    }

    /**
     * Queries a port ({@code ibv_query_port}).
     *
     * @param port a port number, from 1
     * @return the port's attributes
     * @throws InvalidArgumentException if the device has no such port
     * @throws VerbsException           if {@code ibv_query_port} fails
     */
    public PortAttributes queryPort(int port) {
        requireOpen();
        checkPort(port);
        enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(ibv_port_attr.layout());
            VerbResults.checkErrnoResult(IbVerbs.ibv_query_port(context, (byte) port, attr), "ibv_query_port",
                    "querying port " + port + " of " + name);
            return new PortAttributes(port, ibv_port_attr.state(attr), Mtu.ofCode(ibv_port_attr.max_mtu(attr)),
                    Mtu.ofCode(ibv_port_attr.active_mtu(attr)), ibv_port_attr.gid_tbl_len(attr),
                    Short.toUnsignedInt(ibv_port_attr.lid(attr)), Integer.toUnsignedLong(ibv_port_attr.max_msg_sz(attr)),
                    Byte.toUnsignedInt(ibv_port_attr.link_layer(attr)));
        } finally {
            exit();
        }
    }

    /**
     * Queries an entry of a port's GID table ({@code ibv_query_gid}).
     *
     * @param port  a port number, from 1
     * @param index a GID table index, from 0
     * @return the GID ({@link Gid#ZERO} for an unused entry)
     * @throws InvalidArgumentException if the port or index does not exist
     * @throws VerbsException           if {@code ibv_query_gid} fails
     */
    public Gid queryGid(int port, int index) {
        int tableLength = queryPort(port).gidTableLength();
        if (index < 0 || index >= tableLength) {
            throw new InvalidArgumentException("GID index " + index + " is outside port " + port + "'s table of " + tableLength);
        }
        enter();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment gid = arena.allocate(ibv_gid.layout());
            VerbResults.checkMinusOne(IbVerbs.ibv_query_gid(callState, context, (byte) port, index, gid), callState,
                    "ibv_query_gid", "querying GID " + index + " of port " + port);
            return Gid.read(gid, 0);
        } finally {
            exit();
        }
    }

    /**
     * The type of a GID as the kernel lists it ({@code /sys/class/infiniband/NAME/ports/PORT/gid_attrs/types/INDEX}):
     * {@code "RoCE v2"}, {@code "IB/RoCE v1"}, or {@code ""} where the kernel says nothing (an unused
     * entry, an InfiniBand port on an old kernel).
     *
     * @param port  a port number, from 1
     * @param index a GID table index, from 0
     * @return the type, or {@code ""}
     */
    public String gidType(int port, int index) {
        Path type = Path.of("/sys/class/infiniband", name, "ports", Integer.toString(port), "gid_attrs", "types",
                Integer.toString(index));
        try {
            return Files.readString(type).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** {@return a new protection domain} */
    public ProtectionDomain allocateProtectionDomain() {
        requireOpen();
        return new ProtectionDomain(this);
    }

    /** {@return a new completion channel (its fd is non-blocking; wait on it with a timeout)} */
    public CompletionChannel createCompletionChannel() {
        requireOpen();
        return new CompletionChannel(this);
    }

    /**
     * Creates a completion queue without a completion channel.
     *
     * @param capacity the least number of completions it holds
     * @return a new completion queue without a channel (poll it)
     */
    public CompletionQueue createCompletionQueue(int capacity) {
        return createCompletionQueue(capacity, null);
    }

    /**
     * Creates a completion queue ({@code ibv_create_cq}).
     *
     * @param capacity the least number of completions it holds, 1 to the device's {@code max_cqe}
     * @param channel  the channel its events go to, or {@code null}
     * @return a new completion queue
     * @throws InvalidArgumentException if the capacity is out of range or the channel is another context's
     */
    public CompletionQueue createCompletionQueue(int capacity, CompletionChannel channel) {
        requireOpen();
        if (capacity < 1 || capacity > attributes.maxCompletionQueueEntries()) {
            throw new InvalidArgumentException("completion queue capacity must be in [1, "
                    + attributes.maxCompletionQueueEntries() + "], got " + capacity);
        }
        if (channel != null && channel.context() != this) {
            throw new InvalidArgumentException("the completion channel belongs to another context");
        }
        return new CompletionQueue(this, capacity, channel);
    }

    /**
     * Takes the device's next asynchronous event ({@code ibv_get_async_event}) and acknowledges it
     * ({@code ibv_ack_async_event}): completion queue overruns, queue pair errors found outside a
     * completion (e.g. on the side that served a request with a bad rkey), port changes. The
     * events queue up in the kernel until taken; nothing takes them unless this is called. The
     * context's event fd is made non-blocking on the first call, so the wait is bounded.
     *
     * @param timeout how long to wait at most; {@link Duration#ZERO}: only look
     * @return the event, or empty when none came in time
     * @throws VerbsException          if {@code poll}, {@code fcntl} or {@code ibv_get_async_event} fails
     * @throws ClosedResourceException if the context is closed
     */
    public synchronized Optional<AsyncEvent> pollAsyncEvent(Duration timeout) {
        requireOpen();
        long deadline = Deadlines.after(timeout, "timeout");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            int fd = ibv_context.async_fd(context);
            if (!asyncNonBlocking) {
                NonBlockingFd.makeNonBlocking(callState, fd, name + "'s event fd");
                asyncNonBlocking = true;
            }
            MemorySegment event = arena.allocate(ibv_async_event.layout());
            MemorySegment fds = arena.allocate(pollfd.layout());
            while (true) {
                enter();
                try {
                    if (IbVerbs.ibv_get_async_event(callState, context, event) == 0) {
                        AsyncEvent e = read(event);
                        IbVerbs.ibv_ack_async_event(event);
                        return Optional.of(e);
                    }
                } finally {
                    exit();
                }
                int errno = Errno.get(callState);
                if (errno != Errno.EAGAIN) {
                    throw new VerbsException("ibv_get_async_event", errno, "reading " + name + "'s events");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return Optional.empty();
                }
                NonBlockingFd.awaitReadable(callState, fds, fd, left, "waiting for " + name + "'s events");
            }
        }
    }

    /** Copies an event out before it is acknowledged (the object it names stays alive until then). */
    private static AsyncEvent read(MemorySegment event) {
        int type = ibv_async_event.event_type(event);
        AsyncEvent shape = new AsyncEvent(type, 0, -1, 0);
        if (shape.isPortEvent()) {
            return new AsyncEvent(type, 0, -1, ibv_async_event.element_port_num(event));
        }
        if (type == IbVerbs.IBV_EVENT_DEVICE_FATAL) {
            return shape;
        }
        MemorySegment element = ibv_async_event.element(event);
        if (shape.isQueuePairEvent() && !element.equals(MemorySegment.NULL)) {
            return new AsyncEvent(type, element.address(), ibv_qp.qp_num(element.reinterpret(ibv_qp.sizeof())), 0);
        }
        return new AsyncEvent(type, element.address(), -1, 0);
    }

    /** {@return the {@code struct ibv_context *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        requireOpen();
        return context;
    }

    /**
     * @param port a port number
     * @throws InvalidArgumentException if the device has no such port
     */
    void checkPort(int port) {
        if (port < 1 || port > attributes.physicalPortCount()) {
            throw new InvalidArgumentException("port " + port + " does not exist: " + name + " has ports 1 to "
                    + attributes.physicalPortCount());
        }
    }

    private DeviceAttributes queryDeviceAttributes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ibv_device_attr.layout());
            VerbResults.checkErrnoResult(IbVerbs.ibv_query_device(context, a), "ibv_query_device", "querying " + name);
            return new DeviceAttributes(ibv_device_attr.fw_ver(a).getString(0),
                    Device.hostOrder(ibv_device_attr.node_guid(a)), ibv_device_attr.max_mr_size(a),
                    ibv_device_attr.max_qp(a), ibv_device_attr.max_qp_wr(a), ibv_device_attr.max_sge(a),
                    ibv_device_attr.max_cq(a), ibv_device_attr.max_cqe(a), ibv_device_attr.max_mr(a),
                    ibv_device_attr.max_pd(a), ibv_device_attr.max_qp_rd_atom(a),
                    ibv_device_attr.max_qp_init_rd_atom(a), ibv_device_attr.atomic_cap(a),
                    ibv_device_attr.max_srq(a), ibv_device_attr.max_srq_wr(a), ibv_device_attr.max_srq_sge(a),
                    Byte.toUnsignedInt(ibv_device_attr.phys_port_cnt(a)), ibv_device_attr.vendor_id(a),
                    ibv_device_attr.vendor_part_id(a));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    void destroy() {
        if (!cmDeviceList.equals(MemorySegment.NULL)) {
            RdmaCm.rdma_free_devices(cmDeviceList);
            return;
        }
        VerbResults.checkErrnoResult(IbVerbs.ibv_close_device(context), "ibv_close_device", "closing " + name);
    }
}
