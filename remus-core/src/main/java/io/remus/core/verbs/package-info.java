/**
 * The fabric over real RDMA: {@link io.remus.core.verbs.VerbsFabric} implements the fabric SPI
 * with the verbs API of {@code io.remus.verbs} (hardware NICs or Soft-RoCE).
 *
 * <p>One device context per process; each node a protection domain with its memory regions;
 * reliable connected queue pairs, one connection per compute-thread lane and peer (a loopback QP
 * for the node itself). Work request lists become one {@code ibv_post_send} of a preallocated
 * chain; completions are polled into the SPI's reusable arrays; neither allocates. Nodes in other
 * processes are reached through {@link io.remus.core.verbs.bootstrap}.
 * {@link io.remus.core.fabric.WorkRequests#FENCE} is passed to the device as {@code IBV_SEND_FENCE}.
 */
package io.remus.core.verbs;
