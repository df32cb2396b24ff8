package io.remus.verbs;

import io.remus.verbs.ffi.Errno;
import io.remus.verbs.ffi.IbVerbs;
import io.remus.verbs.ffi.ibv_cq;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A completion queue ({@code struct ibv_cq}). {@link #poll(WorkCompletions)} is the data path:
 * it calls the provider's {@code poll_cq} through the function pointer read once at creation
 * and allocates nothing. One thread at a time may poll a queue.
 *
 * <p>{@link #poll} and {@link #requestNotify} are safe against {@link #close()} on another thread:
 * the close waits for a call in flight to return before it destroys the queue, and a call that
 * starts after the close began throws {@link ClosedResourceException} without calling the provider.
 * The raw {@link #handle()} is outside this guarantee.
 */
public final class CompletionQueue extends NativeResource {
    /** Empty polls {@link #pollUntilAny} spins through before it starts yielding the CPU. */
    public static final int SPIN_POLLS = 64;

    private final Context context;
    private final CompletionChannel channel;
    private final MemorySegment cq;
    private final MemorySegment pollFunction;
    private final MemorySegment notifyFunction;
    private final int capacity;

    CompletionQueue(Context context, int capacity, CompletionChannel channel) {
        super("completion queue on " + context.name(), context, channel);
        this.context = context;
        this.channel = channel;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment callState = Errno.allocate(arena);
            this.cq = VerbResults.checkPointer(IbVerbs.ibv_create_cq(callState, context.handle(), capacity,
                            MemorySegment.NULL, channel == null ? MemorySegment.NULL : channel.handle(), 0),
                    ibv_cq.sizeof(), callState, "ibv_create_cq", "creating a completion queue of " + capacity);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.capacity = ibv_cq.cqe(cq);
        this.pollFunction = IbVerbs.ops_poll_cq(context.handle());
        this.notifyFunction = IbVerbs.ops_req_notify_cq(context.handle());
        if (channel != null) {
            channel.attach(this, cq.address());
        }
    }

    /**
     * Takes up to {@code completions.capacity()} completions. Allocates nothing.
     *
     * @param completions where to put them; {@link WorkCompletions#count()} is set to the result
     * @return how many were taken, 0 if none
     * @throws ClosedResourceException if this queue or {@code completions} is closed
     * @throws VerbsException          if {@code poll_cq} fails
     */
    public int poll(WorkCompletions completions) {
        enter();
        try {
            completions.enter();
            try {
                int n = IbVerbs.ibv_poll_cq(pollFunction, cq, completions.capacity(), completions.entries());
                if (n < 0) {
                    completions.count(0);
                    throw new VerbsException("ibv_poll_cq", -n, "polling a completion queue");
                }
                completions.count(n);
                return n;
            } finally {
                completions.exit();
            }
        } finally {
            exit();
        }
    }

    /**
     * Polls until at least one completion arrives or the timeout passes: busy for the first
     * {@value #SPIN_POLLS} empty polls, then yielding the CPU ({@link Thread#yield()}) after each
     * further empty poll. Yielding matters where the completion needs the CPU this thread spins
     * on: Soft-RoCE does its transport work in the kernel's deferred contexts (softirq,
     * ksoftirqd), and on an oversubscribed CPU (a VM, JIT compiler threads, a peer process)
     * a thread that never yields makes that work wait for the scheduler tick (4 ms at HZ=250).
     * Where nothing else wants the CPU, {@code sched_yield} returns at once. Allocates nothing
     * unless it times out.
     *
     * @param completions where to put them
     * @param timeoutNanos how long to poll at most
     * @return how many were taken, at least 1
     * @throws WaitTimeoutException if none arrived in time
     */
    public int pollUntilAny(WorkCompletions completions, long timeoutNanos) {
        long start = System.nanoTime();
        int empty = 0;
        while (true) {
            int n = poll(completions);
            if (n > 0) {
                return n;
            }
            if (++empty > SPIN_POLLS) {
                Thread.yield();
                if (System.nanoTime() - start > timeoutNanos) {
                    throw new WaitTimeoutException("no completion within " + timeoutNanos / 1_000_000 + " ms");
                }
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Arms the queue: the next completion (or next solicited one) sends an event to its channel.
     *
     * @param solicitedOnly whether only solicited completions count
     * @throws InvalidArgumentException if the queue has no channel
     * @throws VerbsException           if {@code req_notify_cq} fails
     */
    public void requestNotify(boolean solicitedOnly) {
        requireOpen();
        if (channel == null) {
            throw new InvalidArgumentException("this completion queue has no completion channel");
        }
        enter();
        try {
            VerbResults.checkErrnoResult(IbVerbs.ibv_req_notify_cq(notifyFunction, cq, solicitedOnly ? 1 : 0),
                    "ibv_req_notify_cq", "arming a completion queue");
        } finally {
            exit();
        }
    }

    /** {@return how many completions it holds (at least what was asked for)} */
    public int capacity() {
        return capacity;
    }

    /** {@return the context it belongs to} */
    public Context context() {
        return context;
    }

    /** {@return the {@code struct ibv_cq *} (escape hatch to the raw layer)} */
    public MemorySegment handle() {
        requireOpen();
        return cq;
    }

    @Override
    void destroy() {
        if (cq != null) {
            VerbResults.checkErrnoResult(IbVerbs.ibv_destroy_cq(cq), "ibv_destroy_cq", "destroying a completion queue");
            if (channel != null) {
                channel.detach(cq.address());
            }
        }
    }
}
