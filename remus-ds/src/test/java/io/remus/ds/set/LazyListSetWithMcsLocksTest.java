package io.remus.ds.set;

import io.remus.alock.kind.LockKind;


/**
 * {@link LazyListSet} with MCS locks: the set contract ({@link LazyListSetTest}).
 */
class LazyListSetWithMcsLocksTest extends LazyListSetTest {
    @Override
    LockKind lockKind() {
        return LockKind.MCS;
    }
}
