package io.remus.verbs;

import io.remus.verbs.ffi.ibv_wc;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable flyweight over a preallocated native {@code struct ibv_wc[capacity]}:
 * {@link CompletionQueue#poll(WorkCompletions)} fills it, the accessors read entry {@code i}
 * of the last poll without allocating; an index outside {@code [0, count())} is an
 * {@link InvalidArgumentException}, like every bad argument of this package. Owned by one thread at a
 * time; close it when done. A close on another thread waits for a poll in flight that fills it,
 * and a poll after the close throws {@link ClosedResourceException}.
 */
public final class WorkCompletions extends NativeResource {
    private static final long SIZE = ibv_wc.sizeof();
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final MemorySegment entries;
    private final int capacity;
    private int count;

    /**
     * Allocates the native array for {@code capacity} completions.
     *
     * @param capacity how many completions one poll may take, at least 1
     * @throws InvalidArgumentException if the capacity is below 1 or absurdly large
     */
    public WorkCompletions(int capacity) {
        super(checkedKind(capacity));
        this.capacity = capacity;
        this.entries = arena.allocate(ibv_wc.layout(), capacity);
    }

    private static String checkedKind(int capacity) {
        if (capacity < 1 || capacity > 1 << 20) {
            throw new InvalidArgumentException("capacity must be in [1, 2^20], got " + capacity);
        }
        return "work completions";
    }

    /** {@return how many completions one poll may take} */
    public int capacity() {
        return capacity;
    }

    /** {@return how many completions the last poll took} */
    public int count() {
        return count;
    }

    /**
     * {@return the work request id of entry {@code i}}
     *
     * @param i an index below {@link #count()}
     */
    public long workRequestId(int i) {
        return entries.get(JAVA_LONG, offset(i) + ibv_wc.wr_id$OFFSET);
    }

    /**
     * {@return the status of entry {@code i} ({@link CompletionStatus})}
     *
     * @param i an index below {@link #count()}
     */
    public int status(int i) {
        return entries.get(JAVA_INT, offset(i) + ibv_wc.status$OFFSET);
    }

    /**
     * {@return whether entry {@code i} succeeded}
     *
     * @param i an index below {@link #count()}
     */
    public boolean isSuccess(int i) {
        return status(i) == CompletionStatus.SUCCESS;
    }

    /**
     * {@return the opcode of entry {@code i} ({@link CompletionOpcode})}
     *
     * @param i an index below {@link #count()}
     */
    public int opcode(int i) {
        return entries.get(JAVA_INT, offset(i) + ibv_wc.opcode$OFFSET);
    }

    /**
     * {@return the bytes received by entry {@code i} (receives)}
     *
     * @param i an index below {@link #count()}
     */
    public int byteLength(int i) {
        return entries.get(JAVA_INT, offset(i) + ibv_wc.byte_len$OFFSET);
    }

    /**
     * {@return the immediate data of entry {@code i}, in host order (when sent with one)}
     *
     * @param i an index below {@link #count()}
     */
    public int immediate(int i) {
        int raw = entries.get(JAVA_INT, offset(i) + ibv_wc.imm_data$OFFSET);
        return LITTLE_ENDIAN ? Integer.reverseBytes(raw) : raw;
    }

    /**
     * {@return whether entry {@code i} carries immediate data}
     *
     * @param i an index below {@link #count()}
     */
    public boolean hasImmediate(int i) {
        return (entries.get(JAVA_INT, offset(i) + ibv_wc.wc_flags$OFFSET) & io.remus.verbs.ffi.IbVerbs.IBV_WC_WITH_IMM) != 0;
    }

    /**
     * {@return the local QP number entry {@code i} belongs to}
     *
     * @param i an index below {@link #count()}
     */
    public int queuePairNumber(int i) {
        return entries.get(JAVA_INT, offset(i) + ibv_wc.qp_num$OFFSET);
    }

    /**
     * {@return the provider's vendor error of entry {@code i}}
     *
     * @param i an index below {@link #count()}
     */
    public int vendorError(int i) {
        return entries.get(JAVA_INT, offset(i) + ibv_wc.vendor_err$OFFSET);
    }

    /**
     * Control path: turns a failed entry into its typed exception.
     *
     * @param i an index below {@link #count()}
     * @throws RemoteAccessException for {@link CompletionStatus#REMOTE_ACCESS_ERROR}
     * @throws CompletionException   for any other failed status
     */
    public void throwIfFailed(int i) {
        int status = status(i);
        if (status != CompletionStatus.SUCCESS) {
            throw CompletionException.of(status, workRequestId(i), vendorError(i), opcode(i));
        }
    }

    /** Nothing native beyond the array, which {@link #close()} frees with the arena. */
    @Override
    void destroy() {
    }

    MemorySegment entries() {
        return entries;
    }

    void count(int n) {
        count = n;
    }

    private long offset(int i) {
        if (i < 0 || i >= count) {
            throw new InvalidArgumentException("completion index " + i + " is outside the last poll's " + count
                    + " completions");
        }
        return (long) i * SIZE;
    }
}
