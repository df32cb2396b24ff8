/**
 * Delegation over one-sided RDMA: every operation on an object runs on the one thread that owns it,
 * the {@link io.remus.ds.delegate.Trustee}, and other threads reach it through a
 * {@link io.remus.ds.delegate.Trust} by writing requests into the trustee's memory and polling for the
 * response. The design follows Trust&lt;T&gt; / Gossamer (UIC 2025: a contended object is owned by one
 * trustee thread, clients hold {@code Trust<T>} handles and ship it closures) and ffwd (Roghanchi,
 * Eriksson and Basu, "ffwd: delegation is (much) faster than you think", SOSP 2017: per-client request
 * slots the server polls round-robin, responses written back in batches). Java cannot ship closures, so
 * operations are registered on the trustee by small integer id at start-up, and a request carries one
 * argument word and gets one result word back.
 */
package io.remus.ds.delegate;
