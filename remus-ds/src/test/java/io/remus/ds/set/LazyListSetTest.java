package io.remus.ds.set;

import io.remus.alock.LockContext;
import io.remus.alock.kind.LockKind;
import io.remus.core.ComputeThread;
import io.remus.core.testing.TestCluster;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link LazyListSet} with the lock kind of its subclass ({@link LazyListSetWithSpinLocksTest},
 * {@link LazyListSetWithALocksTest}, {@link LazyListSetWithMcsLocksTest}): the set contract
 * ({@link SortedListSetContractTest}), and a root that names its lock kind.
 */
abstract class LazyListSetTest extends SortedListSetContractTest {
    /** The kind of the node locks. */
    abstract LockKind lockKind();

    @Override
    StructureKind kind() {
        return StructureKind.LAZY_LIST_SET;
    }

    @Override
    SetMaker maker() {
        return SetMaker.lazy(lockKind());
    }

    @Override
    long nextOffset() {
        return ListLayout.NEXT;
    }

    @Override
    RemoteSet create(ComputeThread t, Reclaimer r, int home) {
        return LazyListSet.create(new LockContext(t, SetMaker.LOCKS), r, lockKind(), home);
    }

    @Override
    RemoteSet attach(ComputeThread t, Reclaimer r, long ptr) {
        return LazyListSet.attach(new LockContext(t, SetMaker.LOCKS), r, ptr);
    }

    @Override
    void destroy(RemoteSet set) {
        ((LazyListSet) set).destroy();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNameItsLockKindInTheRoot() {
        try (TestCluster c = cluster(); ComputeThread t = c.thread(REMOTE); NeverReclaimer r = new NeverReclaimer(t)) {
            long ptr = maker().create(t, r, HOME);
            assertEquals(lockKind(), LazyListSet.attach(new LockContext(t, SetMaker.LOCKS), r, ptr).lockKind(),
                    "the root names the lock kind");
        }
    }
}
