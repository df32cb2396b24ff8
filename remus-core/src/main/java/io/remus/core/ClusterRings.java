package io.remus.core;

import io.remus.core.error.NameNotPublishedException;
import io.remus.core.error.ThreadConfinementException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;
import io.remus.core.rpc.RingResolver;

import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * The RPC rings of a cluster's compute nodes in its name directory (the first memory node's): each incarnation of a
 * node publishes a block of three words (address, length, rkey) under {@link #name(int, long)}, so a process
 * restarted with new memory publishes beside its former incarnation's name, never over it (a name binds once).
 * {@link #rings} looks them up for an {@link io.remus.core.rpc.RpcEndpoint}: on the thread that opened the endpoint
 * with the cluster's own compute thread, on any other (the endpoint's, re-learning a restarted peer) with a compute
 * thread of this node made on its first use there. Names are never unbound: each incarnation of each node takes one
 * slot of the directory for the directory's life.
 */
final class ClusterRings implements RingResolver {
    private final RemusNode node;
    private final ComputeThread setup;
    private final Thread setupThread;
    private NameDirectory setupNames;
    private ComputeThread own;
    private NameDirectory ownNames;

    ClusterRings(RemusNode node, ComputeThread setup) {
        this.node = node;
        this.setup = setup;
        this.setupThread = Thread.currentThread();
    }

    /** {@return the name incarnation {@code incarnation} of node {@code nodeId} publishes its rings under: at most 29 characters} */
    static String name(int nodeId, long incarnation) {
        return "remus.rpc." + nodeId + "." + Long.toUnsignedString(incarnation, 36);
    }

    /**
     * Publishes {@code rings} under this node's incarnation's name, on the set-up thread: 1 RDMA WRITE of the three
     * words into a block of the set-up thread's allocator, then the directory's publish. The block is on this node
     * when it is a memory node, so that it lives exactly as long as the rings it names: on another memory node it
     * would be lost when that node restarts, and the restarted node would read its own new memory for this node's
     * rings.
     *
     * @return whether this call bound the name (false: it was bound before)
     */
    boolean publish(RemoteRegion rings) {
        NameDirectory names = setupNames();
        int self = rings.nodeId();
        long block = setup.config().memoryNodes().contains(self)
                ? setup.allocator().allocate(3 * Long.BYTES, self)
                : setup.allocator().allocate(3 * Long.BYTES);
        setup.write(block, MemorySegment.ofArray(new long[] {rings.address(), rings.length(), rings.rkey()}));
        return names.publish(name(rings.nodeId(), node.fabricNode().incarnation()), block) == block;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The directory's {@link NameDirectory#await} of the incarnation's name (its lookups' READs, 2 round trips per
     * look) and 1 READ of the three words.
     */
    @Override
    public RemoteRegion rings(int peer, long incarnation, Duration timeout) {
        boolean onSetup = Thread.currentThread() == setupThread;
        ComputeThread t = onSetup ? setup : own();
        NameDirectory names = onSetup ? setupNames() : ownNames();
        long block;
        try {
            block = names.await(name(peer, incarnation), timeout);
        } catch (NameNotPublishedException e) {
            return null;
        }
        if (block == RemotePtr.NULL) {
            return null;
        }
        long[] words = new long[3];
        t.read(block, MemorySegment.ofArray(words));
        return new RemoteRegion(peer, words[0], words[1], (int) words[2]);
    }

    private NameDirectory setupNames() {
        if (setupNames == null) {
            setupNames = NameDirectory.open(setup);
        }
        return setupNames;
    }

    private ComputeThread own() {
        if (own == null) {
            own = node.newComputeThread();
        }
        return own;
    }

    private NameDirectory ownNames() {
        if (ownNames == null) {
            ownNames = NameDirectory.open(own());
        }
        return ownNames;
    }

    /** Closes the compute thread made for another thread, when its owner has ended (else it closes with the node). */
    void close() {
        if (own != null) {
            try {
                own.close();
            } catch (ThreadConfinementException e) {
                // its owner still runs: the node's close ends it
            }
        }
    }
}
