package io.remus.core;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.Completions;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.RegisteredMemory;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fabric node that counts the registrations and completion queues made through it and every
 * close of them, and refuses completion queues above {@code maxCompletionQueueEntries} as a device
 * with that {@code max_cqe} does. For tests of what a compute thread holds.
 */
final class CountingFabricNode implements FabricNode {
    final AtomicInteger registrations = new AtomicInteger();
    final AtomicInteger registrationCloses = new AtomicInteger();
    final AtomicInteger completionQueues = new AtomicInteger();
    final AtomicInteger completionQueueCloses = new AtomicInteger();
    private final FabricNode node;
    private final int maxCompletionQueueEntries;

    CountingFabricNode(FabricNode node, int maxCompletionQueueEntries) {
        this.node = node;
        this.maxCompletionQueueEntries = maxCompletionQueueEntries;
    }

    @Override
    public int nodeId() {
        return node.nodeId();
    }

    @Override
    public RegisteredMemory allocate(long bytes) {
        RegisteredMemory m = node.allocate(bytes);
        registrations.incrementAndGet();
        return new RegisteredMemory() {
            @Override
            public MemorySegment segment() {
                return m.segment();
            }

            @Override
            public long address() {
                return m.address();
            }

            @Override
            public long length() {
                return m.length();
            }

            @Override
            public int lkey() {
                return m.lkey();
            }

            @Override
            public int rkey() {
                return m.rkey();
            }

            @Override
            public void close() {
                registrationCloses.incrementAndGet();
                m.close();
            }
        };
    }

    @Override
    public RegisteredMemory register(MemorySegment segment) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void publishAll(java.util.List<? extends RegisteredMemory> memories) {
        throw new UnsupportedOperationException();
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity) {
        if (capacity > maxCompletionQueueEntries) {
            throw new BadArgumentException("completion queue capacity must be 1.." + maxCompletionQueueEntries + ", got " + capacity);
        }
        CompletionQueue cq = node.createCompletionQueue(capacity);
        completionQueues.incrementAndGet();
        return new CountedQueue(cq);
    }

    /** A completion queue whose closes are counted. */
    private final class CountedQueue implements CompletionQueue {
        private final CompletionQueue inner;

        CountedQueue(CompletionQueue inner) {
            this.inner = inner;
        }

        @Override
        public int poll(Completions out) {
            return inner.poll(out);
        }

        @Override
        public int capacity() {
            return inner.capacity();
        }

        @Override
        public void close() {
            completionQueueCloses.incrementAndGet();
            inner.close();
        }
    }

    @Override
    public QueuePair connect(int peerNodeId, int plane, CompletionQueue cq, int sendQueueDepth, Duration waitTimeout) {
        return node.connect(peerNodeId, plane, cq instanceof CountedQueue counted ? counted.inner : cq, sendQueueDepth,
                waitTimeout);
    }

    @Override
    public ReceiveQueue createReceiveQueue(CompletionQueue cq, int depth) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void setPeerAccess(int peerNodeId, io.remus.core.fabric.PeerAccess access) {
        node.setPeerAccess(peerNodeId, access);
    }

    @Override
    public void setPeerAccess(int peerNodeId, int plane, io.remus.core.fabric.PeerAccess access) {
        node.setPeerAccess(peerNodeId, plane, access);
    }

    @Override
    public void close() {
        node.close();
    }
}
