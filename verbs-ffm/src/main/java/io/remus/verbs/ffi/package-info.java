/**
 * The raw layer: libibverbs, librdmacm and the few C library and Linux calls the project needs
 * ({@link io.remus.verbs.ffi.LibC}) in C names, in jextract's output shape.
 *
 * <h2>Conventions (the conformance test relies on them)</h2>
 * <ul>
 *   <li>One class per C struct or union, named exactly as its C tag ({@code ibv_wc},
 *       {@code rdma_cm_id}, {@code ibv_gid} for {@code union ibv_gid}). It has a static
 *       {@code layout()} returning a {@link java.lang.foreign.GroupLayout} whose named members
 *       are the C members (padding unnamed), {@code sizeof()}, {@code NAME$OFFSET} constants and
 *       static getter/setter pairs {@code name(MemorySegment)} / {@code name(MemorySegment, v)}.
 *       A nested anonymous C struct or union is a member whose name starts with {@code $anon};
 *       a named nested one carries its C member name.</li>
 *   <li>One header class per C header: {@link io.remus.verbs.ffi.IbVerbs} for
 *       {@code <infiniband/verbs.h>}, {@link io.remus.verbs.ffi.RdmaCm} for
 *       {@code <rdma/rdma_cma.h>}. Each C function is a {@code public static final}
 *       {@link io.remus.verbs.ffi.NativeFunction} constant (upper-case name) carrying its C
 *       prototype and descriptor, a private holder class that links it on first use, and a
 *       static method named as in C. Constants are {@code public static final int} or
 *       {@code long} fields named as in C ({@code IBV_WC_SUCCESS}).</li>
 *   <li>Functions that report failure through errno are linked with
 *       {@code captureCallState("errno")} and take a call-state segment first
 *       ({@link io.remus.verbs.ffi.Errno}).</li>
 *   <li>Static inline verbs ({@code ibv_post_send}, {@code ibv_poll_cq}, ...) have no symbol:
 *       they are declared as provider function pointers ({@code ibv_context_ops.post_send})
 *       and called through the address read from the context's ops table.</li>
 * </ul>
 * This package is not exported: only the project's own modules use it.
 */
package io.remus.verbs.ffi;
