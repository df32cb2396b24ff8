package io.remus.ds.set;

import io.remus.alock.kind.LockKind;


/**
 * {@link LazyListSet} with ALocks: the set contract ({@link LazyListSetTest}).
 */
class LazyListSetWithALocksTest extends LazyListSetTest {
    @Override
    LockKind lockKind() {
        return LockKind.ALOCK;
    }
}
