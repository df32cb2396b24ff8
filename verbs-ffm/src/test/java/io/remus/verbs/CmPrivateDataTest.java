package io.remus.verbs;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The private data of rdma_cm connections: its encoding, its size limit, and the bad input it refuses. */
class CmPrivateDataTest {
    private static final RemoteRegion REGION = new RemoteRegion(0x7f0000001000L, 0x1234, 4096);

    /** {@return {@code data}'s encoding with the four sender-id bytes replaced by {@code id}} */
    private static byte[] withRawSenderId(CmPrivateData data, int id) {
        byte[] bytes = data.toBytes();
        ByteBuffer.wrap(bytes).putInt(RemoteRegion.BYTES + 4, id);
        return bytes;
    }

    @Test
    void shouldFitRdmaCmConnectRequestLimit() {
        assertEquals(40, CmPrivateData.BYTES);
        assertTrue(CmPrivateData.BYTES <= CmPrivateData.CONNECT_REQUEST_LIMIT);
        assertEquals(56, CmPrivateData.CONNECT_REQUEST_LIMIT);
        assertEquals(CmPrivateData.BYTES, new CmPrivateData(REGION, 7).toBytes().length);
    }

    @Test
    void shouldRoundTripRegionAndSenderIdWhenPaddedAsTheConnectionManagerDelivers() {
        for (int id : new int[] {0, 1, 7, CmPrivateData.MAX_SENDER_ID, CmPrivateData.NO_SENDER}) {
            CmPrivateData data = new CmPrivateData(REGION, id);
            assertEquals(data, CmPrivateData.fromConnectRequest(data.toBytes()));
            assertEquals(data, CmPrivateData.fromConnectRequest(Arrays.copyOf(data.toBytes(), CmPrivateData.CONNECT_REQUEST_LIMIT)),
                    "a connect request arrives padded to 56 bytes");
            assertEquals(data, CmPrivateData.fromAccept(Arrays.copyOf(data.toBytes(), CmPrivateData.ACCEPT_LIMIT)),
                    "a reply arrives padded to 196 bytes");
            assertEquals(id != CmPrivateData.NO_SENDER, data.namesSender());
        }
        CmPrivateData anonymous = CmPrivateData.anonymous(REGION);
        assertEquals(CmPrivateData.NO_SENDER, anonymous.senderId());
        assertFalse(anonymous.namesSender());
        assertEquals(REGION, anonymous.region());
        assertArrayEquals(REGION.toBytes(), Arrays.copyOf(anonymous.toBytes(), RemoteRegion.BYTES),
                "the region's encoding comes first");
    }

    @Test
    void shouldRoundTripPlaneAndIncarnation() {
        for (int plane : new int[] {0, 1, CmPrivateData.MAX_PLANE}) {
            for (long incarnation : new long[] {0, 1, -1, 0x1234_5678_9abc_def0L}) {
                CmPrivateData data = new CmPrivateData(REGION, 4, plane, incarnation);
                assertEquals(data, CmPrivateData.fromConnectRequest(Arrays.copyOf(data.toBytes(),
                        CmPrivateData.CONNECT_REQUEST_LIMIT)));
                assertEquals(data, CmPrivateData.fromAccept(data.toBytes()));
            }
        }
        CmPrivateData plain = new CmPrivateData(REGION, 4);
        assertEquals(0, plain.plane());
        assertEquals(0, plain.incarnation());
    }

    @Test
    void shouldRefuseAPlaneOutOfRange() {
        for (int plane : new int[] {-1, CmPrivateData.MAX_PLANE + 1, Integer.MAX_VALUE}) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> new CmPrivateData(REGION, 4, plane, 0));
            assertTrue(e.getMessage().contains("got " + plane), e.getMessage());
            byte[] bytes = new CmPrivateData(REGION, 4).toBytes();
            ByteBuffer.wrap(bytes).putInt(RemoteRegion.BYTES + 8, plane);
            InvalidArgumentException d = assertThrows(InvalidArgumentException.class,
                    () -> CmPrivateData.fromConnectRequest(bytes));
            assertTrue(d.getMessage().contains("plane " + plane), d.getMessage());
        }
    }

    @Test
    void shouldRefuseShortPrivateData() {
        for (int length : new int[] {0, RemoteRegion.BYTES, CmPrivateData.BYTES - 1}) {
            byte[] bytes = Arrays.copyOf(new CmPrivateData(REGION, 3).toBytes(), length);
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> CmPrivateData.fromConnectRequest(bytes));
            assertTrue(e.getMessage().contains("got " + length), e.getMessage());
            assertThrows(InvalidArgumentException.class, () -> CmPrivateData.fromAccept(bytes));
        }
    }

    @Test
    void shouldRefusePrivateDataLongerThanTheConnectionManagerCarries() {
        byte[] request = Arrays.copyOf(new CmPrivateData(REGION, 3).toBytes(), CmPrivateData.CONNECT_REQUEST_LIMIT + 1);
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> CmPrivateData.fromConnectRequest(request));
        assertTrue(e.getMessage().contains("got " + request.length), e.getMessage());
        assertEquals(3, CmPrivateData.fromAccept(request).senderId(), "a reply may be that long");
        byte[] reply = Arrays.copyOf(request, CmPrivateData.ACCEPT_LIMIT + 1);
        InvalidArgumentException r = assertThrows(InvalidArgumentException.class, () -> CmPrivateData.fromAccept(reply));
        assertTrue(r.getMessage().contains("got " + reply.length), r.getMessage());
    }

    @Test
    void shouldRefuseSenderIdOutOfRange() {
        CmPrivateData data = new CmPrivateData(REGION, 3);
        for (int id : new int[] {-2, CmPrivateData.MAX_SENDER_ID + 1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            byte[] bytes = withRawSenderId(data, id);
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> CmPrivateData.fromConnectRequest(bytes));
            assertTrue(e.getMessage().contains("sender " + id), e.getMessage());
            assertThrows(InvalidArgumentException.class, () -> CmPrivateData.fromAccept(bytes));
            InvalidArgumentException made = assertThrows(InvalidArgumentException.class, () -> new CmPrivateData(REGION, id));
            assertTrue(made.getMessage().contains(String.valueOf(id)), made.getMessage());
        }
    }

    @Test
    void shouldRefuseDataThatIsNotThisEncoding() {
        byte[] bare = Arrays.copyOf(REGION.toBytes(), CmPrivateData.CONNECT_REQUEST_LIMIT);
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> CmPrivateData.fromConnectRequest(bare));
        assertTrue(e.getMessage().contains("marker 0x0"), "a bare region padded with zeros names no sender: " + e.getMessage());
        byte[] wrapping = new CmPrivateData(REGION, 3).toBytes();
        ByteBuffer.wrap(wrapping).putLong(0, -8L).putLong(12, 64L);
        assertThrows(InvalidArgumentException.class, () -> CmPrivateData.fromConnectRequest(wrapping),
                "a region that wraps the address space");
        assertThrows(NullPointerException.class, () -> CmPrivateData.fromConnectRequest(null));
        assertThrows(NullPointerException.class, () -> new CmPrivateData(null, 1));
    }
}
