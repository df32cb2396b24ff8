package io.remus.ds.object;

import io.remus.alock.LockContext;
import io.remus.alock.LockOptions;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.fabric.Fabric;
import io.remus.core.memory.BlockHeader;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimOptions;
import io.remus.core.testing.Fabrics;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.reclaim.NeverReclaimer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The identity of every object of this package: {@code attach} refuses another kind's root and a block that is
 * no object ({@link WrongStructureException}) and a destroyed object ({@link ClosedObjectException}); of two
 * destroys the second is refused; the destroying handle is closed; another handle's operations, in any node, learn
 * of the destroy; and the object's memory stays allocated until its last handle is closed. The objects live on node 1; the
 * creator's thread is on node 0, the other handles' on node 2 (and node 1, the object's own, where its reads
 * take the CPU path).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ObjectIdentityTest {
    private static final int HOME = 1;
    private static final long ADD = 1;

    static Stream<Arguments> cases() {
        return cases(Fabrics.all());
    }

    static Stream<Arguments> cases(Stream<Named<Function<SimOptions, Fabric>>> fabrics) {
        List<Named<Function<SimOptions, Fabric>>> f = fabrics.toList();
        return f.stream().flatMap(fabric -> subjects().map(s -> Arguments.of(fabric, Named.of(s.name(), s))));
    }

    /** A call on a handle, by name. */
    record Call(String name, Consumer<Object> run) {
    }

    /**
     * One kind of object through uniform calls: how to create, attach, destroy it, a root of another kind that an
     * attach could mistake for it, the calls that read its root and the others.
     */
    record Subject(String name, StructureKind kind, BiFunction<ComputeThread, Integer, Object> create,
                   BiFunction<ComputeThread, Long, Object> attach, ToLongFunction<Object> ptr, Consumer<Object> destroy,
                   StructureKind otherKind, BiFunction<ComputeThread, Integer, Long> createOther,
                   List<Call> rootReads, List<Call> otherCalls, Consumer<Object> use) {
        @Override
        public String toString() {
            return name;
        }

        List<Call> everyCall() {
            return Stream.concat(Stream.concat(rootReads.stream(), otherCalls.stream()),
                    Stream.of(new Call("destroy", destroy))).toList();
        }
    }

    private static LockContext context(ComputeThread t) {
        return new LockContext(t, LockOptions.defaults().withAcquireTimeout(Duration.ofSeconds(60)));
    }

    static Stream<Subject> subjects() {
        return Stream.of(
                new Subject("RemoteCounter", StructureKind.REMOTE_COUNTER,
                        (t, node) -> RemoteCounter.create(t, node, 7),
                        RemoteCounter::attach, h -> ((RemoteCounter) h).ptr(), h -> ((RemoteCounter) h).destroy(),
                        StructureKind.REMOTE_MAX_REGISTER, (t, node) -> RemoteMaxRegister.create(t, node, 4, 7).ptr(),
                        List.of(new Call("read", h -> ((RemoteCounter) h).read())),
                        List.of(new Call("fetchAndAdd", h -> ((RemoteCounter) h).fetchAndAdd(1))),
                        h -> {
                            RemoteCounter c = (RemoteCounter) h;
                            assertEquals(7, c.fetchAndAdd(1));
                            assertEquals(8, c.read());
                        }),
                new Subject("RemoteMaxRegister", StructureKind.REMOTE_MAX_REGISTER,
                        (t, node) -> RemoteMaxRegister.create(t, node, 4, 7),
                        RemoteMaxRegister::attach, h -> ((RemoteMaxRegister) h).ptr(), h -> ((RemoteMaxRegister) h).destroy(),
                        StructureKind.SHARED_STATE_TABLE, (t, node) -> SharedStateTable.create(t, node, 4, 8).ptr(),
                        List.of(new Call("read", h -> ((RemoteMaxRegister) h).read()),
                                new Call("writeMax", h -> ((RemoteMaxRegister) h).writeMax(1000))),
                        List.of(),
                        h -> {
                            RemoteMaxRegister r = (RemoteMaxRegister) h;
                            assertEquals(7, r.read());
                            r.writeMax(9);
                            assertEquals(9, r.read());
                        }),
                new Subject("RemoteRegister", StructureKind.REMOTE_REGISTER,
                        (t, node) -> RemoteRegister.create(t, new NeverReclaimer(t), node, new byte[]{1, 2, 3, 4, 5, 6, 7, 8, 9}),
                        (t, ptr) -> RemoteRegister.attach(t, new NeverReclaimer(t), ptr),
                        h -> ((RemoteRegister) h).ptr(), h -> ((RemoteRegister) h).destroy(),
                        StructureKind.REMOTE_COUNTER, (t, node) -> RemoteCounter.create(t, node, 16).ptr(),
                        List.of(new Call("read", h -> ((RemoteRegister) h).read())),
                        List.of(new Call("write", h -> ((RemoteRegister) h).write(new byte[9]))),
                        h -> {
                            RemoteRegister r = (RemoteRegister) h;
                            assertEquals(9, r.read().length);
                            r.write(new byte[]{9, 8, 7, 6, 5, 4, 3, 2, 1});
                            assertEquals(9, r.read()[0]);
                        }),
                new Subject("SharedStateTable", StructureKind.SHARED_STATE_TABLE,
                        (t, node) -> SharedStateTable.create(t, node, 4, 8),
                        SharedStateTable::attach, h -> ((SharedStateTable) h).ptr(), h -> ((SharedStateTable) h).destroy(),
                        StructureKind.REMOTE_MAX_REGISTER, (t, node) -> RemoteMaxRegister.create(t, node, 4, 8).ptr(),
                        List.of(new Call("snapshot", h -> ((SharedStateTable) h).snapshot(MemorySegment.ofArray(new byte[32]), null))),
                        List.of(new Call("write", h -> ((SharedStateTable) h).write(MemorySegment.ofArray(new byte[8]))),
                                new Call("readRow", h -> ((SharedStateTable) h).readRow(0, MemorySegment.ofArray(new byte[8])))),
                        h -> {
                            SharedStateTable s = (SharedStateTable) h;
                            assertEquals(1, s.write(MemorySegment.ofArray(new byte[]{1, 2, 3, 4, 5, 6, 7, 8})));
                            long[] versions = new long[4];
                            s.snapshot(MemorySegment.ofArray(new byte[32]), versions);
                            assertEquals(1, versions[s.row()]);
                        }),
                new Subject("WaitFreeObject", StructureKind.WAIT_FREE_OBJECT,
                        (t, node) -> WaitFreeObject.create(t, new NeverReclaimer(t), node, 4, new WaitFreeObjectTest.Counter()),
                        (t, ptr) -> WaitFreeObject.attach(t, new NeverReclaimer(t), ptr, new WaitFreeObjectTest.Counter()),
                        h -> ((WaitFreeObject<?>) h).ptr(), h -> ((WaitFreeObject<?>) h).destroy(),
                        StructureKind.WAIT_FREE_QUEUE, (t, node) -> WaitFreeQueue.create(t, new NeverReclaimer(t), node, 4, 1).ptr(),
                        List.of(new Call("apply", h -> ((WaitFreeObject<?>) h).apply(ADD, 1)),
                                new Call("read", h -> ((WaitFreeObject<?>) h).read()),
                                new Call("applied", h -> ((WaitFreeObject<?>) h).applied(0))),
                        List.of(),
                        h -> {
                            WaitFreeObject<?> o = (WaitFreeObject<?>) h;
                            assertEquals(0, o.apply(ADD, 5));
                            assertEquals(5L, o.read());
                        }),
                new Subject("WaitFreeQueue", StructureKind.WAIT_FREE_QUEUE,
                        (t, node) -> WaitFreeQueue.create(t, new NeverReclaimer(t), node, 4, 4),
                        (t, ptr) -> WaitFreeQueue.attach(t, new NeverReclaimer(t), ptr),
                        h -> ((WaitFreeQueue) h).ptr(), h -> ((WaitFreeQueue) h).destroy(),
                        StructureKind.WAIT_FREE_STACK, (t, node) -> WaitFreeStack.create(t, new NeverReclaimer(t), node, 4, 4).ptr(),
                        List.of(new Call("enqueue", h -> ((WaitFreeQueue) h).enqueue(1)),
                                new Call("dequeue", h -> ((WaitFreeQueue) h).dequeue()),
                                new Call("contents", h -> ((WaitFreeQueue) h).contents())),
                        List.of(),
                        h -> {
                            WaitFreeQueue q = (WaitFreeQueue) h;
                            q.enqueue(3);
                            q.enqueue(4);
                            q.dequeue();
                            assertEquals(3, q.value());
                            assertEquals(1, q.contents().length);
                            assertEquals(4, q.contents()[0]);
                        }),
                new Subject("WaitFreeStack", StructureKind.WAIT_FREE_STACK,
                        (t, node) -> WaitFreeStack.create(t, new NeverReclaimer(t), node, 4, 4),
                        (t, ptr) -> WaitFreeStack.attach(t, new NeverReclaimer(t), ptr),
                        h -> ((WaitFreeStack) h).ptr(), h -> ((WaitFreeStack) h).destroy(),
                        StructureKind.WAIT_FREE_QUEUE, (t, node) -> WaitFreeQueue.create(t, new NeverReclaimer(t), node, 4, 4).ptr(),
                        List.of(new Call("push", h -> ((WaitFreeStack) h).push(1)),
                                new Call("pop", h -> ((WaitFreeStack) h).pop()),
                                new Call("contents", h -> ((WaitFreeStack) h).contents())),
                        List.of(),
                        h -> {
                            WaitFreeStack s = (WaitFreeStack) h;
                            s.push(3);
                            s.push(4);
                            s.pop();
                            assertEquals(4, s.value());
                            assertEquals(1, s.contents().length);
                        }),
                new Subject("LockedObject", StructureKind.LOCKED_OBJECT,
                        (t, node) -> LockedObject.create(context(t), LockKind.SPIN, node, new WaitFreeObjectTest.Counter()),
                        (t, ptr) -> LockedObject.attach(context(t), LockKind.SPIN, ptr, new WaitFreeObjectTest.Counter()),
                        h -> ((LockedObject<?>) h).ptr(), h -> ((LockedObject<?>) h).destroy(),
                        StructureKind.WAIT_FREE_OBJECT,
                        (t, node) -> WaitFreeObject.create(t, new NeverReclaimer(t), node, 4, new WaitFreeObjectTest.Counter()).ptr(),
                        List.of(new Call("apply", h -> ((LockedObject<?>) h).apply(ADD, 1)),
                                new Call("read", h -> ((LockedObject<?>) h).read())),
                        List.of(),
                        h -> {
                            LockedObject<?> o = (LockedObject<?>) h;
                            assertEquals(0, o.apply(ADD, 5));
                            assertEquals(5L, o.read());
                        }));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldRefuseTheRootOfAnotherKind(Function<SimOptions, Fabric> make, Subject s) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            long other = s.createOther().apply(creator, HOME);
            WrongStructureException e = assertThrows(WrongStructureException.class, () -> s.attach().apply(t, other));
            assertEquals(s.kind(), e.expected());
            assertEquals(s.otherKind(), e.found());
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldRefuseABlockThatIsNoObject(Function<SimOptions, Fabric> make, Subject s) {
        try (TestCluster c = TestCluster.of(make); ComputeThread t = c.thread(2)) {
            long block = c.block(HOME, 256);
            for (long ptr : new long[]{RemotePtr.offset(block, 8), RemotePtr.offset(block, 64), block}) {
                WrongStructureException e = assertThrows(WrongStructureException.class, () -> s.attach().apply(t, ptr),
                        "attach at " + RemotePtr.toString(ptr) + ", in or at a plain block");
                assertEquals(s.kind(), e.expected());
                assertNull(e.found());
            }
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldRefuseAnAttachAfterDestroy(Function<SimOptions, Fabric> make, Subject s) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            Object h = s.create().apply(creator, HOME);
            long ptr = s.ptr().applyAsLong(h);
            s.destroy().accept(h);
            assertThrows(ClosedObjectException.class, () -> s.attach().apply(t, ptr));
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldRefuseASecondDestroyAndLeaveTheBlockToItsNewOwner(Function<SimOptions, Fabric> make, Subject s) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread t = c.thread(2)) {
            Object first = s.create().apply(creator, HOME);
            Object second = s.attach().apply(t, s.ptr().applyAsLong(first));
            s.destroy().accept(first);
            Object next = s.create().apply(creator, HOME);
            assertThrows(ClosedObjectException.class, () -> s.destroy().accept(second));
            s.use().accept(s.attach().apply(t, s.ptr().applyAsLong(next)));
            s.destroy().accept(next);
            s.use().accept(s.create().apply(t, HOME));
        }
    }

    /**
     * Two handles on two nodes destroy at once (the simulator yields inside NIC atomics, to widen the race): one
     * frees, the other gets {@link ClosedObjectException}. Each thread closes its compute thread right after its
     * destroy, so the winner's allocator pushes the freed root block to its node's pool while the loser's failed
     * compare-and-swap of the block's header may still be in flight.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldLetExactlyOneOfTwoRacingDestroysFree(Function<SimOptions, Fabric> make, Subject s) throws InterruptedException {
        try (TestCluster c = new TestCluster(make, SimOptions.defaults().withYieldInsideNicAtomics(true), 3, b -> { })) {
            long ptr;
            try (ComputeThread creator = c.thread(0)) {
                ptr = s.ptr().applyAsLong(s.create().apply(creator, HOME));
            }
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicInteger freed = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            c.runOnThreads(new int[]{0, 2}, (index, t) -> {
                Object h = s.attach().apply(t, ptr);
                start.await(60, TimeUnit.SECONDS);
                try {
                    s.destroy().accept(h);
                    freed.incrementAndGet();
                } catch (ClosedObjectException e) {
                    refused.incrementAndGet();
                }
            });
            assertEquals(1, freed.get(), "destroys that freed the object");
            assertEquals(1, refused.get(), "destroys refused with ClosedObjectException");
            try (ComputeThread t = c.thread(2)) {
                assertThrows(ClosedObjectException.class, () -> s.attach().apply(t, ptr));
                s.use().accept(s.create().apply(t, HOME));
            }
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldRefuseEveryCallOnTheHandleThatDestroyed(Function<SimOptions, Fabric> make, Subject s) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(2)) {
            Object h = s.create().apply(creator, HOME);
            s.destroy().accept(h);
            for (Call call : s.everyCall()) {
                assertThrows(ClosedObjectException.class, () -> call.run().accept(h), call.name() + " after destroy");
            }
        }
    }

    /** Every call of another handle, in any node, that starts after a destroy returned is refused, its blind ones included. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldRefuseEveryCallOfOtherHandlesAfterDestroy(Function<SimOptions, Fabric> make, Subject s) {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0);
             ComputeThread remote = c.thread(2); ComputeThread local = c.thread(HOME)) {
            Object h = s.create().apply(creator, HOME);
            long ptr = s.ptr().applyAsLong(h);
            List<Object> others = List.of(s.attach().apply(remote, ptr), s.attach().apply(local, ptr));
            s.destroy().accept(h);
            for (Object other : others) {
                for (Call call : s.everyCall()) {
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
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldKeepADestroyedObjectsMemoryUntilItsLastHandleCloses(Function<SimOptions, Fabric> make, Subject s) throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0);
             ComputeThread remote = c.thread(2); ComputeThread local = c.thread(HOME)) {
            Object h = s.create().apply(creator, HOME);
            long ptr = s.ptr().applyAsLong(h);
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = creator.read(headerAt);
            Object first = s.attach().apply(remote, ptr);
            Object second = s.attach().apply(local, ptr);
            s.destroy().accept(h);
            long nextPtr = s.ptr().applyAsLong(s.create().apply(creator, HOME));
            assertNotEquals(ptr, nextPtr, "the destroyed object's root block was not handed out again");
            for (Call call : Stream.concat(s.rootReads().stream(), s.otherCalls().stream()).toList()) {
                assertThrows(ClosedObjectException.class, () -> call.run().accept(first), call.name() + " after destroy");
            }
            assertEquals(header, creator.read(headerAt), "two handles are open: the root block stays allocated");
            ((AutoCloseable) second).close();
            assertEquals(header, creator.read(headerAt), "one handle is open: the root block stays allocated");
            ((AutoCloseable) first).close();
            long after = creator.read(headerAt);
            assertNotEquals(header, after, "the last close freed the root block");
            assertEquals(BlockHeader.FREE, BlockHeader.state(after));
            ((AutoCloseable) first).close();
            ((AutoCloseable) second).close();
            assertEquals(after, creator.read(headerAt), "a second close does nothing");
            assertThrows(ClosedObjectException.class, () -> s.attach().apply(remote, ptr));
        }
    }

    /** Handles closed without a destroy leave the object to the others; a destroy by the last one frees it at once. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void shouldLeaveALiveObjectWhenHandlesCloseAndFreeItAtTheLastHandlesDestroy(Function<SimOptions, Fabric> make, Subject s)
            throws Exception {
        try (TestCluster c = TestCluster.of(make); ComputeThread creator = c.thread(0); ComputeThread remote = c.thread(2)) {
            Object h = s.create().apply(creator, HOME);
            long ptr = s.ptr().applyAsLong(h);
            long headerAt = BlockHeader.address(RemotePtr.offset(ptr, -StructureIdentity.BYTES));
            long header = creator.read(headerAt);
            ((AutoCloseable) h).close();
            Object other = s.attach().apply(remote, ptr);
            s.use().accept(other);
            assertThrows(ClosedObjectException.class, () -> s.everyCall().get(0).run().accept(h), "a closed handle");
            s.destroy().accept(other);
            assertEquals(BlockHeader.FREE, BlockHeader.state(creator.read(headerAt)), "the only open handle's destroy freed it");
            assertNotEquals(header, creator.read(headerAt));
        }
    }
}
