/**
 * The layout of remote memory, shared by every layer that reads or writes it:
 * {@link io.remus.core.memory.RemotePtr} (node id and address in one 64-bit word),
 * {@link io.remus.core.memory.BlockHeader} (the header in front of every allocated block),
 * {@link io.remus.core.memory.SizeClasses} (the allocator's block sizes) and
 * {@link io.remus.core.memory.ControlBlock} (where a memory node keeps its shared words). These are
 * static helpers and constants over words and offsets: they perform no remote operation. What
 * allocates, publishes the root and waits at the barrier through a {@code ComputeThread} is in
 * {@code io.remus.core}.
 *
 * {@snippet :
 * long ptr = RemotePtr.of(1, 0x1000);      // node 1, address 0x1000
 * int node = RemotePtr.node(ptr);          // 1
 * long address = RemotePtr.address(ptr);   // 0x1000
 * long next = RemotePtr.offset(ptr, 8);    // 8 bytes further on node 1
 * }
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.core.memory;
