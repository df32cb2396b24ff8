package io.remus.verbs.ffi;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@snippet lang = c:
 * struct ibv_pci_atomic_caps {
 *     uint16_t fetch_add;
 *     uint16_t swap;
 *     uint16_t compare_swap;
 * };
 * }
 */
@SuppressWarnings("checkstyle:TypeName")
public final class ibv_pci_atomic_caps {
    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            JAVA_SHORT.withName("fetch_add"),
            JAVA_SHORT.withName("swap"),
            JAVA_SHORT.withName("compare_swap")
    ).withName("ibv_pci_atomic_caps");

    private ibv_pci_atomic_caps() {
    }

    /** {@return the layout of {@code struct ibv_pci_atomic_caps}} */
    public static GroupLayout layout() {
        return $LAYOUT;
    }

    /** {@return {@code sizeof(struct ibv_pci_atomic_caps)}} */
    public static long sizeof() {
        return $LAYOUT.byteSize();
    }

    /** Offset of {@code fetch_add}. */
    public static final long fetch_add$OFFSET = 0;

    /** @param s a {@code struct ibv_pci_atomic_caps} @return {@code s->fetch_add} */
    public static short fetch_add(MemorySegment s) {
        return s.get(JAVA_SHORT, fetch_add$OFFSET);
    }

    /** @param s a {@code struct ibv_pci_atomic_caps} @param v the value for {@code s->fetch_add} */
    public static void fetch_add(MemorySegment s, short v) {
        s.set(JAVA_SHORT, fetch_add$OFFSET, v);
    }

    /** Offset of {@code swap}. */
    public static final long swap$OFFSET = 2;

    /** @param s a {@code struct ibv_pci_atomic_caps} @return {@code s->swap} */
    public static short swap(MemorySegment s) {
        return s.get(JAVA_SHORT, swap$OFFSET);
    }

    /** @param s a {@code struct ibv_pci_atomic_caps} @param v the value for {@code s->swap} */
    public static void swap(MemorySegment s, short v) {
        s.set(JAVA_SHORT, swap$OFFSET, v);
    }

    /** Offset of {@code compare_swap}. */
    public static final long compare_swap$OFFSET = 4;

    /** @param s a {@code struct ibv_pci_atomic_caps} @return {@code s->compare_swap} */
    public static short compare_swap(MemorySegment s) {
        return s.get(JAVA_SHORT, compare_swap$OFFSET);
    }

    /** @param s a {@code struct ibv_pci_atomic_caps} @param v the value for {@code s->compare_swap} */
    public static void compare_swap(MemorySegment s, short v) {
        s.set(JAVA_SHORT, compare_swap$OFFSET, v);
    }
}
