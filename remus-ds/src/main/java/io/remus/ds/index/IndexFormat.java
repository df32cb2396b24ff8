package io.remus.ds.index;

import io.remus.core.error.BadArgumentException;
import io.remus.core.rpc.RpcEndpoint;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The bytes of the index service: a client's request, which is also the log entry the leader appends for it,
 * and a server's reply. Both fit one RPC payload ({@value RpcEndpoint#MAX_PAYLOAD} bytes), so a key holds at
 * most {@value #MAX_KEY_BYTES} bytes and a value at most {@value #MAX_VALUE_BYTES}. Little-endian throughout.
 *
 * <pre>
 * request and log entry ({@value #HEADER_BYTES}-byte header, then the key, then the value):
 * +------+-----+-----------+-------------+---------+-------------+-------------+-----+-------+
 * | op:1 | 0:1 | keyLen:2  | valueLen:2  | shard:2 | clientId:8  | sequence:8  | key | value |
 * +------+-----+-----------+-------------+---------+-------------+-------------+-----+-------+
 * 0      1     2           4             6         8             16            24
 *
 * reply ({@value #REPLY_HEADER_BYTES}-byte header, then the value of a GET that found one, or a BAD_REQUEST's text):
 * +----------+-----+-------------+-----------+-------+
 * | status:1 | 0:1 | valueLen:2  | leader:4  | value |
 * +----------+-----+-------------+-----------+-------+
 * </pre>
 *
 * {@code leader} is the node the answering server knows as its shard's leader, -1 when it knows none (meaningful
 * with {@link IndexStatus#NOT_LEADER}). Constants and static helpers only; no RDMA operation.
 */
public final class IndexFormat {
    /** A PUT: store the value under the key. */
    public static final byte PUT = 1;
    /** A GET: read the key's value (through the log, so linearizable). */
    public static final byte GET = 2;
    /** A DELETE: remove the key's value. */
    public static final byte DELETE = 3;
    /** Bytes of a request's header. */
    public static final int HEADER_BYTES = 24;
    /** Bytes of a reply's header. */
    public static final int REPLY_HEADER_BYTES = 8;
    /** The longest key. */
    public static final int MAX_KEY_BYTES = 64;
    /** The longest value: a request with the longest key and value fills one RPC payload. */
    public static final int MAX_VALUE_BYTES = RpcEndpoint.MAX_PAYLOAD - HEADER_BYTES - MAX_KEY_BYTES;
    /** The largest log entry: the largest request. */
    public static final int MAX_ENTRY_BYTES = RpcEndpoint.MAX_PAYLOAD;
    /** The most shards: the shard field's range. */
    public static final int MAX_SHARDS = 1 << 16;

    static final int OP = 0;
    static final int KEY_LENGTH = 2;
    static final int VALUE_LENGTH = 4;
    static final int SHARD = 6;
    static final int CLIENT = 8;
    static final int SEQUENCE = 16;
    static final int STATUS = 0;
    static final int REPLY_VALUE_LENGTH = 2;
    static final int LEADER = 4;

    static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private IndexFormat() {
    }

    /**
     * Checks a key.
     *
     * @param key a key
     * @throws BadArgumentException naming the size and the limit, for a null, empty or oversized key
     */
    public static void requireKey(byte[] key) {
        if (key == null) {
            throw new BadArgumentException("key must not be null");
        }
        if (key.length < 1 || key.length > MAX_KEY_BYTES) {
            throw new BadArgumentException("key of " + key.length + " bytes; the index takes 1.." + MAX_KEY_BYTES);
        }
    }

    /**
     * Checks a value.
     *
     * @param value a value
     * @throws BadArgumentException naming the size and the limit, for a null, empty or oversized value
     */
    public static void requireValue(byte[] value) {
        if (value == null) {
            throw new BadArgumentException("value must not be null");
        }
        if (value.length < 1 || value.length > MAX_VALUE_BYTES) {
            throw new BadArgumentException("value of " + value.length + " bytes; the index takes 1.." + MAX_VALUE_BYTES);
        }
    }

    /** Writes a request into {@code to} and returns its length. The arguments are checked by the caller. */
    static int writeRequest(MemorySegment to, byte op, int shard, long clientId, long sequence, byte[] key, byte[] value) {
        int valueLength = value == null ? 0 : value.length;
        to.set(ValueLayout.JAVA_BYTE, OP, op);
        to.set(ValueLayout.JAVA_BYTE, OP + 1, (byte) 0);
        to.set(LE_SHORT, KEY_LENGTH, (short) key.length);
        to.set(LE_SHORT, VALUE_LENGTH, (short) valueLength);
        to.set(LE_SHORT, SHARD, (short) shard);
        to.set(LE_LONG, CLIENT, clientId);
        to.set(LE_LONG, SEQUENCE, sequence);
        MemorySegment.copy(key, 0, to, ValueLayout.JAVA_BYTE, HEADER_BYTES, key.length);
        if (valueLength > 0) {
            MemorySegment.copy(value, 0, to, ValueLayout.JAVA_BYTE, HEADER_BYTES + key.length, valueLength);
        }
        return HEADER_BYTES + key.length + valueLength;
    }

    static byte op(MemorySegment m) {
        return m.get(ValueLayout.JAVA_BYTE, OP);
    }

    static int keyLength(MemorySegment m) {
        return Short.toUnsignedInt(m.get(LE_SHORT, KEY_LENGTH));
    }

    static int valueLength(MemorySegment m) {
        return Short.toUnsignedInt(m.get(LE_SHORT, VALUE_LENGTH));
    }

    static int shard(MemorySegment m) {
        return Short.toUnsignedInt(m.get(LE_SHORT, SHARD));
    }

    static long clientId(MemorySegment m) {
        return m.get(LE_LONG, CLIENT);
    }

    static long sequence(MemorySegment m) {
        return m.get(LE_LONG, SEQUENCE);
    }

    /**
     * {@return what is wrong with the request or entry of {@code length} bytes in {@code m}, or null when it is
     *          well formed}
     */
    static String problem(MemorySegment m, long length) {
        if (length < HEADER_BYTES) {
            return "a request of " + length + " bytes is shorter than its " + HEADER_BYTES + "-byte header";
        }
        byte op = op(m);
        int k = keyLength(m);
        int v = valueLength(m);
        if (op != PUT && op != GET && op != DELETE) {
            return "operation " + op + " is none of PUT (1), GET (2), DELETE (3)";
        }
        if (k < 1 || k > MAX_KEY_BYTES) {
            return "key of " + k + " bytes; the index takes 1.." + MAX_KEY_BYTES;
        }
        if (op == PUT ? v < 1 || v > MAX_VALUE_BYTES : v != 0) {
            return "operation " + op + " with a value of " + v + " bytes";
        }
        if (HEADER_BYTES + k + v != length) {
            return "a request of " + length + " bytes whose header says " + (HEADER_BYTES + k + v);
        }
        if (clientId(m) == 0 || sequence(m) < 1) {
            return "client id " + clientId(m) + " and sequence " + sequence(m) + " (an id is not 0, a sequence starts at 1)";
        }
        return null;
    }

    static byte[] key(MemorySegment m) {
        byte[] k = new byte[keyLength(m)];
        MemorySegment.copy(m, ValueLayout.JAVA_BYTE, HEADER_BYTES, k, 0, k.length);
        return k;
    }

    static byte[] value(MemorySegment m) {
        byte[] v = new byte[valueLength(m)];
        MemorySegment.copy(m, ValueLayout.JAVA_BYTE, HEADER_BYTES + keyLength(m), v, 0, v.length);
        return v;
    }

    /** Writes a reply and returns its length. */
    static int writeReply(MemorySegment to, IndexStatus status, int leader, byte[] value) {
        int n = value == null ? 0 : value.length;
        to.set(ValueLayout.JAVA_BYTE, STATUS, status.code());
        to.set(ValueLayout.JAVA_BYTE, STATUS + 1, (byte) 0);
        to.set(LE_SHORT, REPLY_VALUE_LENGTH, (short) n);
        to.set(LE_INT, LEADER, leader);
        if (n > 0) {
            MemorySegment.copy(value, 0, to, ValueLayout.JAVA_BYTE, REPLY_HEADER_BYTES, n);
        }
        return REPLY_HEADER_BYTES + n;
    }
}
