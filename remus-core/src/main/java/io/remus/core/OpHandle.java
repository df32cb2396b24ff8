package io.remus.core;

import io.remus.core.error.StaleHandleException;
import io.remus.core.memory.RemotePtr;

/**
 * The handle of one asynchronous operation (or one doorbell batch) of a {@link ComputeThread}: a
 * plain {@code long}, so issuing and awaiting allocate nothing, with the static helpers that take
 * it apart living here (as {@link RemotePtr}'s do for pointers).
 *
 * <pre>
 *  63             48 47                                16 15             0
 * +-----------------+------------------------------------+----------------+
 * | thread tag (16) |          generation (32)           |   slot (16)    |
 * +-----------------+------------------------------------+----------------+
 * </pre>
 *
 * <p>A compute thread has one slot per operation it may have in flight, reused after every await.
 * The slot's generation grows each time it is released, and {@link ComputeThread#await(long)} and
 * {@link ComputeThread#poll(long)} compare the handle's generation with the slot's: a handle that
 * was already awaited, whose slot may now carry another operation, is refused with a
 * {@link StaleHandleException} instead of returning that operation's value. The tag, a number
 * every compute thread of the JVM draws in turn (nonzero, repeating after 65,535 threads),
 * refuses a handle of another compute thread. A stale handle could pass only after its slot was
 * reused 2<sup>32</sup> times.
 */
public final class OpHandle {
    private OpHandle() {
    }

    static long of(int tag, int generation, int slot) {
        return ((long) tag << 48) | ((generation & 0xFFFF_FFFFL) << 16) | slot;
    }

    /**
     * Decodes the slot of a handle.
     *
     * @param handle a handle
     * @return the slot it occupies
     */
    public static int slot(long handle) {
        return (int) (handle & 0xFFFF);
    }

    /**
     * Decodes the generation of a handle.
     *
     * @param handle a handle
     * @return the generation of its slot it was issued with
     */
    public static int generation(long handle) {
        return (int) (handle >>> 16);
    }

    /**
     * Decodes the tag of a handle.
     *
     * @param handle a handle
     * @return the tag of the compute thread that issued it
     */
    public static int tag(long handle) {
        return (int) (handle >>> 48);
    }

    /**
     * Describes a handle.
     *
     * @param handle a handle
     * @return {@code "op(tag t, slot s, generation g)"}, for messages
     */
    public static String toString(long handle) {
        return "op(tag " + tag(handle) + ", slot " + slot(handle) + ", generation "
                + Integer.toUnsignedString(generation(handle)) + ")";
    }
}
