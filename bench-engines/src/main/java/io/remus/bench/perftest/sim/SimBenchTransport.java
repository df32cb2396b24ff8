package io.remus.bench.perftest.sim;

import io.remus.core.fabric.CompletionQueue;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.ReceiveQueue;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.core.time.ThreadTime;
import io.remus.bench.perftest.BenchConnection;
import io.remus.bench.perftest.BenchFlags;
import io.remus.bench.perftest.BenchOperation;
import io.remus.bench.perftest.BenchSettings;
import io.remus.bench.perftest.BenchTransport;

import java.util.ArrayList;
import java.util.List;

/**
 * Benchmarks on remus-core's embedded simulator: a server node (0) and a client node (1) in this
 * JVM, each with one registered buffer that the other side's operations target. There is no
 * separate server process; what is measured is the software cost of the Java data path (post,
 * simulated execution, poll), not a network. For the SEND tests each node has a receive queue shared by
 * its QPs (the simulator's only kind), created before any QP connects, whose completions come on the
 * node's one completion queue with its sends'.
 */
public final class SimBenchTransport implements BenchTransport {
    static final int SERVER_NODE = 0;
    static final int CLIENT_NODE = 1;

    private final SimFabric fabric;
    private final FabricNode server;
    private final FabricNode client;
    private final RegisteredMemory serverBuffer;
    private final RegisteredMemory clientBuffer;
    private final int queuePairs;
    private final int queueDepth;
    private final int receiveDepth;
    private final CompletionQueue serverCq;
    private final CompletionQueue clientCq;
    private final ReceiveQueue serverReceives;
    private final ReceiveQueue clientReceives;
    private final List<SimBenchConnection> connections = new ArrayList<>();
    private boolean closed;

    /**
     * The simulated pair of a perftest-style run, its QPs retrying a receiver-not-ready peer forever as perftest's do
     * ({@code rnr_retry 7}). Called on a thread of the simulator's virtual-time scheduler, it gives the fabric simulated
     * addresses ({@link SimOptions#withStraddleOffset(long)} 0), so that a seed replays the run.
     *
     * @param s               the run's settings
     * @param simLatencyNanos the execution latency injected per work request
     * @param cost            the simulated NIC's cost model
     * @param rxDepth         receives each QP holds posted (SEND tests only)
     * @param notes           the report's notes, which get the injected latency and the cost model when there are some
     * @return the transport
     */
    public static SimBenchTransport forRun(BenchSettings s, long simLatencyNanos, SimCostModel cost, int rxDepth,
                                           List<String> notes) {
        if (simLatencyNanos > 0) {
            notes.add("sim execution latency injected: " + simLatencyNanos + " ns per work request");
        }
        if (!cost.isFree()) {
            notes.add("sim cost model " + cost.describe() + " (times are lower bounds)");
        }
        SimOptions options = SimOptions.defaults().withExecutionLatencyNanos(simLatencyNanos).withCostModel(cost)
                .withRnrRetries(SimOptions.RNR_RETRY_FOREVER);
        if (ThreadTime.isScheduled()) {
            options = options.withStraddleOffset(0); // simulated addresses: no native address decides anything
        }
        return new SimBenchTransport(options, BenchFlags.bufferBytes(s), s.queuePairs(), Math.max(s.txDepth(), 1),
                s.test().operation() == BenchOperation.SEND ? rxDepth : 0);
    }

    /**
     * @param options     the simulator's knobs (injected latency, timeouts)
     * @param bufferBytes each side's buffer length, positive
     * @param queuePairs  QPs per side
     * @param queueDepth  work requests in flight per QP
     */
    public SimBenchTransport(SimOptions options, long bufferBytes, int queuePairs, int queueDepth) {
        this(options, bufferBytes, queuePairs, queueDepth, 0);
    }

    /**
     * @param options      the simulator's knobs (injected latency, timeouts)
     * @param bufferBytes  each side's buffer length, positive
     * @param queuePairs   QPs per side
     * @param queueDepth   work requests in flight per QP
     * @param receiveDepth receives each QP holds posted, for the SEND tests; 0: no receive queue
     */
    public SimBenchTransport(SimOptions options, long bufferBytes, int queuePairs, int queueDepth, int receiveDepth) {
        this.fabric = new SimFabric(options);
        this.queuePairs = queuePairs;
        this.queueDepth = queueDepth;
        this.receiveDepth = receiveDepth;
        this.server = fabric.open(SERVER_NODE);
        this.client = fabric.open(CLIENT_NODE);
        this.serverBuffer = server.allocate(bufferBytes);
        this.clientBuffer = client.allocate(bufferBytes);
        server.publish(serverBuffer);
        client.publish(clientBuffer);
        int capacity = queuePairs * (queueDepth + receiveDepth);
        this.serverCq = server.createCompletionQueue(capacity);
        this.clientCq = client.createCompletionQueue(capacity);
        this.serverReceives = receiveDepth > 0 ? server.createReceiveQueue(serverCq, queuePairs * receiveDepth) : null;
        this.clientReceives = receiveDepth > 0 ? client.createReceiveQueue(clientCq, queuePairs * receiveDepth) : null;
    }

    @Override
    public String description() {
        return "sim fabric: client node " + CLIENT_NODE + " and server node " + SERVER_NODE
                + " in this JVM (no separate server process; measures the Java data path, not a network)";
    }

    @Override
    public String fabricName() {
        return fabric.name();
    }

    @Override
    public synchronized BenchConnection client() {
        return open(client, clientBuffer, SERVER_NODE, clientCq, clientReceives);
    }

    @Override
    public synchronized BenchConnection inProcessServer() {
        return open(server, serverBuffer, CLIENT_NODE, serverCq, serverReceives);
    }

    private BenchConnection open(FabricNode node, RegisteredMemory buffer, int peer, CompletionQueue cq, ReceiveQueue receives) {
        RemoteRegion remote = fabric.publishedRegions(peer).getFirst();
        SimBenchConnection c = new SimBenchConnection(node, buffer, remote, queuePairs, queueDepth, cq, receives, receiveDepth);
        connections.add(c);
        return c;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        connections.forEach(SimBenchConnection::close);
        // The nodes close the completion queues: with receive queues, the peers' connections deliver
        // into them until the nodes close, and a queue closed before would be refused, as verbs refuses it.
        fabric.close();
    }
}
