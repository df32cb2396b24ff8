package io.remus.core.sim;

import io.remus.core.fabric.Registration;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A simulated memory registration: a native segment, the address work requests name it by (its native address,
 * or a simulated one: {@link SimOptions#straddleOffset()}), its keys, and the arena that owns it if any.
 */
final class SimRegion extends Registration {
    private final SimNode node;
    private final Arena arena;

    SimRegion(SimNode node, MemorySegment segment, long address, Arena arena, int lkey, int rkey) {
        super(segment, address, segment.byteSize(), lkey, rkey);
        this.node = node;
        this.arena = arena;
    }

    SimNode node() {
        return node;
    }

    @Override
    protected void deregister() {
        node.deregister(this);
        if (arena != null) {
            arena.close();
        }
    }
}
