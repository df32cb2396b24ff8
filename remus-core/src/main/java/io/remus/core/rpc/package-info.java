/**
 * Request/response messaging between any two nodes in the style of LITE (Tsai and Zhang, "LITE Kernel
 * RDMA Support for Datacenter Applications", SOSP 2017): per-peer rings in the receiver's registered
 * memory written with RDMA WRITE_WITH_IMMEDIATE (the immediate names the sender and the slot, so the
 * receiver learns of a message from one receive completion instead of polling every ring, as FaRM's
 * ring messaging must; Dragojević et al., NSDI 2014), credits so a sender never overruns a ring, and
 * one method registry per endpoint. It needs only the fabric SPI ({@link io.remus.core.fabric}), so
 * it lives in remus-core, below the data structures. See {@link io.remus.core.rpc.RpcEndpoint}.
 *
 * With {@code nodeA} and {@code nodeB} the fabric nodes of two processes (or of one simulator):
 * {@snippet :
 * RpcEndpoint a = RpcEndpoint.create(nodeA, 2, 8);  // nodeA is 0, nodeB 1; ids 0..1, 8 credits per peer
 * RpcEndpoint b = RpcEndpoint.create(nodeB, 2, 8);  // both before any connect
 * a.connect(b.rings(), Duration.ofSeconds(5));      // rings() travels out of band in a real cluster
 * b.connect(a.rings(), Duration.ofSeconds(5));
 * b.registerLong(1, x -> x + 1);                    // method 1 of b
 * // b's thread: while (running) b.serve(Duration.ofMillis(10));
 * long two = a.callLong(1, 1, 1L, Duration.ofSeconds(1));
 * }
 */
package io.remus.core.rpc;
