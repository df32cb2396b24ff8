/**
 * The embedded simulated fabric: several nodes in one JVM, pure Java, no RDMA needed.
 *
 * {@snippet :
 * SimOptions options = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5);
 * try (SimFabric fabric = new SimFabric(options);
 *      RemusNode node = RemusNode.start(fabric, ClusterConfig.builder().nodeCount(1).build());
 *      ComputeThread t = node.newComputeThread()) {
 *     long word = t.allocator().allocate(8, 0);
 *     long old = t.compareAndSwap(word, 0, 1);   // a NIC atomic through the loopback queue pair: 0
 * }
 * }
 *
 * <p>It models what code must survive on real RDMA. Work requests complete asynchronously through
 * completion queues (optionally after an injected execution latency and completion delay, and at the
 * costs of a named hardware cost model, below); rkeys,
 * lkeys and bounds are checked, giving error completions; NIC atomics are a load then a store under
 * the target node's NIC lock, so they are atomic among themselves but NOT with CPU atomics on the
 * same word (IBV_ATOMIC_HCA, as Soft-RoCE behaves), and a compare-and-swap stores the value it
 * loaded even when its compare fails (as Soft-RoCE does), so neither a CPU store nor an RDMA WRITE
 * racing it on that word is safe; transfers longer than 8 bytes copy in 8-byte
 * pieces and may tear (with {@link io.remus.core.sim.SimOptions#tearWords()}, an 8-byte WRITE lands
 * in two halves, as Soft-RoCE's can, and with {@link io.remus.core.sim.SimOptions#tearReads()} an 8-byte
 * READ loads two halves, so that one racing a compare-and-swap returns a word never stored; with
 * {@link io.remus.core.sim.SimOptions#straddleOffset()} every registration lies at simulated addresses
 * across a 4 GiB boundary, so that such a word, torn between two pointers into one segment, points
 * outside every segment; with {@link io.remus.core.sim.SimOptions#reorderWrites()} the later of two
 * WRITEs in one post lands first and the earlier a millisecond later, as a NIC that breaks the order the
 * library's ordering rule for WRITEs assumes would); a node can be told to stop answering (retry-exceeded completions after the
 * transport timeout) or to fail its next operations; the network can be partitioned
 * ({@link io.remus.core.sim.SimFabric#partition}, {@link io.remus.core.sim.SimFabric#isolate},
 * {@link io.remus.core.sim.SimFabric#heal}): requests across a cut link, either way, complete as requests to a node
 * that stopped answering do, while each side's own traffic goes on; a node's process can be killed with its memory
 * ({@link io.remus.core.sim.SimFabric#crash}) and its id opened again as a new incarnation, which other nodes' queue
 * pairs reach once reset (a compute thread then throws {@link io.remus.core.error.PeerRestartedException} once);
 * freed blocks can be poisoned
 * ({@link io.remus.core.sim.SimOptions#poisonFreedBlocks()}), so that a use after free reads a
 * pattern instead of plausible stale data. A test can freeze one thread between two of its work
 * requests ({@link io.remus.core.sim.SimFabric#freeze}, {@link io.remus.core.sim.SimFreeze}) to show
 * what the other threads do while it stays stopped.
 *
 * <p>Messaging ({@code SEND}, {@code WRITE_WITH_IMMEDIATE}) executes like the one-sided requests,
 * on the sender's thread when due: it consumes the oldest receive of the peer's receive queue,
 * under that queue's lock, and the receive completion becomes pollable on the peer's completion
 * queue after the completion delay. With no receive posted it tries again after the receiver-not-ready
 * timer ({@link io.remus.core.sim.SimOptions#rnrTimerNanos()}, verbs' 0.64 ms by default), holding up the
 * queue pair's later requests, and after {@link io.remus.core.sim.SimOptions#RNR_RETRIES} retries fails
 * with {@code RECEIVER_NOT_READY}, writing nothing; a WRITE_WITH_IMMEDIATE's target is checked by
 * rkey and bounds as a WRITE's is. A message reaches the receiver only once the sender's thread
 * executes it: on posting, or when a latency is set, when the sender polls its completion queue.
 *
 * <p>There are no background threads: work executes when posted or when the owning thread polls
 * its completion queue, so an idle simulator costs no CPU. Work requests on one QP execute in
 * order, which satisfies every fence.
 *
 * <h2>Cost model</h2>
 * {@link io.remus.core.sim.SimOptions#costModel()} names what the simulated NIC charges
 * ({@link io.remus.core.sim.SimCostModel}). The default, {@link io.remus.core.sim.SimCostModel#NONE},
 * charges nothing: a request executes when posted and its completion is pollable at once.
 * {@link io.remus.core.sim.SimCostModel#CONNECTX5} charges a ConnectX-5-like NIC's figures:
 * <table>
 *   <caption>CONNECTX5</caption>
 *   <tr><th>cost</th><th>figure</th><th>how it is applied</th></tr>
 *   <tr><td>READ, WRITE, SEND, WRITE_WITH_IMMEDIATE round trip</td><td>2 us</td>
 *       <td>executes at the target after half, completes after the whole</td></tr>
 *   <tr><td>COMPARE_AND_SWAP, FETCH_AND_ADD round trip</td><td>2.5 us</td>
 *       <td>as above, plus the wait for the word's atomic unit</td></tr>
 *   <tr><td>atomic unit per 8-byte word</td><td>busy 2.5 us per atomic</td>
 *       <td>atomics on one word execute one at a time, in the order they were posted</td></tr>
 *   <tr><td>payload</td><td>80 ps/byte (100 Gb/s)</td>
 *       <td>on the leg that carries the data: a READ's return, a WRITE's way out</td></tr>
 *   <tr><td>loopback</td><td>as remote</td><td>a node's request to itself costs the same</td></tr>
 *   <tr><td>local CPU access</td><td>100 ns</td><td>CPU loads and stores do not pass through the fabric;
 *       charged only under virtual time</td></tr>
 * </table>
 * The figures are round numbers of the magnitude reported by Kalia, Kaminsky and Andersen, "Design
 * Guidelines for High Performance RDMA Systems" (USENIX ATC 2016) and "FaSST" (OSDI 2016) for
 * ConnectX-class NICs (including the serialization of NIC atomics on one address inside the NIC),
 * and by Baran et al., "ALock: Asymmetric Lock Primitive for RDMA Systems" (SPAA 2024), whose
 * premise is that loopback through the NIC costs what a remote access costs.
 * {@link io.remus.core.sim.SimCostModel#CONNECTX3} (the ALock paper's CloudLab r320 NIC) and
 * {@link io.remus.core.sim.SimCostModel#CONNECTX6} are calibrated to published figures, each named in
 * their Javadoc, and add a NIC message rate (a node's NIC serves one request at a time, its link
 * shared) and, for ConnectX-3, a NIC-wide atomic rate. Costs add to
 * {@link io.remus.core.sim.SimOptions#executionLatencyNanos()} and
 * {@link io.remus.core.sim.SimOptions#completionDelayNanos()}.
 *
 * <p>On host threads the simulator does not sleep for a cost: a cost sets the time from which a request may
 * execute and the time from which its completion may be polled, and the waiting thread spins and yields in its
 * own loop. Microsecond costs lie below {@code LockSupport.parkNanos}'s granularity on Linux (about 50 to 100 us),
 * so they are not parked for: polling late, a descheduled thread or a loaded host only add time, and the model's
 * host-time figures are lower bounds, good for ratios between algorithms run on it.
 *
 * <h2>Virtual time</h2>
 * {@link io.remus.core.sim.VirtualTimeScheduler#run} runs a whole simulated run (the fabric, every worker, trustee
 * and poller thread) one thread at a time in the order of their virtual clocks: a work request executes and
 * completes at the virtual times the cost model gives, a wait costs virtual time instead of host time, and a
 * thread that finds its completion queue empty sleeps until the queue's next event. The same seed gives the same
 * interleaving, history, operation counts and virtual times on any host under any load; threads ready at the same
 * virtual time are picked at random by the seed, which explores interleavings that real threads on a few cores
 * rarely produce. Every clock reading and wait of the library goes through {@link io.remus.core.time.ThreadTime},
 * which is what lets the scheduler take them over. Virtual-time figures are labelled as such
 * ({@link io.remus.core.sim.VirtualTimeOptions#describeCpu()}) and never mixed with host-time ones.

 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.sim;
