package io.remus.core.verbs;

import io.remus.core.fabric.Registration;
import io.remus.verbs.MemoryRegion;

import java.lang.foreign.Arena;

/** A node's registration: a verbs memory region, and the arena of the memory when the node allocated it. */
final class VerbsMemory extends Registration {
    private final VerbsNode node;
    private final MemoryRegion region;
    private final Arena arena;

    VerbsMemory(VerbsNode node, MemoryRegion region, Arena arena) {
        super(region.segment(), region.address(), region.length(), region.localKey(), region.remoteKey());
        this.node = node;
        this.region = region;
        this.arena = arena;
    }

    VerbsNode node() {
        return node;
    }

    MemoryRegion region() {
        return region;
    }

    @Override
    protected void deregister() {
        node.deregister(this);
        region.close();
        if (arena != null) {
            arena.close();
        }
    }
}
