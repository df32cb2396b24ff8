/**
 * Remus' programming model: {@link io.remus.core.RemotePtr} (node id and address in one word),
 * {@link io.remus.core.ComputeThread} (one-sided READ, WRITE, compare-and-swap and fetch-and-add,
 * synchronous, asynchronous and in doorbell batches), {@link io.remus.core.RemusNode},
 * {@link io.remus.core.RemusCluster} (a process's membership in a cluster, from joining to the
 * shutdown handshake, which a program's {@code main} calls once), and the
 * one unchecked exception family rooted at {@link io.remus.core.RemusException}.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core;
