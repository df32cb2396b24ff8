/**
 * How the processes of a verbs cluster find each other: a small versioned TCP protocol
 * ({@link io.remus.core.verbs.bootstrap.BootstrapCodec}) over which a node asks a peer process for
 * its published regions (address, length, rkey) and for a queue pair connected to one of its own
 * (QP number, PSN, LID, GID). Each node's process answers on its bootstrap address
 * ({@link io.remus.core.verbs.bootstrap.BootstrapServer}); requesters retry until a deadline
 * ({@link io.remus.core.verbs.bootstrap.BootstrapClient}). Malformed messages are rejected with a
 * {@link io.remus.core.verbs.bootstrap.BootstrapProtocolException}.
 */
package io.remus.core.verbs.bootstrap;
