package io.remus.core;

import io.remus.core.time.ThreadTime;
import io.remus.core.config.ClusterConfig;
import io.remus.core.config.ConfigSources;
import io.remus.core.config.NodeAddress;
import io.remus.core.config.Rendezvous;
import io.remus.core.config.TcpRendezvous;
import io.remus.core.config.Timeouts;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.shm.ShmFabric;
import io.remus.core.sim.SimFabric;
import io.remus.core.verbs.BootstrapKind;
import io.remus.core.verbs.VerbsFabric;
import io.remus.core.verbs.VerbsFabricOptions;
import io.remus.verbs.Context;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.Gid;
import io.remus.verbs.PortAttributes;
import io.remus.verbs.VerbsException;

import java.io.IOException;
import java.io.Reader;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * This process's membership in a Remus cluster, from joining to the shutdown handshake: what a
 * program's {@code main} calls once.
 *
 * <pre>{@code
 * public static void main(String[] args) {
 *     try (RemusCluster cluster = RemusCluster.join(args)) {
 *         ComputeThread t = cluster.computeThread();
 *         ...                        // remote reads, writes, atomics
 *         cluster.barrier().await(); // every node's computeThread() meets here
 *     }                              // announces shutdown, waits until no peer needs this node's memory
 * }
 * }</pre>
 *
 * <h2>Configuration and its precedence</h2>
 * Each setting is taken from the first source that gives it: the {@link Builder}'s explicit
 * settings ({@link Builder#config} replaces every configuration key); then {@code --key=value} (or
 * {@code --key value}) arguments; then the properties file that {@code --config=FILE} (or
 * {@code REMUS_CONFIG}) names; then the environment ({@code REMUS_*} and the launcher's variables,
 * see {@link ConfigSources#fromEnvironment}). The configuration keys are {@link ConfigSources}'s
 * (with Remus' flag names {@code --node-id}, {@code --seg-size}, {@code --qp-lanes},
 * {@code --alloc-pol}, {@code --cn-threads} as aliases); the node list is the {@code nodes} or
 * {@code hostfile} key of the highest source that has one (a {@link io.remus.core.config.Hostfile}
 * in Remus' or the MPI form). Keys of the join itself, in the same sources (environment:
 * {@code REMUS_} and the key upper-cased, {@code .} as {@code _}):
 * <pre>
 * fabric              verbs (default) | sim | shm
 * shm.dir             fabric=shm: the cluster's directory of shared memory files, the same path in
 *                     every process and fresh per cluster (default: the rendezvous directory)
 * device              the RDMA device (default: the first one libibverbs lists)
 * bootstrap           rdma_cm (default) | tcp
 * rendezvous          a shared directory for the address exchange, or tcp://host:port where
 *                     rank 0 collects and hands out the addresses (see below)
 * address             this node's host[:port] for the rendezvous (default: the device's IPv4
 *                     address; the port, when not given, port.base + node id)
 * port.base           the rendezvous's port of node 0 (default 18515; node i gets port.base + i,
 *                     which must not pass 65535)
 * join.timeout.ms     how long join waits for peers, counted once this node knows its own address
 *                     (default 60000; "forever" waits without end)
 * shutdown.timeout.ms how long close waits for the other nodes' shutdown (default 120000)
 * config              a properties file with configuration and join keys
 * </pre>
 * An unknown key in the arguments or the properties file is a {@link BadArgumentException}
 * naming it; {@code REMUS_*} variables that name no key are ignored, since the environment is
 * shared with other tools (e.g. the tests' {@code REMUS_TEST_DEVICE}).
 *
 * <h2>Launchers and how each finds its peers</h2>
 * <ul>
 * <li><b>A hostfile or node list</b> ({@code --hostfile=FILE}, {@code --nodes=a,b,c}, or
 *     {@code REMUS_HOSTFILE}/{@code REMUS_NODES}) with {@code --node-id=N} per process (or a
 *     launcher's rank): entry {@code i} is node {@code i}'s address.</li>
 * <li><b>Slurm</b> ({@code srun}): rank and size from {@code SLURM_PROCID}/{@code SLURM_NTASKS};
 *     the hosts from {@code SLURM_STEP_NODELIST} (else {@code SLURM_JOB_NODELIST}) with tasks
 *     placed by {@code SLURM_STEP_TASKS_PER_NODE}; node {@code i} listens at port
 *     {@code 18515 + i}, so several tasks on one host get distinct ports. The host names must
 *     resolve to the RDMA devices' IPv4 addresses; where they do not, use {@code --rendezvous}.</li>
 * <li><b>Open MPI</b> ({@code mpirun}; also MPICH and other PMI launchers): rank and size from
 *     {@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE} ({@code PMI_RANK}/{@code PMI_SIZE}).
 *     Their environment names no peer host, so the addresses come from {@code --rendezvous DIR}:
 *     every rank writes {@code DIR/rank-N} with its address and waits for all ({@link Rendezvous}).
 *     {@code DIR} must be shared by all processes (one host, or a network file system) and fresh
 *     per job.</li>
 * </ul>
 * Without a shared directory, {@code --rendezvous tcp://HOST:PORT} exchanges the addresses through
 * rank 0, which must run on {@code HOST} ({@link TcpRendezvous}). The rendezvous works under any
 * launcher (or none, with {@code --node-id} and {@code --node.count}); its list replaces any other
 * node list.
 *
 * <h2>Fabrics</h2>
 * {@code fabric=verbs} opens the RDMA device and connects to the peer processes
 * ({@link VerbsFabric}). {@code fabric=sim} runs on the embedded simulator, where the whole cluster
 * lives in this JVM: alone it is a one-node cluster ({@code node.count} 1); for several nodes in one
 * JVM, each joining thread passes the same {@link SimFabric} to {@link Builder#fabric} (which, given,
 * is used whatever {@code fabric} says, and is not closed by {@link #close()}). {@code fabric=shm}
 * runs the nodes as processes of one host with no RDMA device ({@link ShmFabric}): each process
 * opens its node in the directory {@code shm.dir} ({@link Builder#sharedMemory}), where every node
 * keeps its memory as files that its peers map, and the peers find each other's memory there, so no
 * address is exchanged (a {@code rendezvous} directory serves as {@code shm.dir} when that is not
 * given; a {@code tcp://} rendezvous is refused). Rank and size come from the launcher as for verbs,
 * e.g. {@code mpirun -np 4 java ... --fabric=shm --shm.dir=/dev/shm/job42}. The directory's files
 * outlive the processes (a dead process's memory stays readable to its peers) until they are removed
 * ({@link ShmFabric#removeFiles}).
 *
 * <h2>Waits</h2>
 * Every wait is bounded. The rendezvous and the wait for peers share the join timeout, which starts
 * once this node knows its own address (on verbs that means opening its device, which is not spent
 * from the time left for the peers). A connection attempt to a peer that started before the
 * deadline runs to its own end, the same timeout, so join gives up within about twice the timeout
 * at worst. {@link #barrier()} is bounded by the join timeout,
 * the shutdown handshake by the shutdown timeout. A timeout is a {@link RemoteTimeoutException}
 * naming the nodes it still waited for.
 *
 * <p>Thread use: {@link #computeThread()}, {@link #barrier()} and {@link #close()} share one
 * compute thread, confined to the first Java thread that uses it; call them from one thread.
 */
public final class RemusCluster implements AutoCloseable {
    /** How long {@link Builder#join()} waits for peers unless told otherwise. */
    public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(60);
    /** How long {@link #close()} waits for the other nodes' shutdown unless told otherwise. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofMinutes(2);

    private static final Set<String> JOIN_KEYS = Set.of("fabric", "device", "bootstrap", "rendezvous", "address",
            "port.base", "join.timeout.ms", "shutdown.timeout.ms", "config", "shm.dir");
    private static final String TCP_SCHEME = "tcp://";
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private final Fabric fabric;
    private final boolean ownsFabric;
    private final RemusNode node;
    private final ComputeThread main;
    private final Duration barrierTimeout;
    private final Duration shutdownTimeout;
    private ClusterBarrier barrier;
    private RpcEndpoint rpcEndpoint;
    private ClusterRings rpcRings;
    private boolean rpcOpened;
    private boolean closed;

    private RemusCluster(Fabric fabric, boolean ownsFabric, RemusNode node, ComputeThread main, Duration barrierTimeout,
                         Duration shutdownTimeout) {
        this.fabric = fabric;
        this.ownsFabric = ownsFabric;
        this.node = node;
        this.main = main;
        this.barrierTimeout = barrierTimeout;
        this.shutdownTimeout = shutdownTimeout;
    }

    /**
     * Joins the cluster configured by {@code args} and this process's environment (see the class
     * documentation for the keys and their precedence).
     *
     * @param args {@code --key=value} or {@code --key value} arguments
     * @return the joined cluster
     * @throws BadArgumentException   naming a bad or unknown key or value
     * @throws RemoteTimeoutException naming the peers that did not come within the join timeout
     * @throws RemusException         when the fabric cannot be opened
     */
    public static RemusCluster join(String... args) {
        return builder().args(args).environment(System.getenv()).join();
    }

    /** {@return a builder that reads no environment unless {@link Builder#environment} is called} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return this node's id (its rank)} */
    public int nodeId() {
        return node.config().nodeId();
    }

    /** {@return how many nodes the cluster has} */
    public int size() {
        return node.config().nodes().size();
    }

    /** {@return the configuration this node runs with (its node list holds every peer's address)} */
    public ClusterConfig config() {
        return node.config();
    }

    /** {@return this process's node} */
    public RemusNode node() {
        return node;
    }

    /** {@return the fabric the node runs on} */
    public Fabric fabric() {
        return fabric;
    }

    /**
     * {@return the cluster's own compute thread of this node: the one {@link #barrier()} and the
     *         shutdown handshake use; closed by {@link #close()}}
     * @throws BadArgumentException when this node is not a compute node
     */
    public ComputeThread computeThread() {
        if (main == null) {
            throw new BadArgumentException("node " + nodeId() + " is not a compute node (" + config().computeNodes() + ")");
        }
        return main;
    }

    /**
     * {@return a new compute thread for another application thread (see
     *         {@link RemusNode#newComputeThread()}); its user closes it before {@link #close()}}
     */
    public ComputeThread newComputeThread() {
        return node.newComputeThread();
    }

    /**
     * A new compute thread whose queue pairs are on {@code plane} (see {@link RemusNode#newComputeThread(int)}), for
     * a replicated log's leader, whose members switch that plane alone; its user closes it before {@link #close()}.
     *
     * @param plane the plane, {@code 0} to {@code Plane.COUNT - 1}
     * @return the thread
     * @throws BadArgumentException naming the plane when it is out of range, or when this node is not a compute node
     */
    public ComputeThread newComputeThread(int plane) {
        return node.newComputeThread(plane);
    }

    /**
     * {@return the cluster barrier of {@link #computeThread()}s ({@link ClusterBarrier#ofComputeNodes}):
     *         each round waits for one arrival per compute node, at most the join timeout, and a
     *         timeout names the compute nodes (id and address) that had not arrived; the same
     *         instance on every call}
     * @throws BadArgumentException when this node is not a compute node
     */
    public ClusterBarrier barrier() {
        if (barrier == null) {
            barrier = ClusterBarrier.ofComputeNodes(computeThread(), barrierTimeout);
        }
        return barrier;
    }

    /**
     * Opens this node's {@link RpcEndpoint} and connects it to every compute node's, this node's own
     * included (a call to this node loops back through the NIC): the set-up every compute node of the
     * cluster calls once, together, before any of them calls or serves. In order:
     * <ol>
     * <li>{@link RpcEndpoint#create} on this node's {@link RemusNode#fabricNode()} for node ids
     *     {@code 0..size()-1} with {@code ringSlots} slots per ring; no RDMA operation.</li>
     * <li>Publishes the endpoint's {@link RpcEndpoint#rings()} in the cluster's {@link NameDirectory}
     *     (the first memory node's) under {@code remus.rpc.<nodeId>.<incarnation>} (the node's
     *     {@link io.remus.core.fabric.FabricNode#incarnation()} in base 36): a block of three words
     *     (address, length, rkey) from {@link ComputeThread#allocator()} (on this node when it is a memory node,
     *     so the block lives as long as the rings it names), written with 1 RDMA WRITE, then
     *     bound by the directory's {@link NameDirectory#publish} (its READs and compare-and-swaps, plus the
     *     directory's {@link NameDirectory#open} on first use).</li>
     * <li>{@link #barrier()}: every compute node has published.</li>
     * <li>For each compute node {@code p}: {@link RpcEndpoint#connect(int, Duration)} (the fabric's
     *     queue-pair set-up), whose resolver does the {@link NameDirectory#await} of the name of the
     *     incarnation the queue pair reached (its lookup's READs, 2 round trips) and 1 RDMA READ of its three
     *     words.</li>
     * <li>{@link #barrier()} again: every compute node is connected to every other, so a call made after
     *     this method returns finds its callee connected.</li>
     * </ol>
     * Every wait is bounded by the join timeout: each barrier by its own, and the directory's
     * {@link NameDirectory#await}s and the connections together by one counted from the call, so the
     * call gives up within about three join timeouts at worst. Blocking; the endpoint belongs to the
     * first Java thread that calls or serves on it (see {@link RpcEndpoint}). It is this cluster's:
     * {@link #close()} closes it before it closes the node; its user does not close it. The block of
     * three words stays allocated for the cluster's life.
     *
     * <p><b>Restarted peers.</b> The endpoint keeps the directory as its {@link io.remus.core.rpc.RingResolver}:
     * when a peer's process is killed and started again ({@link #reopenRpcEndpoint} there), the endpoint's next
     * probe of it reaches the new incarnation and looks up that incarnation's rings (the same READs, waiting no
     * longer than the deadline of the call or serve that probes), then calls and answers it there (see
     * {@link RpcEndpoint}, "Restarted peers"). The look-ups run on the thread that opened the endpoint with the
     * cluster's compute thread, and on the endpoint's thread, when another, with a compute thread of this node
     * made on its first re-learn.
     *
     * <p><b>Memory-only nodes</b> take no part: they have no compute thread, so they can neither meet the
     * barrier nor call, and this method refuses them. The compute nodes' endpoints address every node id
     * but connect only to compute nodes; a call to a memory-only node is refused as unconnected.
     *
     * @param ringSlots slots per ring, the credits a caller holds towards each peer: 1 to
     *                  {@value RpcEndpoint#MAX_RING_SLOTS}
     * @return this node's endpoint, connected to every compute node's
     * @throws BadArgumentException   naming {@code ringSlots} when it is out of range, naming this node when
     *                                it is not a compute node or when it called this method before (even
     *                                if that call failed: a node's rings are published once)
     * @throws RemoteTimeoutException naming the node that did not publish its rings, or the compute nodes
     *                                that did not reach a barrier, within the join timeout
     * @throws RemusException         naming the node whose endpoint could not be connected
     */
    public RpcEndpoint openRpcEndpoint(int ringSlots) {
        if (ringSlots < 1 || ringSlots > RpcEndpoint.MAX_RING_SLOTS) {
            throw new BadArgumentException("ringSlots must be 1 to " + RpcEndpoint.MAX_RING_SLOTS + ", got " + ringSlots);
        }
        if (main == null) {
            throw new BadArgumentException("node " + nodeId() + " is a memory-only node (compute nodes "
                    + config().computeNodes() + "): it has no RPC endpoint");
        }
        if (closed) {
            throw new BadArgumentException("node " + nodeId() + "'s cluster membership is closed");
        }
        if (rpcOpened) {
            throw new BadArgumentException("node " + nodeId() + " already opened its RPC endpoint: a node's rings are "
                    + "published once per cluster");
        }
        rpcOpened = true;
        return openEndpoint(ringSlots, true);
    }

    /**
     * Opens this node's {@link RpcEndpoint} in a process restarted while the cluster runs (its node a new
     * incarnation with new memory, {@link io.remus.core.fabric.FabricNode#incarnation()}): as
     * {@link #openRpcEndpoint} without its barriers, which the other compute nodes passed in their first lives.
     * Publishes the new rings under this incarnation's name (the former incarnation's name stays bound to the former
     * rings), then connects to every compute node, this one included, each connection's look-up bounded by the join
     * timeout. The others learn the new rings at their next probe of this node (see {@link #openRpcEndpoint},
     * "Restarted peers"). Blocking; RDMA operations as {@link #openRpcEndpoint}'s, less the barriers'.
     *
     * @param ringSlots slots per ring, as every node gave: 1 to {@value RpcEndpoint#MAX_RING_SLOTS}
     * @return this node's endpoint, connected to every compute node's
     * @throws BadArgumentException   as {@link #openRpcEndpoint}
     * @throws RemoteTimeoutException naming the node whose rings were not found within the join timeout
     * @throws RemusException         naming the node whose endpoint could not be connected
     */
    public RpcEndpoint reopenRpcEndpoint(int ringSlots) {
        if (ringSlots < 1 || ringSlots > RpcEndpoint.MAX_RING_SLOTS) {
            throw new BadArgumentException("ringSlots must be 1 to " + RpcEndpoint.MAX_RING_SLOTS + ", got " + ringSlots);
        }
        if (main == null) {
            throw new BadArgumentException("node " + nodeId() + " is a memory-only node (compute nodes "
                    + config().computeNodes() + "): it has no RPC endpoint");
        }
        if (closed) {
            throw new BadArgumentException("node " + nodeId() + "'s cluster membership is closed");
        }
        if (rpcOpened) {
            throw new BadArgumentException("node " + nodeId() + " already opened its RPC endpoint: a node's rings are "
                    + "published once per cluster");
        }
        rpcOpened = true;
        return openEndpoint(ringSlots, false);
    }

    private RpcEndpoint openEndpoint(int ringSlots, boolean together) {
        long start = ThreadTime.nanoTime();
        RpcEndpoint endpoint = RpcEndpoint.create(node.fabricNode(), size(), ringSlots);
        ClusterRings rings = new ClusterRings(node, main);
        endpoint.resolveRingsWith(rings);
        try {
            if (!rings.publish(endpoint.rings())) {
                throw new BadArgumentException("node " + nodeId() + "'s RPC rings are already published in this cluster's "
                        + "name directory (" + ClusterRings.name(nodeId(), node.fabricNode().incarnation())
                        + "): a node opens its RPC endpoint once per cluster");
            }
            if (together) {
                barrier().await();
            }
            for (int p = config().computeNodes().first(); p <= config().computeNodes().last(); p++) {
                connect(endpoint, p, left(start, p));
            }
            if (together) {
                barrier().await();
            }
        } catch (RuntimeException e) {
            endpoint.close();
            rings.close();
            throw e;
        }
        rpcEndpoint = endpoint;
        rpcRings = rings;
        return endpoint;
    }

    private void connect(RpcEndpoint endpoint, int peer, Duration timeout) {
        String what = "node " + nodeId() + ": connecting its RPC endpoint to node " + peer + ": ";
        try {
            endpoint.connect(peer, timeout);
        } catch (RemoteTimeoutException e) {
            RemoteTimeoutException named = new RemoteTimeoutException(what + e.getMessage());
            named.initCause(e);
            throw named;
        } catch (BadArgumentException e) {
            throw e;
        } catch (RemusException e) {
            throw new RemusException(what + e.getMessage(), e);
        }
    }

    private Duration left(long start, int peer) {
        long left = barrierTimeout.toNanos() - (ThreadTime.nanoTime() - start);
        if (left <= 0) {
            throw new RemoteTimeoutException("node " + nodeId() + ": the join timeout (" + barrierTimeout
                    + ") ran out before the RPC endpoint of node " + peer + " was connected");
        }
        return Duration.ofNanos(left);
    }

    /**
     * Leaves the cluster: announces that this node no longer reads remote memory (when it is a
     * compute node), waits until every compute node announced the same (when it is a memory node),
     * so no peer still reads memory this node frees, then closes the compute thread, the node and,
     * when {@code join} opened it, the fabric. Everything is closed even when the handshake fails.
     * Idempotent.
     *
     * @throws RemoteTimeoutException naming this node when not every compute node announced its
     *                                shutdown within the shutdown timeout
     * @throws RemusException         when announcing to a memory node failed (e.g. it died)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            if (rpcEndpoint != null) {
                rpcEndpoint.close();
                rpcRings.close();
            }
            if (main != null) {
                ClusterShutdown.announce(main);
            }
            if (node.memoryNode().isPresent()) {
                node.memoryNode().get().awaitShutdown(config().computeNodes().size(), shutdownTimeout);
            }
        } catch (RemoteTimeoutException e) {
            failure = new RemoteTimeoutException("node " + nodeId() + ": shutdown handshake: " + e.getMessage());
            failure.initCause(e);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            try {
                if (main != null) {
                    main.close();
                }
                node.close();
            } finally {
                if (ownsFabric) {
                    fabric.close();
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The settings of one join. Unset settings come from the arguments, the properties file and the
     * environment, in that order (see {@link RemusCluster}).
     */
    public static final class Builder {
        private final List<String> args = new ArrayList<>();
        private Map<String, String> env = Map.of();
        private final Map<String, String> explicit = new HashMap<>();
        private ClusterConfig config;
        private Fabric sharedFabric;
        private VerbsFabricOptions verbsOptions;
        private Duration joinTimeout;
        private Duration shutdownTimeout;

        private Builder() {
        }

        /**
         * Adds command-line arguments as a configuration source.
         *
         * @param args {@code --key=value} or {@code --key value} arguments
         * @return this builder
         */
        public Builder args(String... args) {
            Objects.requireNonNull(args, "args");
            for (int i = 0; i < args.length; i++) {
                this.args.add(Objects.requireNonNull(args[i], "args[" + i + "]"));
            }
            return this;
        }

        /**
         * Sets the environment, a configuration source.
         *
         * @param env the environment, e.g. {@code System.getenv()}
         * @return this builder
         */
        public Builder environment(Map<String, String> env) {
            this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
            return this;
        }

        /**
         * Sets the whole configuration.
         *
         * @param config the whole configuration: no configuration key is read from other sources
         * @return this builder
         */
        public Builder config(ClusterConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Sets a fabric to open this node on.
         *
         * @param fabric a fabric this node opens on instead of one join opens, e.g. one
         *               {@link SimFabric} shared by several nodes in this JVM; not closed by
         *               {@link RemusCluster#close()}
         * @return this builder
         */
        public Builder fabric(Fabric fabric) {
            this.sharedFabric = Objects.requireNonNull(fabric, "fabric");
            return this;
        }

        /** {@return this builder, on the simulator ({@code fabric=sim})} */
        public Builder simulator() {
            explicit.put("fabric", "sim");
            return this;
        }

        /**
         * Runs on the shared-memory fabric ({@code fabric=shm}) in {@code dir}.
         *
         * @param dir the cluster's directory of shared memory files ({@code shm.dir}): the same path in
         *            every process of the cluster, fresh per cluster, e.g. under {@code /dev/shm}
         * @return this builder
         */
        public Builder sharedMemory(Path dir) {
            explicit.put("shm.dir", Objects.requireNonNull(dir, "dir").toString());
            explicit.put("fabric", "shm");
            return this;
        }

        /**
         * Sets the RDMA device.
         *
         * @param device the RDMA device, e.g. {@code rxe0}
         * @return this builder
         */
        public Builder device(String device) {
            explicit.put("device", Objects.requireNonNull(device, "device"));
            return this;
        }

        /**
         * Sets the verbs fabric's options.
         *
         * @param options the verbs fabric's options (device, port, every node's address, bootstrap
         *                kind), in place of those join derives from the configuration
         * @return this builder
         */
        public Builder verbsOptions(VerbsFabricOptions options) {
            this.verbsOptions = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Sets the rendezvous directory.
         *
         * @param dir the shared rendezvous directory (see {@link Rendezvous})
         * @return this builder
         */
        public Builder rendezvous(Path dir) {
            explicit.put("rendezvous", Objects.requireNonNull(dir, "dir").toString());
            return this;
        }

        /**
         * Sets this node's address for the rendezvous.
         *
         * @param address this node's {@code host[:port]} for the rendezvous
         * @return this builder
         */
        public Builder address(String address) {
            explicit.put("address", Objects.requireNonNull(address, "address"));
            return this;
        }

        /**
         * Sets how long join waits.
         *
         * @param timeout how long join waits for peers (see {@link Timeouts#require}); also the
         *                barrier's bound
         * @return this builder
         */
        public Builder joinTimeout(Duration timeout) {
            this.joinTimeout = Timeouts.require(timeout, "joinTimeout (join.timeout.ms)");
            return this;
        }

        /**
         * Sets how long close waits for the other nodes.
         *
         * @param timeout how long {@link RemusCluster#close()} waits for the others
         * @return this builder
         */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = Timeouts.require(timeout, "shutdownTimeout (shutdown.timeout.ms)");
            return this;
        }

        /**
         * Resolves the configuration without joining (the rendezvous, which needs the peers, is not
         * run: its node list is not in the result).
         *
         * @return the configuration the sources give
         * @throws BadArgumentException naming a bad or unknown key or value
         */
        public ClusterConfig resolveConfig() {
            return resolve().config;
        }

        /**
         * Joins: resolves the configuration, exchanges addresses through the rendezvous when one is
         * named, opens the fabric, starts this node, and waits until every memory node published
         * its memory.
         *
         * @return the joined cluster
         * @throws BadArgumentException   naming a bad or unknown key or value
         * @throws RemoteTimeoutException naming the ranks or nodes that did not come within the join timeout
         * @throws RemusException         when the fabric cannot be opened or a peer fails
         */
        public RemusCluster join() {
            Resolved r = resolve();
            ClusterConfig c = r.config;
            Duration timeout = r.duration("join.timeout.ms", joinTimeout, DEFAULT_JOIN_TIMEOUT);
            Duration shutdown = r.duration("shutdown.timeout.ms", shutdownTimeout, DEFAULT_SHUTDOWN_TIMEOUT);
            String kind = r.fabricKind();
            boolean verbs = sharedFabric == null && kind.equals("verbs");
            String device = verbs && verbsOptions == null ? r.keys.getOrDefault("device", null) : null;
            if (verbs && verbsOptions == null && device == null) {
                device = firstDevice();
            }
            boolean shm = sharedFabric == null && kind.equals("shm");
            long deadline = ThreadTime.nanoTime() + timeout.toNanos();
            if (r.keys.containsKey("rendezvous") && !shm) {
                String address = r.keys.get("address");
                if (address == null) {
                    if (!verbs || device == null) {
                        throw new BadArgumentException("rendezvous: give this node's address with --address=host[:port]");
                    }
                    address = deviceIpv4(device);
                }
                if (address.indexOf(':') < 0) {
                    address = address + ":" + (r.portBase() + c.nodeId());
                }
                String where = r.keys.get("rendezvous");
                // the join timeout counts from here: this node's own device is open and its address known
                deadline = ThreadTime.nanoTime() + timeout.toNanos();
                Duration rendezvousLeft = leftOf(timeout, deadline);
                List<String> nodes = where.startsWith(TCP_SCHEME)
                        ? TcpRendezvous.exchange(tcpRoot(where), c.nodeId(), c.nodes().size(), address, rendezvousLeft)
                        : Rendezvous.exchange(Path.of(where), c.nodeId(), c.nodes().size(), address, rendezvousLeft);
                c = c.toBuilder().nodes(nodes).build();
            }
            Duration left = leftOf(timeout, deadline);
            Fabric f;
            boolean owns = sharedFabric == null;
            if (sharedFabric != null) {
                f = sharedFabric;
            } else if (shm) {
                f = ShmFabric.open(r.shmDirectory());
            } else if (!verbs) {
                if (c.nodes().size() != 1) {
                    throw new BadArgumentException("fabric=sim without a shared SimFabric is a one-node cluster, but the "
                            + "configuration has " + c.nodes().size() + " nodes: pass one SimFabric to every join with "
                            + "Builder.fabric, or use node.count=1");
                }
                f = new SimFabric();
            } else {
                VerbsFabricOptions options = verbsOptions != null ? verbsOptions
                        : VerbsFabricOptions.cluster(device, c, left).withBootstrap(r.bootstrap());
                f = VerbsFabric.open(options);
            }
            RemusNode node = null;
            ComputeThread main = null;
            try {
                node = RemusNode.start(f, c);
                awaitPeers(f, c, left, timeout);
                main = c.isComputeNode() ? node.newComputeThread() : null;
                return new RemusCluster(f, owns, node, main, timeout, shutdown);
            } catch (RuntimeException e) {
                if (main != null) {
                    main.close();
                }
                if (node != null) {
                    node.close();
                }
                if (owns) {
                    f.close();
                }
                throw e;
            }
        }

        /**
         * {@return what is left of the join timeout at {@code deadline} (at least a millisecond, so
         *         that a wait given it fails at once rather than being refused), or
         *         {@link Timeouts#FOREVER} unchanged}
         */
        private static Duration leftOf(Duration timeout, long deadline) {
            return Timeouts.isForever(timeout) ? timeout
                    : Duration.ofNanos(Math.max(TimeUnit.MILLISECONDS.toNanos(1), deadline - ThreadTime.nanoTime()));
        }

        private Resolved resolve() {
            Map<String, String> keys = new LinkedHashMap<>();
            Map<String, String> envRest = new TreeMap<>();
            Map<String, String> envKeys = new HashMap<>();
            for (Map.Entry<String, String> e : env.entrySet()) {
                String key = e.getKey().startsWith("REMUS_")
                        ? e.getKey().substring(6).toLowerCase(Locale.ROOT).replace('_', '.') : null;
                if (key != null && JOIN_KEYS.contains(key)) {
                    envKeys.put(key, e.getValue());
                } else if (key != null && !ConfigSources.keys().contains(key)) {
                    continue;
                } else {
                    envRest.put(e.getKey(), e.getValue());
                }
            }
            List<String> configArgs = new ArrayList<>();
            Map<String, String> argKeys = new HashMap<>();
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                if (!arg.startsWith("--") || arg.length() == 2) {
                    throw new BadArgumentException("expected --key=value or --key value, got '" + arg + "'");
                }
                int eq = arg.indexOf('=');
                String key;
                String value;
                if (eq >= 0) {
                    key = arg.substring(2, eq);
                    value = arg.substring(eq + 1);
                } else {
                    key = arg.substring(2);
                    if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                        throw new BadArgumentException("--" + key + " needs a value");
                    }
                    value = args.get(++i);
                }
                key = ConfigSources.canonicalKey(key);
                if (JOIN_KEYS.contains(key)) {
                    String before = argKeys.putIfAbsent(key, value);
                    if (before != null) {
                        throw new BadArgumentException(key + " is given twice: '" + before + "' and '" + value + "'");
                    }
                } else {
                    configArgs.add("--" + key + "=" + value);
                }
            }
            String file = explicit.getOrDefault("config", argKeys.getOrDefault("config", envKeys.get("config")));
            Properties fileConfig = new Properties();
            Map<String, String> fileKeys = new HashMap<>();
            if (file != null) {
                Properties all = load(Path.of(file));
                for (String key : all.stringPropertyNames()) {
                    if (JOIN_KEYS.contains(key)) {
                        fileKeys.put(key, all.getProperty(key));
                    } else {
                        fileConfig.setProperty(key, all.getProperty(key));
                    }
                }
            }
            keys.putAll(envKeys);
            keys.putAll(fileKeys);
            keys.putAll(argKeys);
            keys.putAll(explicit);
            ClusterConfig c = config != null ? config : ConfigSources.layered(envRest, fileConfig, configArgs);
            Resolved r = new Resolved(c, keys);
            r.validate();
            return r;
        }

        private static Properties load(Path file) {
            Properties p = new Properties();
            try (Reader reader = Files.newBufferedReader(file)) {
                p.load(reader);
            } catch (IOException e) {
                throw new BadArgumentException("config: cannot read configuration file " + file + ": " + e.getMessage());
            }
            return p;
        }
    }

    private record Resolved(ClusterConfig config, Map<String, String> keys) {
        /**
         * Checks every join key before anything is opened or exchanged.
         *
         * @throws BadArgumentException naming the key and its value when one is malformed or out of range
         */
        void validate() {
            duration("join.timeout.ms", null, DEFAULT_JOIN_TIMEOUT);
            duration("shutdown.timeout.ms", null, DEFAULT_SHUTDOWN_TIMEOUT);
            if (fabricKind().equals("shm")) {
                shmDirectory();
            }
            bootstrap();
            int base = portBase();
            long last = (long) base + config.nodes().size() - 1;
            if (last > 65535) {
                throw new BadArgumentException("port.base: '" + keys.get("port.base") + "' gives node "
                        + (config.nodes().size() - 1) + " port " + last + ", beyond 65535 (" + config.nodes().size()
                        + " nodes)");
            }
            String address = keys.get("address");
            if (address != null) {
                try {
                    NodeAddress.parse(address, 0);
                } catch (BadArgumentException e) {
                    throw new BadArgumentException("address: '" + address + "': " + e.getMessage());
                }
            }
            String where = keys.get("rendezvous");
            if (where != null && where.startsWith(TCP_SCHEME)) {
                tcpRoot(where);
            }
        }

        Duration duration(String key, Duration explicit, Duration otherwise) {
            if (explicit != null) {
                return explicit;
            }
            String v = keys.get(key);
            if (v == null) {
                return otherwise;
            }
            if (v.strip().equalsIgnoreCase(Timeouts.FOREVER_TEXT)) {
                return Timeouts.FOREVER;
            }
            long millis;
            try {
                millis = Long.parseLong(v.strip());
            } catch (NumberFormatException e) {
                throw new BadArgumentException(key + ": '" + v + "' is not a number of milliseconds or '"
                        + Timeouts.FOREVER_TEXT + "'");
            }
            try {
                return Timeouts.require(Duration.ofMillis(millis), key);
            } catch (BadArgumentException e) {
                throw new BadArgumentException(key + ": '" + v + "': " + e.getMessage());
            }
        }

        /**
         * {@return the fabric key, lower case}
         * @throws BadArgumentException when it is not verbs, sim or shm
         */
        String fabricKind() {
            String kind = keys.getOrDefault("fabric", "verbs").strip().toLowerCase(Locale.ROOT);
            if (!kind.equals("verbs") && !kind.equals("sim") && !kind.equals("shm")) {
                throw new BadArgumentException("fabric: '" + keys.get("fabric") + "' is not verbs, sim or shm");
            }
            return kind;
        }

        /**
         * {@return the directory of fabric=shm: shm.dir, else the rendezvous directory}
         * @throws BadArgumentException when neither names a directory
         */
        Path shmDirectory() {
            String dir = keys.get("shm.dir");
            if (dir == null) {
                dir = keys.get("rendezvous");
                if (dir != null && dir.startsWith(TCP_SCHEME)) {
                    throw new BadArgumentException("fabric=shm: rendezvous '" + dir + "' is no directory; name the "
                            + "cluster's shared memory directory with --shm.dir=DIR");
                }
            }
            if (dir == null || dir.isBlank()) {
                throw new BadArgumentException("fabric=shm needs the cluster's shared memory directory: --shm.dir=DIR "
                        + "(REMUS_SHM_DIR), the same in every process and fresh per cluster, e.g. under /dev/shm");
            }
            try {
                return Path.of(dir.strip());
            } catch (java.nio.file.InvalidPathException e) {
                throw new BadArgumentException("shm.dir: '" + dir + "' is not a path: " + e.getMessage());
            }
        }

        int portBase() {
            String v = keys.get("port.base");
            if (v == null) {
                return NodeAddress.DEFAULT_BASE_PORT;
            }
            try {
                int base = Integer.parseInt(v.strip());
                if (base >= 1 && base <= 65535) {
                    return base;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new BadArgumentException("port.base: '" + v + "' is not a port number 1..65535");
        }

        BootstrapKind bootstrap() {
            String v = keys.getOrDefault("bootstrap", "rdma_cm").strip().toUpperCase(Locale.ROOT);
            try {
                return BootstrapKind.valueOf(v);
            } catch (IllegalArgumentException e) {
                throw new BadArgumentException("bootstrap: '" + keys.get("bootstrap") + "' is not rdma_cm or tcp");
            }
        }
    }

    /**
     * Waits until every memory node of {@code config} published its memory on {@code fabric}: all
     * {@code segmentCount} segments, as {@link ComputeThread} needs to see them.
     *
     * @param left    what is left of the join timeout
     * @param timeout the join timeout, for the message
     * @throws RemoteTimeoutException naming the nodes still missing after {@code left}, with the
     *                                last error of each one that failed as suppressed exceptions
     */
    private static void awaitPeers(Fabric fabric, ClusterConfig config, Duration left, Duration timeout) {
        List<Integer> waiting = new ArrayList<>();
        for (int n = config.memoryNodes().first(); n <= config.memoryNodes().last(); n++) {
            waiting.add(n);
        }
        Map<Integer, RuntimeException> errors = new TreeMap<>();
        long deadline = ThreadTime.nanoTime() + left.toNanos();
        while (true) {
            for (var it = waiting.iterator(); it.hasNext(); ) {
                int peer = it.next();
                try {
                    if (fabric.publishedRegions(peer).size() >= config.segmentCount()) {
                        it.remove();
                        errors.remove(peer);
                    }
                } catch (RemusException e) {
                    errors.put(peer, e);
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            if (ThreadTime.nanoTime() - deadline > 0) {
                StringBuilder why = new StringBuilder();
                errors.forEach((peer, e) -> why.append("; node ").append(peer).append(": ").append(e.getMessage()));
                RemoteTimeoutException t = new RemoteTimeoutException("node " + config.nodeId() + " joined no cluster: node(s) "
                        + waiting + " of " + config.nodes().size() + " (" + addresses(config, waiting)
                        + ") did not publish their memory within " + timeout + why);
                errors.values().forEach(t::addSuppressed);
                throw t;
            }
            ThreadTime.parkNanos(null, POLL_NANOS);
        }
    }

    private static InetSocketAddress tcpRoot(String where) {
        NodeAddress root;
        try {
            root = NodeAddress.parse(where.substring(TCP_SCHEME.length()), 0);
        } catch (BadArgumentException e) {
            throw new BadArgumentException("rendezvous: '" + where + "' is not tcp://host:port: " + e.getMessage());
        }
        if (where.indexOf(':', TCP_SCHEME.length()) < 0) {
            throw new BadArgumentException("rendezvous: '" + where + "' names no port (tcp://host:port)");
        }
        return new InetSocketAddress(root.host(), root.port());
    }

    private static String addresses(ClusterConfig config, List<Integer> nodes) {
        return String.join(", ", nodes.stream().map(n -> config.nodeAddress(n).toString()).toList());
    }

    private static String firstDevice() {
        List<DeviceInfo> devices;
        try {
            devices = Device.list();
        } catch (VerbsException e) {
            throw new RemusException("no RDMA stack on this host (" + e.getMessage()
                    + "); run on the simulator with --fabric=sim", e);
        }
        if (devices.isEmpty()) {
            throw new RemusException("no RDMA device on this host; name one with --device=NAME, "
                    + "or run on the simulator with --fabric=sim");
        }
        return devices.get(0).name();
    }

    private static String deviceIpv4(String device) {
        try (Context context = Context.open(device)) {
            PortAttributes port = context.queryPort(1);
            for (int i = 0; i < port.gidTableLength(); i++) {
                Gid gid = context.queryGid(1, i);
                if (gid.isIpv4Mapped()) {
                    return gid.ipv4Literal();
                }
            }
        } catch (VerbsException e) {
            throw new RemusException("cannot read the address of RDMA device " + device + ": " + e.getMessage(), e);
        }
        throw new BadArgumentException("RDMA device " + device + " has no IPv4 address on port 1 for the rendezvous: "
                + "give this node's address with --address=host[:port]");
    }
}
