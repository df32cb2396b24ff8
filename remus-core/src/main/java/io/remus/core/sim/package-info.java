/**
 * The embedded simulated fabric: several nodes in one JVM, pure Java, no RDMA needed.
 *
 * <p>It models what code must survive on real RDMA. Work requests complete asynchronously through
 * completion queues (optionally after an injected execution latency and completion delay); rkeys,
 * lkeys and bounds are checked, giving error completions; NIC atomics are a load then a store under
 * the target node's NIC lock, so they are atomic among themselves but NOT with CPU atomics on the
 * same word (IBV_ATOMIC_HCA, as Soft-RoCE behaves), and a compare-and-swap stores the value it
 * loaded even when its compare fails (as Soft-RoCE does), so neither a CPU store nor an RDMA WRITE
 * racing it on that word is safe; transfers longer than 8 bytes copy in 8-byte
 * pieces and may tear (with {@link io.remus.core.sim.SimOptions#tearWords()}, an 8-byte WRITE lands
 * in two halves, as Soft-RoCE's can, and with {@link io.remus.core.sim.SimOptions#tearReads()} an 8-byte
 * READ loads two halves, so that one racing a compare-and-swap returns a word never stored); a node can be told to stop answering (retry-exceeded completions after the
 * transport timeout) or to fail its next operations; freed blocks can be poisoned
 * ({@link io.remus.core.sim.SimOptions#poisonFreedBlocks()}), so that a use after free reads a
 * pattern instead of plausible stale data. A test can freeze one thread between two of its work
 * requests ({@link io.remus.core.sim.SimFabric#freeze}, {@link io.remus.core.sim.SimFreeze}) to show
 * what the other threads do while it stays stopped.
 *
 * <p>Messaging ({@code SEND}, {@code WRITE_WITH_IMMEDIATE}) executes like the one-sided requests,
 * on the sender's thread when due: it consumes the oldest receive of the peer's receive queue,
 * under that queue's lock, and the receive completion becomes pollable on the peer's completion
 * queue after the completion delay. With no receive posted it fails at once with
 * {@code RECEIVER_NOT_READY} (the error verbs reports after its receiver-not-ready retries; the
 * simulator does not wait them out), writing nothing; a WRITE_WITH_IMMEDIATE's target is checked by
 * rkey and bounds as a WRITE's is. A message reaches the receiver only once the sender's thread
 * executes it: on posting, or when a latency is set, when the sender polls its completion queue.
 *
 * <p>There are no background threads: work executes when posted or when the owning thread polls
 * its completion queue, so an idle simulator costs no CPU. Work requests on one QP execute in
 * order, which satisfies every fence.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.sim;
