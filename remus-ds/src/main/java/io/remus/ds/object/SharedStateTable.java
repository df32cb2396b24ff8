package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.time.ThreadTime;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * A shared state table (SST): one row of {@code rowBytes} bytes per thread, written only by the thread
 * that claimed it and read by everyone, singly or all at once. The object that LOCO ("LOCO: Rethinking
 * objects for network memory") offers for state that each thread publishes and all watch (progress
 * counters, membership, heartbeats), after Derecho's SST.
 *
 * <pre>
 *  ptr - 16: the handles word, ptr - 8: the identity word ({@link StructureIdentity})
 *  ptr +  0: rows r        written once, before the pointer is known
 *  ptr +  8: rowBytes      written once
 *  ptr + 16: claims        RDMA fetch-and-add; the i-th claim owns row i
 *  ptr + 24: row 0 .. row r-1, each {@link #stride(int)} bytes:
 *            +0 version    0 until the owner's first write, then 1, 2, ...
 *            +8 data       rowBytes, padded to a multiple of 8
 *            +8+pad check  a 64-bit hash of the row's address, version and data
 * </pre>
 *
 * <p><b>Torn rows.</b> A row is written in place with one RDMA WRITE, which is not atomic for a
 * concurrent reader: Soft-RoCE copies a payload in pieces, tearing even an aligned 8-byte word for a CPU
 * that loads it meanwhile, and an RDMA READ that overlaps a WRITE can return a mix of old and new bytes.
 * So every row carries a check over its version and data, and a reader that finds the check wrong read
 * the row while its owner wrote it and reads it again. A mix of two writes passes the check only by a
 * 64-bit hash collision (probability about 2<sup>-64</sup> per torn read). Rows are written in place
 * rather than out of place so that a write stays one WRITE and one round trip, without allocation.
 *
 * <p><b>Progress and cost</b> ({@code r} rows):
 * <table>
 *   <caption>per call</caption>
 *   <tr><th>method</th><th>progress</th><th>RDMA operations</th><th>round trips</th></tr>
 *   <tr><td>{@link #write}</td><td>wait-free</td><td>1 WRITE of {@code stride} bytes and an 8-byte READ of
 *       the handles word, in one doorbell</td><td>1</td></tr>
 *   <tr><td>{@link #readRow}</td><td>lock-free: an attempt fails only when it overlapped a write of the
 *       row</td><td>per attempt, 1 READ of the row and an 8-byte READ of the handles word, in one doorbell (CPU
 *       copies on the table's node)</td><td>1 per attempt</td></tr>
 *   <tr><td>{@link #snapshot}</td><td>lock-free, as {@code readRow} per row</td><td>1 READ of all
 *       {@code r} rows with the handles word, the identity word and the table's first 24 bytes in front
 *       (the table lives on one node: one doorbell per snapshot), plus one READ per row
 *       found torn, all torn rows of a round in flight together</td><td>1, plus 1 per round of
 *       re-reads</td></tr>
 * </table>
 * Reads give up with {@link CorruptedMemoryException} when a row stays torn for the operation timeout
 * (a writer that died in the middle of a WRITE can leave it so).
 *
 * <p><b>Linearizable</b> per row, with respect to a read/write register per row whose writer is its
 * owner: a row read returns the value of the last write of the row that took effect before it, or of
 * one overlapping it. A {@link #snapshot} is not an atomic snapshot of the table: each row in it is a
 * value its owner wrote that was current at some instant during the snapshot (the SST's semantics).
 * Versions grow by one per write, so a reader sees how many writes a row has had.
 *
 * <p><b>Creating and finding.</b> {@link #create} allocates the table, with its identity in front, with the
 * thread's allocator, writes every row with version 0 and zero data before anyone knows the pointer, and claims
 * row 0; others {@link #attach} with {@link #ptr()}, each claiming the next row, or {@link #attachReader} to
 * read only; both refuse a pointer to anything but a live table. Rows are never given back.
 * The thread's registered buffer is scratch (the whole table and the 16 bytes in front of it, from offset 0)
 * during a call.
 *
 * <p><b>Closing and destroying.</b> Each handle is closed when its thread is done ({@link #close()}); its
 * row stays claimed. {@link #destroy} marks the table destroyed, and its block is freed when the last handle is
 * closed (see {@link StructureIdentity}). The other handles learn of a destroy from the handles word: the
 * {@link #snapshot} READ starts at it, and a {@link #write} and a {@link #readRow} READ it in the doorbell of
 * their row's WRITE or READ ({@link ClosedObjectException}).
 *
 * <p>One instance per compute thread, used by its owner, like the compute thread.
 */
public final class SharedStateTable extends ObjectHandle {
    private static final long ROWS = 0;
    private static final long ROW_BYTES = 8;
    private static final long CLAIMS = 16;
    private static final long FIRST_ROW = 24;
    /** Where a snapshot's READ puts the first row in the buffer: behind the header, the identity word and the shape. */
    private static final long BUF_FIRST_ROW = StructureIdentity.PREFIX_BYTES + FIRST_ROW;
    private static final int NO_ROW = -1;

    private final int rows;
    private final int rowBytes;
    private final int padded;
    private final int stride;
    private final int row;
    private final long[] handles;
    private final boolean[] done;
    private long version;

    private SharedStateTable(ComputeThread thread, StructureIdentity identity, int rows, int rowBytes, int row) {
        super(thread, identity, bytes(rows, rowBytes));
        this.rows = rows;
        this.rowBytes = rowBytes;
        this.padded = (rowBytes + 7) & ~7;
        this.stride = stride(rowBytes);
        this.row = row;
        this.handles = new long[thread.config().opsInFlightPerThread()];
        this.done = new boolean[rows];
    }

    /**
     * Sizes a row.
     *
     * @param rowBytes a row's data size
     * @return the bytes one row takes: version, padded data and check
     */
    public static int stride(int rowBytes) {
        return 16 + ((rowBytes + 7) & ~7);
    }

    /**
     * Sizes a table (its block holds {@link StructureIdentity#BYTES} more: the handles and identity words).
     *
     * @param rows     the row count
     * @param rowBytes a row's data size
     * @return the bytes of a table
     */
    public static long bytes(int rows, int rowBytes) {
        return FIRST_ROW + (long) rows * stride(rowBytes);
    }

    /**
     * Allocates a table of {@code rows} rows on memory node {@code nodeId} and claims row 0: the
     * allocation, the identity word (a CPU load and store on the thread's own node, else 1 READ and 1 WRITE),
     * one WRITE of the table, then the attach (1 READ, 1 compare-and-swap, 1 fetch-and-add) and one fetch-and-add
     * of the handles word (the allocation's handle, given up for the attach's).
     *
     * @param thread   the creator's compute thread
     * @param nodeId   a memory node
     * @param rows     the row count, 1 or more: the most handles ever attached with {@link #attach}, the
     *                 creator's included; each takes a row for good, a closed one too ({@link #attachReader}'s
     *                 take none)
     * @param rowBytes a row's data size, 1 or more; the whole table and 16 bytes more must fit the thread's
     *                 buffer
     * @return the creator's handle
     * @throws BadArgumentException when the sizes are out of range
     */
    public static SharedStateTable create(ComputeThread thread, int nodeId, int rows, int rowBytes) {
        Objects.requireNonNull(thread, "thread");
        checkShape(thread, rows, rowBytes);
        long bytes = bytes(rows, rowBytes);
        StructureIdentity identity = StructureIdentity.allocate(thread, StructureKind.SHARED_STATE_TABLE, bytes, nodeId,
                ClosedObjectException::new);
        long p = identity.ptr();
        MemorySegment buf = thread.buffer();
        buf.asSlice(0, bytes).fill((byte) 0);
        buf.set(ValueLayout.JAVA_LONG, ROWS, rows);
        buf.set(ValueLayout.JAVA_LONG, ROW_BYTES, rowBytes);
        int stride = stride(rowBytes);
        int padded = stride - 16;
        for (int i = 0; i < rows; i++) {
            long at = FIRST_ROW + (long) i * stride;
            buf.set(ValueLayout.JAVA_LONG, at + 8 + padded, check(rowPtr(p, i, stride), buf, at, padded));
        }
        thread.write(p, 0, (int) bytes);
        SharedStateTable handle = attach(thread, p);
        identity.close(thread, bytes, () -> { });
        return handle;
    }

    /**
     * A handle on a table, claiming the next row: one READ of the table's shape (with the root block's header,
     * the handles word and the identity word in front), one compare-and-swap of the handles word
     * ({@link StructureIdentity#attach}) and one fetch-and-add of the claims.
     *
     * @param thread the caller's compute thread
     * @param ptr    what {@link #ptr()} returned
     * @return the handle
     * @throws BadArgumentException         when the pointer is null or misaligned, or the shape found
     *                                      there does not fit this thread's buffer
     * @throws WrongStructureException      when no table is there (another kind of structure, or none)
     * @throws ClosedObjectException        when the table there was destroyed
     * @throws AllocationExhaustedException when every row is claimed
     */
    public static SharedStateTable attach(ComputeThread thread, long ptr) {
        return attach(thread, ptr, true);
    }

    /**
     * A handle that reads the table and owns no row ({@link #write} refuses it): one READ of the
     * table's shape (with the root block's header, the handles word and the identity word in front) and one
     * compare-and-swap of the handles word ({@link StructureIdentity#attach}).
     *
     * @param thread the caller's compute thread
     * @param ptr    what {@link #ptr()} returned
     * @return the handle
     * @throws BadArgumentException    when the pointer is null or misaligned, or the shape found there
     *                                 does not fit this thread's buffer
     * @throws WrongStructureException when no table is there (another kind of structure, or none)
     * @throws ClosedObjectException   when the table there was destroyed
     */
    public static SharedStateTable attachReader(ComputeThread thread, long ptr) {
        return attach(thread, ptr, false);
    }

    private static SharedStateTable attach(ComputeThread thread, long ptr, boolean owner) {
        Objects.requireNonNull(thread, "thread");
        MemorySegment shape = MemorySegment.ofArray(new long[2]);
        StructureIdentity identity = attachRoot(thread, StructureKind.SHARED_STATE_TABLE, ptr, shape, copy -> {
            long rows = copy.get(ValueLayout.JAVA_LONG, ROWS);
            long rowBytes = copy.get(ValueLayout.JAVA_LONG, ROW_BYTES);
            if (rows < 1 || rows > Integer.MAX_VALUE || rowBytes < 1 || rowBytes > Integer.MAX_VALUE) {
                throw new BadArgumentException(RemotePtr.toString(ptr) + " holds " + rows + " rows of " + rowBytes
                        + " bytes: not a table");
            }
            checkShape(thread, (int) rows, (int) rowBytes);
        });
        long rows = shape.get(ValueLayout.JAVA_LONG, ROWS);
        long rowBytes = shape.get(ValueLayout.JAVA_LONG, ROW_BYTES);
        if (!owner) {
            return new SharedStateTable(thread, identity, (int) rows, (int) rowBytes, NO_ROW);
        }
        int row = claimSlot(thread, identity, RemotePtr.offset(ptr, CLAIMS), rows, "rows of the SharedStateTable", "rows",
                () -> identity.close(thread, bytes((int) rows, (int) rowBytes), () -> { }));
        return new SharedStateTable(thread, identity, (int) rows, (int) rowBytes, row);
    }

    private static void checkShape(ComputeThread thread, int rows, int rowBytes) {
        if (rows < 1 || rowBytes < 1 || StructureIdentity.PREFIX_BYTES + bytes(rows, rowBytes) > thread.config().bufferSizePerThread()
                || StructureIdentity.blockBytes(bytes(rows, rowBytes)) > SizeClasses.MAX) {
            throw new BadArgumentException("a table of " + rows + " rows of " + rowBytes + " bytes does not fit the thread's buffer of "
                    + thread.config().bufferSizePerThread() + " bytes (with " + StructureIdentity.PREFIX_BYTES
                    + " bytes in front) or a block of " + SizeClasses.MAX + " bytes");
        }
    }

    /** {@return the row this handle owns, or -1 for a handle from {@link #attachReader}} */
    public int row() {
        return row;
    }

    /** {@return the row count} */
    public int rows() {
        return rows;
    }

    /** {@return a row's data size} */
    public int rowBytes() {
        return rowBytes;
    }

    /**
     * Writes this handle's row: one WRITE, with an 8-byte READ of the handles word in its doorbell, one round
     * trip, wait-free.
     *
     * @param data exactly {@link #rowBytes()} bytes
     * @return the row's new version
     * @throws BadArgumentException  when the data has another size, or the handle owns no row
     * @throws ClosedObjectException when the table was destroyed (by this handle or, found in the READ of the
     *                               handles word in the WRITE's doorbell, by another)
     */
    public long write(MemorySegment data) {
        requireOpen(data, "data", rowBytes, "rows of this table hold");
        if (row == NO_ROW) {
            throw new BadArgumentException("this handle of the table at " + RemotePtr.toString(ptr) + " reads only: it owns no row");
        }
        MemorySegment buf = thread.buffer();
        long next = version + 1;
        buf.set(ValueLayout.JAVA_LONG, 0, next);
        MemorySegment.copy(data, 0, buf, 8, rowBytes);
        if (padded > rowBytes) {
            buf.asSlice(8 + rowBytes, padded - rowBytes).fill((byte) 0);
        }
        long at = rowPtr(ptr, row, stride);
        buf.set(ValueLayout.JAVA_LONG, 8 + padded, check(at, buf, 0, padded));
        identity.writeWithHeader(thread, at, 0, stride, stride);
        version = next;
        return next;
    }

    /**
     * Reads one row (see the class for the cost): its data into {@code destination}.
     *
     * @param index       a row index
     * @param destination exactly {@link #rowBytes()} bytes
     * @return the row's version (0: never written by its owner)
     * @throws BadArgumentException     when the row or the destination size is out of range
     * @throws CorruptedMemoryException when the row stays torn for the operation timeout
     * @throws ClosedObjectException    when the table was destroyed (by this handle or, found in the READ of the
     *                                  handles word in the row READ's doorbell, by another)
     */
    public long readRow(int index, MemorySegment destination) {
        requireOpen(destination, "destination", rowBytes, "rows of this table hold");
        int r = index;
        if (r < 0 || r >= rows) {
            throw new BadArgumentException("row " + r + " is not in the table of " + rows + " rows");
        }
        long at = rowPtr(ptr, r, stride);
        long deadline = 0;
        MemorySegment buf = thread.buffer();
        while (true) {
            identity.readWithHeader(thread, at, 0, stride, stride);
            if (buf.get(ValueLayout.JAVA_LONG, 8 + padded) == check(at, buf, 0, padded)) {
                MemorySegment.copy(buf, 8, destination, 0, rowBytes);
                return buf.get(ValueLayout.JAVA_LONG, 0);
            }
            deadline = tornDeadline(deadline, r);
        }
    }

    /**
     * Reads every row: data into {@code destination} (row {@code i} at {@code i * rowBytes}) and
     * versions into {@code versions}. See the class for the cost and what it guarantees.
     *
     * @param destination {@code rows() * rowBytes()} bytes
     * @param versions    {@code rows()} entries, or null when not wanted
     * @throws BadArgumentException     when a size does not match
     * @throws CorruptedMemoryException when a row stays torn for the operation timeout
     * @throws ClosedObjectException    when the table was destroyed (by this handle or, found in the first
     *                                  READ, by another)
     */
    public void snapshot(MemorySegment destination, long[] versions) {
        Objects.requireNonNull(destination, "destination");
        identity.requireOpen();
        if (destination.byteSize() != (long) rows * rowBytes || (versions != null && versions.length != rows)) {
            throw new BadArgumentException("a snapshot of " + rows + " rows of " + rowBytes + " bytes needs " + (long) rows * rowBytes
                    + " bytes and " + rows + " versions, got " + destination.byteSize() + " and "
                    + (versions == null ? "none" : versions.length));
        }
        MemorySegment buf = thread.buffer();
        thread.read(identity.headerAddress(), 0, (int) BUF_FIRST_ROW + rows * stride);
        identity.check(buf.get(ValueLayout.JAVA_LONG, 0));
        long deadline = 0;
        int torn = -1;
        Arrays.fill(done, false);
        while (true) {
            int pending = 0;
            int posted = 0;
            for (int i = 0; i < rows; i++) {
                long at = BUF_FIRST_ROW + (long) i * stride;
                if (done[i]) {
                    continue;
                }
                if (buf.get(ValueLayout.JAVA_LONG, at + 8 + padded) == check(rowPtr(ptr, i, stride), buf, at, padded)) {
                    MemorySegment.copy(buf, at + 8, destination, (long) i * rowBytes, rowBytes);
                    if (versions != null) {
                        versions[i] = buf.get(ValueLayout.JAVA_LONG, at);
                    }
                    done[i] = true;
                } else {
                    pending++;
                    torn = i;
                }
            }
            if (pending == 0) {
                return;
            }
            deadline = tornDeadline(deadline, torn);
            for (int i = 0; i < rows; i++) {
                long at = BUF_FIRST_ROW + (long) i * stride;
                if (!done[i]) {
                    if (posted == handles.length) {
                        break;
                    }
                    handles[posted++] = thread.readAsync(rowPtr(ptr, i, stride), at, stride, false);
                }
            }
            for (int i = 0; i < posted; i++) {
                thread.await(handles[i]);
            }
        }
    }

    private long tornDeadline(long deadline, int r) {
        long now = ThreadTime.nanoTime();
        if (deadline == 0) {
            return now + thread.config().operationTimeout().toNanos();
        }
        if (now - deadline > 0) {
            throw new CorruptedMemoryException(rowPtr(ptr, r, stride), 0, "row " + r + " of the table at " + RemotePtr.toString(ptr)
                    + " stayed torn for " + thread.config().operationTimeout() + ": its owner's WRITE never finished");
        }
        ThreadTime.onSpinWait("a torn row of a shared-state table");
        return deadline;
    }

    private static long rowPtr(long table, int row, int stride) {
        return RemotePtr.offset(table, FIRST_ROW + (long) row * stride);
    }

    /**
     * The check of a row: a hash of its address, its version word and its padded data, never 0 (so
     * that zeroed memory is no valid row).
     */
    static long check(long rowPtr, MemorySegment buf, long at, int padded) {
        long h = rowPtr * 0x9E3779B97F4A7C15L;
        for (long i = 0; i <= padded; i += 8) {
            h = mix(h ^ buf.get(ValueLayout.JAVA_LONG, at + i));
        }
        return h == 0 ? 1 : h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return z ^ (z >>> 33) ^ 0x2545F4914F6CDD1DL;
    }
}
