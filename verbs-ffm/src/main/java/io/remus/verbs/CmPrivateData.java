package io.remus.verbs;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * The private data both sides of an rdma_cm connection send: the region the sender offers its peer;
 * optionally the sender's identifier (in Remus, its node id), so that a listener knows which peer a
 * connection request comes from; the plane the connection belongs to (a requester's traffic class, whose
 * access the listener may switch apart from its other planes'); and the sender's incarnation (a number
 * that differs each time its node is opened, so that a peer finds out that a process restarted). {@link CmListener} sends it with {@code rdma_accept} and
 * decodes it from each {@code RDMA_CM_EVENT_CONNECT_REQUEST}; {@link CmConnector} sends it with
 * {@code rdma_connect} and decodes it from the {@code RDMA_CM_EVENT_ESTABLISHED} event.
 *
 * <p>Layout ({@value #BYTES} bytes, big-endian), within rdma_cm's limit for the private data of a
 * reliable-connected connect request ({@value #CONNECT_REQUEST_LIMIT} bytes):
 * <pre>
 *  0                   8          12                  20       24          28      32                  40
 *  +-------------------+----------+-------------------+--------+-----------+-------+-------------------+
 *  | region address    | rkey     | region length     | MAGIC  | sender id | plane | incarnation       |
 *  +-------------------+----------+-------------------+--------+-----------+-------+-------------------+
 * </pre>
 * The region is {@link RemoteRegion#toBytes()}'s encoding; the sender id is a signed 32-bit integer,
 * {@value #NO_SENDER} where the sender names none; the plane a 32-bit integer, {@code 0} to
 * {@value #MAX_PLANE}; the incarnation a 64-bit integer, {@code 0} where the sender names none. The connection manager pads what it delivers
 * (a connect request's private data arrives as {@value #CONNECT_REQUEST_LIMIT} bytes), so bytes
 * after the encoding are ignored, up to the most the event can carry.
 *
 * @param region   the region the sender offers
 * @param senderId    the sender's identifier, {@code 0} to {@value #MAX_SENDER_ID}, or {@value #NO_SENDER}
 *                    where it names none
 * @param plane       the plane of the connection, {@code 0} to {@value #MAX_PLANE}
 * @param incarnation the sender's incarnation, {@code 0} where it names none
 */
public record CmPrivateData(RemoteRegion region, int senderId, int plane, long incarnation) {
    /** The length of {@link #toBytes()}. */
    public static final int BYTES = RemoteRegion.BYTES + 4 + 4 + 4 + 8;
    /** The largest plane. */
    public static final int MAX_PLANE = 15;
    /**
     * The most private data rdma_cm carries in a reliable-connected connect request (the InfiniBand
     * CM's REQ holds 92 bytes, 36 of which carry rdma_cm's own header).
     */
    public static final int CONNECT_REQUEST_LIMIT = 56;
    /** The most private data rdma_cm carries in its reply to a connect request (the CM's REP). */
    public static final int ACCEPT_LIMIT = 196;
    /** The {@link #senderId()} of a sender that names no identifier. */
    public static final int NO_SENDER = -1;
    /** The largest sender identifier: a 16-bit node id, as Remus' remote pointers carry. */
    public static final int MAX_SENDER_ID = 0xFFFF;
    /** The four bytes after the region that mark this encoding: ASCII {@code "RmCm"}. */
    static final int MAGIC = 0x526d436d;

    /**
     * Checks the fields.
     *
     * @throws NullPointerException     if {@code region} is null
     * @throws InvalidArgumentException if {@code senderId} is neither {@value #NO_SENDER} nor in
     *                                  {@code [0, }{@value #MAX_SENDER_ID}{@code ]}, or {@code plane} is
     *                                  outside {@code [0, }{@value #MAX_PLANE}{@code ]}
     */
    public CmPrivateData {
        Objects.requireNonNull(region, "region");
        if (senderId != NO_SENDER && (senderId < 0 || senderId > MAX_SENDER_ID)) {
            throw new InvalidArgumentException("a sender id must be in [0, " + MAX_SENDER_ID + "] or " + NO_SENDER
                    + " (none), got " + senderId);
        }
        if (plane < 0 || plane > MAX_PLANE) {
            throw new InvalidArgumentException("a plane must be in [0, " + MAX_PLANE + "], got " + plane);
        }
    }

    /**
     * Private data of plane 0 that names no incarnation.
     *
     * @param region   the region offered
     * @param senderId the sender's identifier, or {@value #NO_SENDER}
     * @throws InvalidArgumentException as the canonical constructor
     */
    public CmPrivateData(RemoteRegion region, int senderId) {
        this(region, senderId, 0, 0);
    }

    /**
     * Private data that offers {@code region} and names no sender.
     *
     * @param region the region offered
     * @return the private data
     */
    public static CmPrivateData anonymous(RemoteRegion region) {
        return new CmPrivateData(region, NO_SENDER);
    }

    /** {@return whether the sender named its identifier} */
    public boolean namesSender() {
        return senderId != NO_SENDER;
    }

    /** {@return the {@value #BYTES}-byte encoding drawn in the class comment} */
    public byte[] toBytes() {
        return ByteBuffer.allocate(BYTES).put(region.toBytes()).putInt(MAGIC).putInt(senderId).putInt(plane)
                .putLong(incarnation).array();
    }

    /**
     * Decodes the private data of a connect request, as a listener receives it.
     *
     * @param bytes the request's private data
     * @return the decoded data
     * @throws InvalidArgumentException if there are fewer than {@value #BYTES} or more than
     *                                  {@value #CONNECT_REQUEST_LIMIT} bytes, the marker is not this
     *                                  encoding's, the region wraps the address space, or the sender id
     *                                  or plane is out of range
     */
    public static CmPrivateData fromConnectRequest(byte[] bytes) {
        return decode(bytes, CONNECT_REQUEST_LIMIT, "connect request");
    }

    /**
     * Decodes the private data of an accepted connection, as the connecting side receives it.
     *
     * @param bytes the reply's private data
     * @return the decoded data
     * @throws InvalidArgumentException if there are fewer than {@value #BYTES} or more than
     *                                  {@value #ACCEPT_LIMIT} bytes, the marker is not this encoding's,
     *                                  the region wraps the address space, or the sender id or plane is out
     *                                  of range
     */
    public static CmPrivateData fromAccept(byte[] bytes) {
        return decode(bytes, ACCEPT_LIMIT, "connection reply");
    }

    private static CmPrivateData decode(byte[] bytes, int limit, String what) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length < BYTES || bytes.length > limit) {
            throw new InvalidArgumentException("the private data of a " + what + " must be " + BYTES + " to " + limit
                    + " bytes, got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        RemoteRegion region = RemoteRegion.fromBytes(Arrays.copyOf(bytes, RemoteRegion.BYTES));
        int magic = b.getInt(RemoteRegion.BYTES);
        if (magic != MAGIC) {
            throw new InvalidArgumentException("the private data of a " + what + " is not a Remus offer: marker 0x"
                    + Integer.toHexString(magic) + " where 0x" + Integer.toHexString(MAGIC) + " belongs");
        }
        int sender = b.getInt(RemoteRegion.BYTES + 4);
        if (sender != NO_SENDER && (sender < 0 || sender > MAX_SENDER_ID)) {
            throw new InvalidArgumentException("the private data of a " + what + " names sender " + sender
                    + ", outside [0, " + MAX_SENDER_ID + "] and not " + NO_SENDER + " (none)");
        }
        int plane = b.getInt(RemoteRegion.BYTES + 8);
        if (plane < 0 || plane > MAX_PLANE) {
            throw new InvalidArgumentException("the private data of a " + what + " names plane " + plane
                    + ", outside [0, " + MAX_PLANE + "]");
        }
        return new CmPrivateData(region, sender, plane, b.getLong(RemoteRegion.BYTES + 12));
    }
}
