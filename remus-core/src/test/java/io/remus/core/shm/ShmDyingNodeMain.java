package io.remus.core.shm;

import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RegisteredMemory;

import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * A process that dies with its node open: opens node {@code args[1]} of the shared-memory cluster in
 * directory {@code args[0]}, publishes 4 KiB holding {@link #MARK} in its first word, prints
 * {@code published}, and halts without closing anything.
 */
public final class ShmDyingNodeMain {
    /** The word the dying node leaves in its memory. */
    static final long MARK = 0xDEAD_0000_BEEFL;

    private ShmDyingNodeMain() {
    }

    /** @param args the cluster's directory and the node id */
    public static void main(String[] args) {
        ShmFabric fabric = ShmFabric.open(Path.of(args[0]));
        FabricNode node = fabric.open(Integer.parseInt(args[1]));
        RegisteredMemory memory = node.allocate(4096);
        memory.segment().set(ValueLayout.JAVA_LONG, 0, MARK);
        node.publish(memory);
        System.out.println("published");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }
}
