/**
 * Request/response messaging between any two nodes in the style of LITE (Tsai and Zhang, "LITE Kernel
 * RDMA Support for Datacenter Applications", SOSP 2017): per-peer rings in the receiver's registered
 * memory written with RDMA WRITE_WITH_IMMEDIATE (the immediate names the sender and the slot, so the
 * receiver learns of a message from one receive completion instead of polling every ring, as FaRM's
 * ring messaging must; Dragojević et al., NSDI 2014), credits so a sender never overruns a ring, and
 * one method registry per endpoint. It needs only the fabric SPI ({@link io.remus.core.fabric}), so
 * it lives in remus-core, below the data structures. See {@link io.remus.core.rpc.RpcEndpoint}.
 */
package io.remus.core.rpc;
