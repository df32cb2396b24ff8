package io.remus.ds.set;

import io.remus.core.ComputeThread;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.reclaim.Guard;
import io.remus.ds.reclaim.Reclaimer;

import static io.remus.ds.set.GuardedCall.RESTART;

/**
 * What the two lock-free sets ({@link LockFreeListSet}, {@link LockFreeSkipListSet}) build on one search: a walk
 * from the head that, helping, unlinks every marked node it meets ({@link #find}) and, not helping, passes over
 * them ({@link #contains}'s attempt). Each set's walk is its own; the handle frees a destroyed set's nodes along
 * their level-0 {@code next} words. Used by the handle's owner only, like its compute thread.
 */
abstract sealed class LockFreeSetHandle extends ListSetHandle permits LockFreeListSet, LockFreeSkipListSet {
    /** One attempt of a contains: a walk that does not help. */
    final GuardedCall.Attempt containsAttempt = (g, key) -> walk(g, key, false);
    /** The offset of a node's level-0 {@code next} word. */
    private final long nextOffset;

    /**
     * @param thread     the handle's compute thread
     * @param reclaimer  the reclaimer whose guards the handle's calls run under
     * @param identity   the handle's identity of the set's root
     * @param head       the head sentinel (its node is the home node)
     * @param tail       the tail sentinel
     * @param nodeBytes  bytes of every node's block
     * @param nextOffset the offset of a node's level-0 {@code next} word
     */
    LockFreeSetHandle(ComputeThread thread, Reclaimer reclaimer, StructureIdentity identity, long head, long tail,
                      int nodeBytes, long nextOffset) {
        super(thread, reclaimer, identity, head, tail, nodeBytes);
        this.nextOffset = nextOffset;
    }

    /**
     * One walk from the head to the first node whose key is {@code >= key}, recording what the set's
     * {@link #find} documents. With {@code help} it unlinks every marked node it meets (one compare-and-swap each,
     * from the head again when that fails); without it it passes over them and changes nothing.
     *
     * @return {@code TRUE} when that node holds {@code key} unmarked, else {@code FALSE}; {@code RESTART} when the
     *         guard's lease ran out
     */
    abstract int walk(Guard g, long key, boolean help);

    /** A helping walk ({@link #walk}): false when the guard's lease ran out. */
    final boolean find(Guard g, long key) {
        return walk(g, key, true) != RESTART;
    }

    @Override
    final void freeNodes() {
        nodes.freeLevel0(head, nextOffset);
    }
}
