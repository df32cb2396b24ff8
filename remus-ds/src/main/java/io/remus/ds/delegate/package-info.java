/**
 * Delegation over one-sided RDMA: every operation on an object runs on the one thread that owns it,
 * the {@link io.remus.ds.delegate.Trustee}, and other threads reach it through a
 * {@link io.remus.ds.delegate.Trust} by writing requests into the trustee's memory and polling for the
 * response. The design follows Trust&lt;T&gt; / Gossamer (UIC 2025: a contended object is owned by one
 * trustee thread, clients hold {@code Trust<T>} handles and ship it closures) and ffwd (Roghanchi,
 * Eriksson and Basu, "ffwd: delegation is (much) faster than you think", SOSP 2017: per-client request
 * slots the server polls round-robin, responses written back in batches). Java cannot ship closures, so
 * operations are registered on the trustee by small integer id at start-up, and a request carries one
 * argument word and gets one result word back, or, at a trustee made with payloads
 * ({@link io.remus.ds.delegate.Trustee#create(io.remus.core.ComputeThread, int, int, int)}), carries up to
 * that many bytes each way to a {@link io.remus.ds.delegate.TrusteePayloadOperation} in the same WRITEs
 * (fixed-size request and response slots, as LITE's and ffwd's are). Properties are
 * reference counted, as Trust&lt;T&gt;'s are: {@link io.remus.ds.delegate.TrusteeClient#share} takes a
 * reference, {@link io.remus.ds.delegate.Trust#release} drops it, and the trustee drops a property (closing it
 * when it is {@link java.lang.AutoCloseable}) with its last reference.
 *
 * With {@code owner} the trustee's compute thread and {@code t} a client's:
 * {@snippet :
 * Trustee<long[]> trustee = Trustee.create(owner, 8, 4);       // 8 client places, 4 requests in flight each
 * int total = trustee.entrust(new long[1]);
 * trustee.register(1, (sum, delta) -> sum[0] += delta);         // operation 1: add, return the sum
 * // owner's thread: while (running) trustee.serve(Duration.ofMillis(10));
 * TrusteeClient client = TrusteeClient.connect(t, trustee.ptr());  // any thread, any node
 * Trust<long[]> trust = client.trust(total);
 * long sum = trust.apply(1, 5, Duration.ofSeconds(1));         // one round trip from another node
 * }
 *
 * <p>Costs per {@link io.remus.ds.delegate.Trust#apply}: from another node than the trustee's, 2 RDMA
 * WRITEs in one doorbell (1 round trip) and CPU polls of the client's own memory; from the trustee's
 * node, no RDMA operation; from a node without memory, 2 WRITEs and one READ per poll plus one. The
 * trustee answers a pass's remote requests with 2 WRITEs each, one doorbell per client node, 1 round
 * trip per pass. Requests and responses follow the library's ordering rule for WRITEs
 * (docs/DATA-STRUCTURES.md): body and sequence word in one doorbell, a check word in the body that lets the
 * reader refuse a sequence whose body has not landed, and {@link io.remus.core.WriteOrder#COMPLETION} for
 * hardware that reorders them (one round trip more on each side). Calls block with a caller-chosen deadline and fail with typed errors:
 * {@link io.remus.ds.delegate.TrusteeTimeoutException} (no answer by the deadline: a stopped or dead
 * trustee), {@link io.remus.ds.delegate.TrusteeClosedException} (a closed trustee, fast),
 * {@link io.remus.ds.delegate.DelegatedOperationException} (unknown operation or property, a
 * released property, or the operation threw). A null argument is a {@link NullPointerException} naming the parameter, before
 * anything is done.
 */
package io.remus.ds.delegate;
