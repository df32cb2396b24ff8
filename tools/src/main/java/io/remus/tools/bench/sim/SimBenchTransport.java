package io.remus.tools.bench.sim;

import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RegisteredMemory;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.tools.bench.BenchConnection;
import io.remus.tools.bench.BenchTransport;

import java.util.ArrayList;
import java.util.List;

/**
 * Benchmarks on remus-core's embedded simulator: a server node (0) and a client node (1) in this
 * JVM, each with one registered buffer that the other side's operations target. There is no
 * separate server process; what is measured is the software cost of the Java data path (post,
 * simulated execution, poll), not a network.
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
    private final List<SimBenchConnection> connections = new ArrayList<>();
    private boolean closed;

    /**
     * @param options     the simulator's knobs (injected latency, timeouts)
     * @param bufferBytes each side's buffer length, positive
     * @param queuePairs  QPs per side
     * @param queueDepth  work requests in flight per QP
     */
    public SimBenchTransport(SimOptions options, long bufferBytes, int queuePairs, int queueDepth) {
        this.fabric = new SimFabric(options);
        this.queuePairs = queuePairs;
        this.queueDepth = queueDepth;
        this.server = fabric.open(SERVER_NODE);
        this.client = fabric.open(CLIENT_NODE);
        this.serverBuffer = server.allocate(bufferBytes);
        this.clientBuffer = client.allocate(bufferBytes);
        server.publish(serverBuffer);
        client.publish(clientBuffer);
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
        return open(client, clientBuffer, SERVER_NODE);
    }

    @Override
    public synchronized BenchConnection inProcessServer() {
        return open(server, serverBuffer, CLIENT_NODE);
    }

    private BenchConnection open(FabricNode node, RegisteredMemory buffer, int peer) {
        RemoteRegion remote = fabric.publishedRegions(peer).getFirst();
        SimBenchConnection c = new SimBenchConnection(node, buffer, remote, queuePairs, queueDepth);
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
        fabric.close();
    }
}
