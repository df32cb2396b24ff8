package io.remus.core.verbs.bootstrap;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The format of a node's {@link RegionTable} in its registered directory buffer, which peers
 * read with one RDMA READ over an rdma_cm connection (the connection's private data names the
 * buffer). Big-endian:
 *
 * <pre>
 *  0      4         6       8      12      16
 *  +------+---------+-------+------+-------+----------------------------------------------+
 *  | RMRT | version | count | node | crc32 | count x (u64 address, u64 length, u32 rkey) |
 *  +------+---------+-------+------+-------+----------------------------------------------+
 * </pre>
 *
 * The CRC-32 covers the entries, so a READ that raced with the owner rewriting the table is
 * detected rather than believed. Decoding is strict: wrong magic or version, more entries than
 * the bytes hold, a CRC mismatch, a node id out of range, or an empty or wrapping region is a
 * {@link BootstrapProtocolException}.
 */
public final class RegionTableCodec {
    /** "RMRT". */
    public static final int MAGIC = 0x524D5254;
    /** The one version this code speaks. */
    public static final int VERSION = 1;
    /** Header bytes. */
    public static final int HEADER = 16;
    /** Bytes per region entry. */
    public static final int ENTRY = 8 + 8 + 4;

    private RegionTableCodec() {
    }

    /**
     * @param bytes a buffer size
     * @return the most regions a table of that many bytes holds
     */
    public static int capacity(int bytes) {
        return Math.max(0, Math.min(0xFFFF, (bytes - HEADER) / ENTRY));
    }

    /**
     * @param table    the table
     * @param maxBytes the buffer it must fit
     * @return its encoding
     * @throws BadArgumentException when it has more regions than {@link #capacity(int)}
     */
    public static byte[] encode(RegionTable table, int maxBytes) {
        Objects.requireNonNull(table, "table");
        int n = table.regions().size();
        if (n > capacity(maxBytes)) {
            throw new BadArgumentException("node " + table.nodeId() + " publishes " + n + " regions; at most "
                    + capacity(maxBytes) + " fit its " + maxBytes + "-byte region table");
        }
        ByteBuffer b = ByteBuffer.allocate(HEADER + n * ENTRY);
        b.putInt(MAGIC).putShort((short) VERSION).putShort((short) n).putInt(table.nodeId()).putInt(0);
        for (RemoteRegion r : table.regions()) {
            b.putLong(r.address()).putLong(r.length()).putInt(r.rkey());
        }
        b.putInt(12, crc(b.array(), n));
        return b.array();
    }

    /**
     * @param bytes a buffer that starts with an encoded table (trailing bytes are ignored)
     * @return the table
     * @throws BootstrapProtocolException when the bytes are not a well-formed table
     */
    public static RegionTable decode(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < HEADER) {
            throw new BootstrapProtocolException("a region table needs " + HEADER + " header bytes, got "
                    + (bytes == null ? "none" : bytes.length));
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new BootstrapProtocolException("not a region table: magic 0x" + Integer.toHexString(magic));
        }
        int version = Short.toUnsignedInt(b.getShort());
        if (version != VERSION) {
            throw new BootstrapProtocolException("region table version " + version + ", this code speaks " + VERSION);
        }
        int n = Short.toUnsignedInt(b.getShort());
        int nodeId = b.getInt();
        int crc = b.getInt();
        if (n > (bytes.length - HEADER) / ENTRY) {
            throw new BootstrapProtocolException("region table claims " + n + " entries but " + bytes.length + " bytes hold "
                    + (bytes.length - HEADER) / ENTRY);
        }
        if (crc != crc(bytes, n)) {
            throw new BootstrapProtocolException("region table checksum mismatch (read while it was being rewritten, or corrupt)");
        }
        if (nodeId < 0 || nodeId > RemotePtr.MAX_NODE_ID) {
            throw new BootstrapProtocolException("region table of node " + nodeId + ", outside 0.." + RemotePtr.MAX_NODE_ID);
        }
        List<RemoteRegion> regions = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long address = b.getLong();
            long length = b.getLong();
            int rkey = b.getInt();
            try {
                regions.add(new RemoteRegion(nodeId, address, length, rkey));
            } catch (BadArgumentException e) {
                throw new BootstrapProtocolException("region table entry " + i + " is empty, past 2^48 or wraps: address 0x"
                        + Long.toHexString(address) + ", length " + length, e);
            }
        }
        return new RegionTable(nodeId, regions);
    }

    private static int crc(byte[] bytes, int entries) {
        CRC32 c = new CRC32();
        c.update(bytes, HEADER, entries * ENTRY);
        return (int) c.getValue();
    }
}
