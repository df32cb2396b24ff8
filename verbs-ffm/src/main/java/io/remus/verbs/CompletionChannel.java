package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_comp_channel;
import io.remus.verbs.ffi.pollfd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * A completion channel ({@code struct ibv_comp_channel}): completion queues created with it
 * signal their events here after {@link CompletionQueue#requestNotify(boolean)}. Its fd is made
 * non-blocking, and {@link #await(Duration)} always waits with a timeout ({@code poll}).
 * One thread at a time may await.
 */
public final class CompletionChannel extends NativeResource {
    private final Context context;
    private final MemorySegment channel;
    private final int fd;
    private final Map<Long, CompletionQueue> queues = new ConcurrentHashMap<>();

    CompletionChannel(Context context) {
        super("completion channel on " + context.name(), context);
        this.context = context;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            this.channel = VerbResults.checkPointer(IbVerbs.ibv_create_comp_channel(callState, context.handle()),
                    ibv_comp_channel.sizeof(), callState, "ibv_create_comp_channel", "creating a completion channel");
            this.fd = ibv_comp_channel.fd(channel);
            NonBlockingFd.makeNonBlocking(callState, fd, "the completion channel's fd");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Waits for the next completion event, acknowledges it and names the queue it came from.
     * Request notification on the queue first, and poll it after the event.
     *
     * @param timeout how long to wait at most
     * @return the queue with new completions, or empty when the timeout passed first
     * @throws VerbsException if {@code poll} or {@code ibv_get_cq_event} fails
     */
    public Optional<CompletionQueue> await(Duration timeout) {
        requireOpen();
        long deadline = Deadlines.after(timeout, "timeout");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            MemorySegment fds = arena.allocate(pollfd.layout());
            MemorySegment cqOut = arena.allocate(ADDRESS);
            MemorySegment contextOut = arena.allocate(ADDRESS);
            while (true) {
                enter();
                try {
                    int rc = IbVerbs.ibv_get_cq_event(callState, channel, cqOut, contextOut);
                    if (rc == 0) {
                        MemorySegment cq = cqOut.get(ADDRESS, 0);
                        IbVerbs.ibv_ack_cq_events(cq, 1);
                        return Optional.ofNullable(queues.get(cq.address()));
                    }
                } finally {
                    exit();
                }
                int errno = Errno.get(callState);
                if (errno != Errno.EAGAIN) {
                    throw new VerbsException("ibv_get_cq_event", errno, "reading a completion event");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return Optional.empty();
                }
                NonBlockingFd.awaitReadable(callState, fds, fd, left, "waiting on the completion channel");
            }
        }
    }

    /** {@return the context it belongs to} */
    public Context context() {
        return context;
    }

    /** {@return the {@code struct ibv_comp_channel *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        requireOpen();
        return channel;
    }

    void attach(CompletionQueue queue, long address) {
        queues.put(address, queue);
    }

    void detach(long address) {
        queues.remove(address);
    }

    @Override
    void destroy() {
        if (channel != null) {
            VerbResults.checkErrnoResult(IbVerbs.ibv_destroy_comp_channel(channel), "ibv_destroy_comp_channel",
                    "destroying a completion channel");
        }
    }
}
