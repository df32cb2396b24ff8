package io.remus.core;

import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.QueuePair;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.RegisteredMemory;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;

/**
 * A fabric node that runs {@code afterPublish} after every publication it passes on ({@link #publish} and
 * {@link #publishAll} calls alike), on the publishing thread: a peer that looks at the node then looks
 * between two of its publications. For tests of what peers see while a node publishes.
 */
final class PublishHookFabricNode implements FabricNode {
    private final FabricNode node;
    private final Runnable afterPublish;

    PublishHookFabricNode(FabricNode node, Runnable afterPublish) {
        this.node = node;
        this.afterPublish = afterPublish;
    }

    @Override
    public int nodeId() {
        return node.nodeId();
    }

    @Override
    public RegisteredMemory allocate(long bytes) {
        return node.allocate(bytes);
    }

    @Override
    public RegisteredMemory register(MemorySegment segment) {
        return node.register(segment);
    }

    @Override
    public void publishAll(List<? extends RegisteredMemory> memories) {
        node.publishAll(memories);
        afterPublish.run();
    }

    @Override
    public CompletionQueue createCompletionQueue(int capacity) {
        return node.createCompletionQueue(capacity);
    }

    @Override
    public QueuePair connect(int peerNodeId, int plane, CompletionQueue cq, int sendQueueDepth, Duration waitTimeout) {
        return node.connect(peerNodeId, plane, cq, sendQueueDepth, waitTimeout);
    }

    @Override
    public ReceiveQueue createReceiveQueue(CompletionQueue cq, int depth) {
        return node.createReceiveQueue(cq, depth);
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
