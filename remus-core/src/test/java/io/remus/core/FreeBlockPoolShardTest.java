package io.remus.core;

import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.fabric.Opcode;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shards of a {@link FreeBlockPool}: a push goes to the pusher's home shard, a pop takes from its own home shard
 * first and from the others only when that one is empty, so that every free block is found whichever shard holds it.
 * Two threads of node 0 (ordinals 0 and 1, so home shards 0 and 1) share the pools of memory node 1.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FreeBlockPoolShardTest {
    private static final int NODE = 1;

    @Test
    void shouldGiveThreadsOfANodeDifferentHomeShardsFromTheirOrdinals() {
        try (TestCluster c = cluster(4096); ComputeThread t = c.node(0).newComputeThread();
             ComputeThread u = c.node(0).newComputeThread(); ComputeThread v = c.node(1).newComputeThread()) {
            assertEquals(0, FreeBlockPool.homeShard(t));
            assertEquals(1, FreeBlockPool.homeShard(u));
            assertEquals(2, FreeBlockPool.homeShard(v), "node 1's first thread follows node 0's two (threadsPerNode 2)");
        }
    }

    /**
     * Every block of a class on a node, freed by one allocator (into its home shard), is found by an allocator of
     * another home shard before it runs out, and back again: exhaustion means every shard is empty.
     */
    @Test
    void shouldFindEveryFreedBlockWhenOnlyAnotherShardHoldsThem() {
        try (TestCluster c = cluster(4096); ComputeThread t = c.node(0).newComputeThread();
             ComputeThread u = c.node(0).newComputeThread()) {
            int sizeClass = SizeClasses.classOf(8);
            RemoteAllocator a = new RemoteAllocator(t);
            RemoteAllocator b = new RemoteAllocator(u);
            Set<Long> all = drain(a);
            assertTrue(all.size() > 2 * RemoteAllocator.CACHE_CAPACITY, "enough blocks for several batches: " + all.size());
            freeAll(a, all);
            assertEquals(all, setOf(FreeBlockPool.blocks(t, NODE, sizeClass)));
            assertEquals(RemotePtr.NULL, FreeBlockPool.pointer(t.read(FreeBlockPool.headPointer(t, NODE, sizeClass, 1)), NODE),
                    "b's home shard is empty: every block is in a's");

            assertEquals(all, drain(b), "b found every block a freed, in a's shard, before it ran out");
            freeAll(b, all);
            assertEquals(RemotePtr.NULL, FreeBlockPool.pointer(t.read(FreeBlockPool.headPointer(t, NODE, sizeClass, 0)), NODE),
                    "a's home shard is empty: every block is in b's");
            assertEquals(all, drain(a), "and a found them all again, in b's shard");
        }
    }

    /** A pop takes its home shard's batch while there is one, and another shard's, for the same READs, when not. */
    @Test
    void shouldPopTheHomeShardFirstAndStealForTheSameReads() {
        try (TestCluster c = cluster(64 << 10); ComputeThread t = c.node(0).newComputeThread();
             ComputeThread u = c.node(0).newComputeThread()) {
            int sizeClass = SizeClasses.classOf(64);
            RemoteAllocator a = new RemoteAllocator(t);
            long[] mine = new long[4];
            long[] theirs = new long[4];
            long[] mineHeaders = new long[4];
            long[] theirsHeaders = new long[4];
            for (int i = 0; i < 4; i++) {
                mine[i] = a.allocate(64, NODE);
                theirs[i] = a.allocate(64, NODE);
            }
            for (int i = 0; i < 4; i++) {
                a.deallocate(mine[i], 64);
                a.deallocate(theirs[i], 64);
                mineHeaders[i] = t.read(BlockHeader.address(mine[i]));
                theirsHeaders[i] = t.read(BlockHeader.address(theirs[i]));
            }
            FreeBlockPool tPool = new FreeBlockPool(t, 2);
            FreeBlockPool uPool = new FreeBlockPool(u, 2);
            tPool.push(NODE, sizeClass, theirs, theirsHeaders, 0, 4);
            uPool.push(NODE, sizeClass, mine, mineHeaders, 0, 4);

            long[] got = new long[FreeBlockPool.BATCH];
            long[] headers = new long[FreeBlockPool.BATCH];
            long reads = u.postedOperations(Opcode.READ);
            assertEquals(4, uPool.pop(NODE, sizeClass, got, headers));
            assertEquals(Set.of(mine[0], mine[1], mine[2], mine[3]), Set.of(got[0], got[1], got[2], got[3]), "its own shard's");
            assertEquals(1 + 2 * 4, u.postedOperations(Opcode.READ) - reads, "the heads' line, then a header and a link per block");

            reads = u.postedOperations(Opcode.READ);
            assertEquals(4, uPool.pop(NODE, sizeClass, got, headers));
            assertEquals(Set.of(theirs[0], theirs[1], theirs[2], theirs[3]), Set.of(got[0], got[1], got[2], got[3]),
                    "its shard empty, another's");
            assertEquals(1 + 2 * 4, u.postedOperations(Opcode.READ) - reads, "a steal costs no more READs");

            reads = u.postedOperations(Opcode.READ);
            assertEquals(0, uPool.pop(NODE, sizeClass, got, headers));
            assertEquals(1, u.postedOperations(Opcode.READ) - reads, "every shard empty: one READ of the line");
            assertEquals(2, uPool.pops());
            assertEquals(1, uPool.emptyPops());
            assertEquals(0, uPool.popLosses());
            assertNotEquals(FreeBlockPool.homeShard(t), FreeBlockPool.homeShard(u));
            assertEquals(ControlBlock.POOL_HEADS + 64L * sizeClass + 8L * FreeBlockPool.homeShard(u),
                    RemotePtr.address(FreeBlockPool.headPointer(u, NODE, sizeClass, FreeBlockPool.homeShard(u)))
                            - RemotePtr.address(u.segmentBase(NODE, 0)));
        }
    }

    private static TestCluster cluster(int segmentSize) {
        return new TestCluster(SimFabric::new, SimOptions.defaults(), 2,
                b -> b.threadsPerNode(2).segmentSize(segmentSize).segmentCount(2));
    }

    /** Allocates blocks of 8 bytes on {@link #NODE} until the node has none left, and checks they are distinct. */
    private static Set<Long> drain(RemoteAllocator a) {
        Set<Long> got = new HashSet<>();
        assertThrows(AllocationExhaustedException.class, () -> {
            while (true) {
                assertTrue(got.add(a.allocate(8, NODE)), "a block handed out twice");
            }
        });
        return got;
    }

    /** Frees the blocks and closes the allocator, so that they all go to its home shard. */
    private static void freeAll(RemoteAllocator a, Set<Long> blocks) {
        for (long p : blocks) {
            a.deallocate(p, 8);
        }
        a.close();
        assertEquals(0, a.cachedBlockCount());
        assertEquals(0, a.reservedBlockCount());
    }

    private static Set<Long> setOf(long[] blocks) {
        Set<Long> s = new HashSet<>();
        for (long p : blocks) {
            s.add(p);
        }
        return s;
    }
}
