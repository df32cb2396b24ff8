/**
 * The fabric over real RDMA: {@link io.remus.core.verbs.VerbsFabric} implements the fabric SPI
 * with the verbs API of {@code io.remus.verbs} (hardware NICs or Soft-RoCE).
 *
 * In process 0 of two, on device {@code mlx5_0}:
 * {@snippet :
 * ClusterConfig config = ConfigSources.fromArgs("--nodes=10.0.0.1,10.0.0.2", "--node-id=0");
 * try (VerbsFabric fabric = VerbsFabric.open(VerbsFabricOptions.cluster("mlx5_0", config, Duration.ofSeconds(30)));
 *      RemusNode node = RemusNode.start(fabric, config);
 *      ComputeThread t = node.newComputeThread()) {
 *     long word = t.allocator().allocate(8, 1);   // on node 1, in the other process
 *     t.write(word, 7);                           // an RDMA WRITE through mlx5_0
 * }
 * }
 *
 * <p>One device context per process; each node a protection domain with its memory regions;
 * reliable connected queue pairs, one connection per compute-thread lane and peer (a loopback QP
 * for the node itself). Work request lists become one {@code ibv_post_send} of a preallocated
 * chain; completions are polled into the SPI's reusable arrays; neither allocates.
 *
 * <p>Nodes in other processes are reached at their addresses from the cluster configuration's
 * node list ({@link io.remus.core.verbs.VerbsFabricOptions#cluster(String,
 * io.remus.core.config.ClusterConfig, java.time.Duration)}): by default over the RDMA connection
 * manager (each opened node listens on its address; each lane is one rdma_cm connection; peers
 * read its region table over rdma_cm), or over the TCP fallback of
 * {@code io.remus.core.verbs.bootstrap} (internal: not exported).
 *
 * <p>{@link io.remus.core.fabric.WorkRequests#FENCE} is applied in software by the queue pair (it
 * posts what came before, then waits for its READs and atomics in flight to complete) and is not
 * passed to the device as {@code IBV_SEND_FENCE}: on Soft-RoCE (Debian kernel 6.1.0), a READ
 * fenced behind a FETCH_AND_ADD on the same queue pair stalls for good within a few thousand
 * iterations (softroce/diagnostics/rxe-fence.c reproduces it in C, with libibverbs only: every
 * fenced run stalled, no run without the fence did, and a later post does not release it). That
 * stall is what AllocationFreeOnVerbsTest ran into while the flag reached the device. The verbs
 * API keeps {@link io.remus.verbs.SendBatch#fence()} for callers on other devices.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.verbs;
