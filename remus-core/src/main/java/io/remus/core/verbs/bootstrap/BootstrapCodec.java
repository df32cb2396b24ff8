package io.remus.core.verbs.bootstrap;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;
import io.remus.verbs.Endpoint;
import io.remus.verbs.VerbsException;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The wire format of {@link BootstrapMessage}s: a 12-byte header, then the body, big-endian.
 *
 * <pre>
 *  0      4        6       8          12
 *  +------+--------+-------+----------+------------------+
 *  | RMVB | version| type  | body len | body (len bytes) |
 *  +------+--------+-------+----------+------------------+
 *  type 1 RegionsRequest : u16 node
 *  type 2 RegionsReply   : u16 node, u32 count, count x (u64 address, u64 length, u32 rkey)
 *  type 3 ConnectRequest : u16 from, u16 to, endpoint (28 bytes: qpn, psn, lid, gid), u16 plane (0..15)
 *  type 4 ConnectReply   : endpoint (28 bytes), u64 incarnation of the serving node
 *  type 5 ErrorReply     : UTF-8 text
 * </pre>
 *
 * Decoding is strict: wrong magic or version, an unknown type, a body length above
 * {@value #MAX_BODY} bytes or different from what the type needs, or a field out of range is a
 * {@link BootstrapProtocolException}.
 */
public final class BootstrapCodec {
    /** "RMVB". */
    public static final int MAGIC = 0x524D5642;
    /** The one version this code speaks (2: a connect request carries its queue pair's plane, a reply the serving node's incarnation). */
    public static final int VERSION = 2;
    /** Header bytes. */
    public static final int HEADER = 12;
    /** The largest body accepted. */
    public static final int MAX_BODY = 64 << 10;
    /** The most regions one reply may carry. */
    public static final int MAX_REGIONS = 1024;

    private static final int REGIONS_REQUEST = 1;
    private static final int REGIONS_REPLY = 2;
    private static final int CONNECT_REQUEST = 3;
    private static final int CONNECT_REPLY = 4;
    private static final int ERROR_REPLY = 5;
    private static final int REGION_BYTES = 8 + 8 + 4;

    private BootstrapCodec() {
    }

    /**
     * @param message a message
     * @return its frame, header included
     */
    public static byte[] encode(BootstrapMessage message) {
        Objects.requireNonNull(message, "message");
        byte[] body = switch (message) {
            case BootstrapMessage.RegionsRequest r -> ByteBuffer.allocate(2).putShort((short) r.nodeId()).array();
            case BootstrapMessage.RegionsReply r -> {
                ByteBuffer b = ByteBuffer.allocate(2 + 4 + REGION_BYTES * r.regions().size());
                b.putShort((short) r.nodeId()).putInt(r.regions().size());
                for (RemoteRegion region : r.regions()) {
                    b.putLong(region.address()).putLong(region.length()).putInt(region.rkey());
                }
                yield b.array();
            }
            case BootstrapMessage.ConnectRequest r -> ByteBuffer.allocate(4 + Endpoint.BYTES + 2)
                    .putShort((short) r.fromNode()).putShort((short) r.toNode()).put(r.endpoint().toBytes())
                    .putShort((short) r.plane()).array();
            case BootstrapMessage.ConnectReply r -> ByteBuffer.allocate(Endpoint.BYTES + 8).put(r.endpoint().toBytes())
                    .putLong(r.incarnation()).array();
            case BootstrapMessage.ErrorReply r -> r.message().getBytes(StandardCharsets.UTF_8);
        };
        int type = switch (message) {
            case BootstrapMessage.RegionsRequest r -> REGIONS_REQUEST;
            case BootstrapMessage.RegionsReply r -> REGIONS_REPLY;
            case BootstrapMessage.ConnectRequest r -> CONNECT_REQUEST;
            case BootstrapMessage.ConnectReply r -> CONNECT_REPLY;
            case BootstrapMessage.ErrorReply r -> ERROR_REPLY;
        };
        if (body.length > MAX_BODY) {
            throw new BootstrapProtocolException("message body of " + body.length + " bytes exceeds " + MAX_BODY);
        }
        return ByteBuffer.allocate(HEADER + body.length).putInt(MAGIC).putShort((short) VERSION).putShort((short) type)
                .putInt(body.length).put(body).array();
    }

    /**
     * Reads one frame from a stream.
     *
     * @param in the stream
     * @return the message
     * @throws BootstrapProtocolException when the frame is malformed or the stream ends inside it
     * @throws IOException                when reading fails
     */
    public static BootstrapMessage read(InputStream in) throws IOException {
        Objects.requireNonNull(in, "in");
        DataInputStream data = new DataInputStream(in);
        byte[] header = new byte[HEADER];
        try {
            data.readFully(header);
            int length = bodyLength(header);
            byte[] frame = new byte[HEADER + length];
            System.arraycopy(header, 0, frame, 0, HEADER);
            data.readFully(frame, HEADER, length);
            return decode(frame);
        } catch (EOFException e) {
            throw new BootstrapProtocolException("bootstrap connection closed inside a message", e);
        }
    }

    /**
     * Decodes one complete frame.
     *
     * @param frame header and body, nothing more
     * @return the message
     * @throws BootstrapProtocolException when the frame is malformed
     */
    public static BootstrapMessage decode(byte[] frame) {
        Objects.requireNonNull(frame, "frame");
        if (frame.length < HEADER) {
            throw new BootstrapProtocolException("a bootstrap message needs a " + HEADER + "-byte header, got "
                    + (frame == null ? "null" : frame.length + " bytes"));
        }
        int length = bodyLength(frame);
        if (frame.length != HEADER + length) {
            throw new BootstrapProtocolException("header announces a body of " + length + " bytes, the frame carries "
                    + (frame.length - HEADER));
        }
        ByteBuffer b = ByteBuffer.wrap(frame, HEADER, length).slice();
        int type = Short.toUnsignedInt(ByteBuffer.wrap(frame, 6, 2).getShort());
        try {
            BootstrapMessage m = switch (type) {
                case REGIONS_REQUEST -> new BootstrapMessage.RegionsRequest(nodeId(b));
                case REGIONS_REPLY -> regionsReply(b);
                case CONNECT_REQUEST -> new BootstrapMessage.ConnectRequest(nodeId(b), nodeId(b), endpoint(b), plane(b));
                case CONNECT_REPLY -> new BootstrapMessage.ConnectReply(endpoint(b), b.getLong());
                case ERROR_REPLY -> new BootstrapMessage.ErrorReply(text(b));
                default -> throw new BootstrapProtocolException("unknown bootstrap message type " + type);
            };
            if (b.hasRemaining()) {
                throw new BootstrapProtocolException("bootstrap message type " + type + " has " + b.remaining()
                        + " bytes after its fields");
            }
            return m;
        } catch (BufferUnderflowException e) {
            throw new BootstrapProtocolException("bootstrap message type " + type + " is shorter than its fields", e);
        }
    }

    private static int bodyLength(byte[] header) {
        ByteBuffer b = ByteBuffer.wrap(header, 0, HEADER);
        int magic = b.getInt();
        if (magic != MAGIC) {
            throw new BootstrapProtocolException("not a Remus bootstrap message: magic 0x" + Integer.toHexString(magic));
        }
        int version = Short.toUnsignedInt(b.getShort());
        if (version != VERSION) {
            throw new BootstrapProtocolException("bootstrap protocol version " + version + " is not supported (this is "
                    + VERSION + ")");
        }
        b.getShort();
        int length = b.getInt();
        if (length < 0 || length > MAX_BODY) {
            throw new BootstrapProtocolException("bootstrap message body length " + Integer.toUnsignedString(length)
                    + " is outside 0.." + MAX_BODY);
        }
        return length;
    }

    private static int nodeId(ByteBuffer b) {
        int id = Short.toUnsignedInt(b.getShort());
        if (id > RemotePtr.MAX_NODE_ID) {
            throw new BootstrapProtocolException("node id " + id + " is outside 0.." + RemotePtr.MAX_NODE_ID);
        }
        return id;
    }

    private static int plane(ByteBuffer b) {
        int plane = Short.toUnsignedInt(b.getShort());
        if (plane >= io.remus.core.fabric.Plane.COUNT) {
            throw new BootstrapProtocolException("plane " + plane + " is outside 0.." + (io.remus.core.fabric.Plane.COUNT - 1));
        }
        return plane;
    }

    private static BootstrapMessage regionsReply(ByteBuffer b) {
        int node = nodeId(b);
        int count = b.getInt();
        if (count < 0 || count > MAX_REGIONS || count != b.remaining() / REGION_BYTES) {
            throw new BootstrapProtocolException("a region list announces " + Integer.toUnsignedString(count)
                    + " regions but carries " + b.remaining() + " bytes (" + REGION_BYTES + " per region, at most "
                    + MAX_REGIONS + ")");
        }
        List<RemoteRegion> regions = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long address = b.getLong();
            long length = b.getLong();
            int rkey = b.getInt();
            if (length <= 0 || address == 0 || address + length < address || (address >>> RemotePtr.ADDRESS_BITS) != 0) {
                throw new BootstrapProtocolException("region " + i + " of node " + node + " is invalid: address 0x"
                        + Long.toHexString(address) + ", length " + length);
            }
            try {
                regions.add(new RemoteRegion(node, address, length, rkey));
            } catch (BadArgumentException e) {
                throw new BootstrapProtocolException("region " + i + " of node " + node + " is invalid: " + e.getMessage(), e);
            }
        }
        return new BootstrapMessage.RegionsReply(node, regions);
    }

    private static Endpoint endpoint(ByteBuffer b) {
        byte[] raw = new byte[Endpoint.BYTES];
        b.get(raw);
        try {
            return Endpoint.fromBytes(raw);
        } catch (VerbsException e) {
            throw new BootstrapProtocolException("invalid queue pair endpoint: " + e.getMessage(), e);
        }
    }

    private static String text(ByteBuffer b) {
        byte[] raw = new byte[b.remaining()];
        b.get(raw);
        return new String(raw, StandardCharsets.UTF_8);
    }
}
