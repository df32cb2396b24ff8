/**
 * Wire formats by which the processes of a verbs cluster find each other.
 *
 * <p>{@link io.remus.core.verbs.bootstrap.RegionTableCodec}: a node's published regions (address,
 * length, rkey, node id) as a versioned, checksummed table in registered memory, which peers read
 * with an RDMA READ over an rdma_cm connection (the default bootstrap,
 * {@link io.remus.core.verbs.BootstrapKind#RDMA_CM}).
 *
 * <p>The TCP fallback ({@link io.remus.core.verbs.BootstrapKind#TCP}): a small versioned protocol
 * ({@link io.remus.core.verbs.bootstrap.BootstrapCodec}) over which a node asks a peer process for
 * its published regions and for a queue pair connected to one of its own (QP number, PSN, LID,
 * GID); each node's process answers on its port
 * ({@link io.remus.core.verbs.bootstrap.BootstrapServer}); requesters retry until a deadline
 * ({@link io.remus.core.verbs.bootstrap.BootstrapClient}).
 *
 * <p>Malformed input in either format is rejected with a
 * {@link io.remus.core.verbs.bootstrap.BootstrapProtocolException}.
 */
package io.remus.core.verbs.bootstrap;
