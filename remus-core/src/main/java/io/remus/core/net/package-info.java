/**
 * What the control path's TCP exchanges share: {@link io.remus.core.net.ExchangeDeadline}, one
 * deadline over a whole exchange and a socket input stream that keeps to it, used by the TCP
 * rendezvous ({@link io.remus.core.config.TcpRendezvous}) and the verbs fabric's TCP bootstrap
 * ({@code io.remus.core.verbs.bootstrap}). Internal: the module does not export this package.
 */
package io.remus.core.net;
