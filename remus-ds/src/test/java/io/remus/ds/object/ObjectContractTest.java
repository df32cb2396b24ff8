package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What every object of this package promises about its root and its handles, run by one subclass per object
 * ({@link RemoteCounterTest}, {@link RemoteMaxRegisterTest}, {@link RemoteRegisterTest}, {@link SharedStateTableTest},
 * {@link WaitFreeObjectTest}, {@link WaitFreeQueueTest}, {@link WaitFreeStackTest}, {@link LockedObjectTest}):
 * {@code attach} refuses a null or misaligned pointer ({@link BadArgumentException}), another kind's root and a
 * block that is no object ({@link WrongStructureException}) and a destroyed object ({@link ClosedObjectException});
 * of two destroys the second is refused, and of two racing ones exactly one frees; the destroying handle is closed;
 * another handle's operations, in any node, learn of the destroy; and the object's memory stays allocated until its
 * last handle is closed. The objects live on node {@link #HOME}; the creator's thread is on node 0, the other
 * handles' on node 2 (and node 1, the object's own, where its reads take the CPU path).
 *
 * <p>A subclass says how to create, attach, use and destroy its object through the abstract methods here, and keeps
 * the tests of what is its own (values, costs per call, bad sizes, histories). Its verbs twin hides
 * {@link #fabrics()} with the verbs fabric and so runs these cases on rxe.
 *
 * @param <H> the object's handle type
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ObjectContractTest<H extends AutoCloseable> {
    /** The memory node every object of these cases lives on. */
    static final int HOME = 1;

    static Stream<Named<Function<SimOptions, Fabric>>> fabrics() {
        return Fabrics.all();
    }

    /** A call on a handle, by name. */
    record Call<H>(String name, Consumer<H> run) {
    }

    /** {@return the kind in the object's root} */
    abstract StructureKind structureKind();

    /** {@return a new object on {@code node}, created by {@code t}: its creator's handle} */
    abstract H create(ComputeThread t, int node);

    /** {@return {@code t}'s handle on the object at {@code ptr}} */
    abstract H attach(ComputeThread t, long ptr);

    /** {@return the object's root, as its attach takes it} */
    abstract long ptr(H handle);

    /** Destroys the object through {@code handle}. */
    abstract void destroy(H handle);

    /** {@return the kind of {@link #createOther}'s structure, which an attach could mistake for this object} */
    abstract StructureKind otherKind();

    /** {@return the root of a new structure of {@link #otherKind()} on {@code node}} */
    abstract long createOther(ComputeThread t, int node);

    /** {@return the calls that read the object's root (its handles word among them)} */
    abstract List<Call<H>> rootReads();

    /** {@return the object's other calls (a blind fetch-and-add or WRITE, for instance)} */
    List<Call<H>> otherCalls() {
        return List.of();
    }

    /** Uses a live object through {@code handle} and asserts what it answers. */
    abstract void use(H handle);

    private List<Call<H>> everyCall() {
        return Stream.concat(Stream.concat(rootReads().stream(), otherCalls().stream()),
                Stream.of(new Call<H>("destroy", this::destroy))).toList();
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseANullAndAMisalignedPointer(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            H h = create(creator, HOME);
            assertThrows(BadArgumentException.class, () -> attach(t, RemotePtr.NULL));
            assertThrows(BadArgumentException.class, () -> attach(t, RemotePtr.offset(ptr(h), 4)));
            destroy(h);
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseTheRootOfAnotherKind(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            long other = createOther(creator, HOME);
            WrongStructureException e = assertThrows(WrongStructureException.class, () -> attach(t, other));
            assertEquals(structureKind(), e.expected());
            assertEquals(otherKind(), e.found());
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseABlockThatIsNoObject(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(2)) {
            long block = c.block(HOME, 256);
            for (long ptr : new long[]{RemotePtr.offset(block, 8), RemotePtr.offset(block, 64), block}) {
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> attach(t, ptr),
                        "attach at " + RemotePtr.toString(ptr) + ", in or at a plain block");
                assertEquals(structureKind(), e.expected());
                assertNull(e.found());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseAnAttachAfterDestroy(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            H h = create(creator, HOME);
            long ptr = ptr(h);
            destroy(h);
            assertThrows(ClosedObjectException.class, () -> attach(t, ptr));
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseASecondDestroyAndLeaveTheBlockToItsNewOwner(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            H first = create(creator, HOME);
            H second = attach(t, ptr(first));
            destroy(first);
            H next = create(creator, HOME);
            assertThrows(ClosedObjectException.class, () -> destroy(second));
            use(attach(t, ptr(next)));
            destroy(next);
            use(create(t, HOME));
        }
    }

    /**
     * Two handles on two nodes destroy at once (the simulator yields inside NIC atomics, to widen the race): one
     * frees, the other gets {@link ClosedObjectException}. Each thread closes its compute thread right after its
     * destroy, so the winner's allocator pushes the freed root block to its node's pool while the loser's failed
     * compare-and-swap of the block's header may still be in flight.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLetExactlyOneOfTwoRacingDestroysFree(Function<SimOptions, Fabric> make) throws InterruptedException {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3, b -> { })) {
            long ptr;
            try (ComputeThread creator = c.thread(0)) {
                ptr = ptr(create(creator, HOME));
            }
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger freed = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            c.runOnThreads(new int[]{0, 2}, (index, t) -> {
                H h = attach(t, ptr);
                start.await(60, TimeUnit.SECONDS);
                try {
                    destroy(h);
                    freed.incrementAndGet();
                } catch (ClosedObjectException e) {
                    refused.incrementAndGet();
                }
            });
            assertEquals(1, freed.get(), "destroys that freed the object");
            assertEquals(1, refused.get(), "destroys refused with ClosedObjectException");
            try (ComputeThread t = c.thread(2)) {
                assertThrows(ClosedObjectException.class, () -> attach(t, ptr));
                use(create(t, HOME));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseEveryCallOnTheHandleThatDestroyed(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(2)) {
            H h = create(creator, HOME);
            destroy(h);
            for (Call<H> call : everyCall()) {
                assertThrows(ClosedObjectException.class, () -> call.run().accept(h), call.name() + " after destroy");
            }
        }
    }

    /**
     * A closed handle refuses every call with {@link ClosedObjectException}, and a second close does nothing, while
     * the object lives on for its other handles.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseEveryCallOnAClosedHandleAndCloseAgainQuietly(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(2); ComputeThread t = c.thread(0)) {
            H h = create(creator, HOME);
            H other = attach(t, ptr(h));
            h.close();
            h.close();
            for (Call<H> call : everyCall()) {
                assertThrows(ClosedObjectException.class, () -> call.run().accept(h), call.name() + " after close");
            }
            use(other);
            destroy(other);
        }
    }

    /** Every call of another handle, in any node, that starts after a destroy returned is refused, its blind ones included. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldRefuseEveryCallOfOtherHandlesAfterDestroy(Function<SimOptions, Fabric> make) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0);
             ComputeThread remote = c.thread(2); ComputeThread local = c.thread(HOME)) {
            H h = create(creator, HOME);
            long ptr = ptr(h);
            List<H> others = List.of(attach(remote, ptr), attach(local, ptr));
            destroy(h);
            for (H other : others) {
                for (Call<H> call : everyCall()) {
                    assertThrows(ClosedObjectException.class, () -> call.run().accept(other), call.name() + " after destroy");
                }
            }
        }
    }

    /**
     * A destroyed object's memory stays allocated while another handle is open, so that handle's calls, blind
     * ones (a fetch-and-add, an announcement, a row's WRITE) included, never land in a block another owner
     * reuses; the last handle's close frees it, and a second close does nothing.
     */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldKeepADestroyedObjectsMemoryUntilItsLastHandleCloses(Function<SimOptions, Fabric> make) throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0);
             ComputeThread remote = c.thread(2); ComputeThread local = c.thread(HOME)) {
            H h = create(creator, HOME);
            long ptr = ptr(h);
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = creator.read(headerAt);
            H first = attach(remote, ptr);
            H second = attach(local, ptr);
            destroy(h);
            long nextPtr = ptr(create(creator, HOME));
            assertNotEquals(ptr, nextPtr, "the destroyed object's root block was not handed out again");
            for (Call<H> call : Stream.concat(rootReads().stream(), otherCalls().stream()).toList()) {
                assertThrows(ClosedObjectException.class, () -> call.run().accept(first), call.name() + " after destroy");
            }
            assertEquals(header, creator.read(headerAt), "two handles are open: the root block stays allocated");
            second.close();
            assertEquals(header, creator.read(headerAt), "one handle is open: the root block stays allocated");
            first.close();
            long after = creator.read(headerAt);
            assertNotEquals(header, after, "the last close freed the root block");
            assertEquals(BlockHeader.FREE, BlockHeader.state(after));
            first.close();
            second.close();
            assertEquals(after, creator.read(headerAt), "a second close does nothing");
            assertThrows(ClosedObjectException.class, () -> attach(remote, ptr));
        }
    }

    /** Handles closed without a destroy leave the object to the others; a destroy by the last one frees it at once. */
    @ParameterizedTest
    @MethodSource("fabrics")
    void shouldLeaveALiveObjectWhenHandlesCloseAndFreeItAtTheLastHandlesDestroy(Function<SimOptions, Fabric> make)
            throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread remote = c.thread(2)) {
            H h = create(creator, HOME);
            long ptr = ptr(h);
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = creator.read(headerAt);
            h.close();
            H other = attach(remote, ptr);
            use(other);
            assertThrows(ClosedObjectException.class, () -> everyCall().get(0).run().accept(h), "a closed handle");
            destroy(other);
            assertEquals(BlockHeader.FREE, BlockHeader.state(creator.read(headerAt)), "the only open handle's destroy freed it");
            assertNotEquals(header, creator.read(headerAt));
        }
    }
}
