package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.RdmaCm;
import io.remus.verbs.ffi.pollfd;
import io.remus.verbs.ffi.rdma_cm_event;
import io.remus.verbs.ffi.rdma_conn_param;
import io.remus.verbs.ffi.rdma_event_channel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * A connection manager event channel ({@code struct rdma_event_channel}) with a non-blocking fd:
 * {@link #next(long)} waits for the next event with {@code poll} until a deadline, copies it out
 * and acknowledges it.
 */
final class CmEventChannel implements AutoCloseable {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment channel;
    private final MemorySegment callState;
    private boolean closed;

    /** An event, copied out before it was acknowledged. */
    record Event(int type, int status, MemorySegment id, MemorySegment listenId, byte[] privateData) {
        /** {@return the event's name, as {@code rdma_event_str} gives it} */
        String name() {
            return RdmaCm.rdma_event_str(type).reinterpret(64).getString(0);
        }
    }

    CmEventChannel() {
        callState = Errno.allocate(arena);
        MemorySegment c = RdmaCm.rdma_create_event_channel(callState);
        if (c.equals(MemorySegment.NULL)) {
            int errno = Errno.get(callState);
            arena.close();
            throw new VerbsException("rdma_create_event_channel", errno, "creating a connection manager event channel");
        }
        channel = c.reinterpret(rdma_event_channel.sizeof());
        try {
            NonBlockingFd.makeNonBlocking(callState, rdma_event_channel.fd(channel), "the event channel's fd");
        } catch (VerbsException e) {
            close();
            throw e;
        }
    }

    /**
     * @param deadline a {@link System#nanoTime()} deadline
     * @return the next event, acknowledged
     * @throws WaitTimeoutException if none came before the deadline
     */
    synchronized Event next(long deadline) {
        if (closed) {
            throw new ClosedResourceException("connection manager event channel is closed");
        }
        try (Arena temp = Arena.ofConfined()) {
            MemorySegment out = temp.allocate(ADDRESS);
            MemorySegment fds = temp.allocate(pollfd.layout());
            while (true) {
                if (RdmaCm.rdma_get_cm_event(callState, channel, out) == 0) {
                    MemorySegment e = out.get(ADDRESS, 0).reinterpret(rdma_cm_event.sizeof());
                    MemorySegment conn = e.asSlice(rdma_cm_event.param$OFFSET, rdma_conn_param.sizeof());
                    int length = Byte.toUnsignedInt(rdma_conn_param.private_data_len(conn));
                    MemorySegment data = rdma_conn_param.private_data(conn);
                    byte[] privateData = data.equals(MemorySegment.NULL) ? new byte[0]
                            : data.reinterpret(length).toArray(JAVA_BYTE);
                    Event event = new Event(rdma_cm_event.event(e), rdma_cm_event.status(e), rdma_cm_event.id(e),
                            rdma_cm_event.listen_id(e), privateData);
                    if (RdmaCm.rdma_ack_cm_event(callState, e) != 0) {
                        throw new VerbsException("rdma_ack_cm_event", Errno.get(callState), "acknowledging " + event.name());
                    }
                    return event;
                }
                int errno = Errno.get(callState);
                if (errno != Errno.EAGAIN) {
                    throw new VerbsException("rdma_get_cm_event", errno, "reading a connection manager event");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new WaitTimeoutException("no connection manager event before the deadline");
                }
                NonBlockingFd.awaitReadable(callState, fds, rdma_event_channel.fd(channel), left,
                        "waiting on the event channel");
            }
        }
    }

    /**
     * @param deadline a {@link System#nanoTime()} deadline
     * @param type     the expected {@code RDMA_CM_EVENT_*}
     * @param what     what is being done, for the message
     * @return the event
     * @throws ConnectionException if another event came
     */
    Event expect(long deadline, int type, String what) {
        Event e = next(deadline);
        if (e.type() != type) {
            throw new ConnectionException(e.name(), e.status(), what + ": expected "
                    + RdmaCm.rdma_event_str(type).reinterpret(64).getString(0));
        }
        return e;
    }

    /** {@return the {@code struct rdma_event_channel *}} */
    MemorySegment handle() {
        return channel;
    }

    /** {@return a call-state segment for calls made on this channel's behalf (under its lock)} */
    MemorySegment callState() {
        return callState;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            RdmaCm.rdma_destroy_event_channel(channel);
            arena.close();
        }
    }
}
