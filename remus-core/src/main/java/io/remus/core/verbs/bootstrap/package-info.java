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
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.verbs.bootstrap;
