/**
 * The fabric over real RDMA: {@link io.remus.core.verbs.VerbsFabric} implements the fabric SPI
 * with the verbs API of {@code io.remus.verbs} (hardware NICs or Soft-RoCE).
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
 * {@link io.remus.core.verbs.bootstrap}.
 *
 * <p>{@link io.remus.core.fabric.WorkRequests#FENCE} is not passed to the device. With it passed as
 * {@code IBV_SEND_FENCE}, AllocationFreeOnVerbsTest (whose workload fences an async READ) stalled on
 * Soft-RoCE (kernel 6.1) in 2 of 3 full guest runs (one await waited 10 s; on an idle host the test
 * ran past its 120 s limit, against 20-30 s otherwise); without it, in none of 4. Requests on one queue pair still execute in order at the responder, but a fenced request
 * does not wait for earlier READs and atomics to complete. The verbs API keeps
 * {@link io.remus.verbs.SendBatch#fence()} for callers that need it on other devices.
 */
package io.remus.core.verbs;
