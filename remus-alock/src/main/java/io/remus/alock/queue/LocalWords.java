package io.remus.alock.queue;

import io.remus.core.time.ThreadTime;
import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * CPU atomics on words of a thread's own node by pointer: a view of each segment the node publishes, made
 * once, so that reading or swapping a word of another thread's queue node on this node allocates nothing.
 * Only for words that no RDMA atomic touches (ARCHITECTURE.md's atomicity table). Not thread-safe.
 */
public final class LocalWords {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private final ComputeThread thread;
    private long[] bases = new long[0];
    private MemorySegment[] views = new MemorySegment[0];

    /**
     * Creates the view of one thread's node.
     *
     * @param thread the thread whose node's words it reaches
     */
    public LocalWords(ComputeThread thread) {
        this.thread = Objects.requireNonNull(thread, "thread");
    }

    /**
     * Loads a word of this thread's node.
     *
     * @param ptr an 8-byte aligned word on this thread's node
     * @return its value, by a volatile CPU load
     */
    public long getVolatile(long ptr) {
        int i = indexOf(ptr);
        ThreadTime.onLocalAccess();
        return (long) WORD.getVolatile(views[i], RemotePtr.address(ptr) - bases[i]);
    }

    /**
     * Compares and exchanges a word of this thread's node with a CPU atomic.
     *
     * @param ptr      an 8-byte aligned word on this thread's node
     * @param expected the value it must hold
     * @param desired  its new value
     * @return the value it held: {@code expected} when it changed
     */
    public long compareAndExchange(long ptr, long expected, long desired) {
        int i = indexOf(ptr);
        ThreadTime.onLocalAccess();
        return (long) WORD.compareAndExchange(views[i], RemotePtr.address(ptr) - bases[i], expected, desired);
    }

    private int indexOf(long ptr) {
        int i = find(RemotePtr.address(ptr));
        if (i < 0 || RemotePtr.node(ptr) != thread.nodeId()) {
            refresh();
            i = find(RemotePtr.address(ptr));
            if (i < 0 || RemotePtr.node(ptr) != thread.nodeId()) {
                throw new IllegalStateException("the word " + RemotePtr.toString(ptr) + " is not in a segment of node "
                        + thread.nodeId());
            }
        }
        return i;
    }

    private int find(long address) {
        for (int i = 0; i < bases.length; i++) {
            long offset = address - bases[i];
            if (offset >= 0 && offset + 8 <= views[i].byteSize()) {
                return i;
            }
        }
        return -1;
    }

    private void refresh() {
        int node = thread.nodeId();
        int n = thread.segmentCount(node);
        long[] b = new long[n];
        MemorySegment[] v = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            long base = thread.segmentBase(node, i);
            b[i] = RemotePtr.address(base);
            v[i] = thread.localSegment(base, thread.segmentLength(node, i));
        }
        bases = b;
        views = v;
    }
}
