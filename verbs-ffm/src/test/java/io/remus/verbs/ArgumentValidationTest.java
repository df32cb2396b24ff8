package io.remus.verbs;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks that keep bad input out of native code, exercised without a device. */
class ArgumentValidationTest {
    private static final int ALL = Access.flags(Access.all());

    @Test
    void shouldRejectHeapSegmentWhenRegistering() {
        assertThrows(InvalidArgumentException.class,
                () -> ProtectionDomain.checkRegistrable(MemorySegment.ofArray(new byte[64]), ALL));
    }

    @Test
    void shouldRejectClosedSegmentWhenRegistering() {
        MemorySegment segment;
        try (Arena arena = Arena.ofConfined()) {
            segment = arena.allocate(64);
        }
        assertThrows(ClosedResourceException.class, () -> ProtectionDomain.checkRegistrable(segment, ALL));
    }

    @Test
    void shouldRejectEmptyNullReadOnlyAndInconsistentAccessWhenRegistering() {
        try (Arena arena = Arena.ofConfined()) {
            assertThrows(NullPointerException.class, () -> ProtectionDomain.checkRegistrable(null, ALL));
            assertThrows(InvalidArgumentException.class, () -> ProtectionDomain.checkRegistrable(arena.allocate(0), ALL));
            assertThrows(InvalidArgumentException.class,
                    () -> ProtectionDomain.checkRegistrable(arena.allocate(64).asReadOnly(), ALL));
            assertThrows(InvalidArgumentException.class,
                    () -> ProtectionDomain.checkRegistrable(arena.allocate(64), Access.REMOTE_WRITE.flag()));
            assertDoesNotThrow(() -> ProtectionDomain.checkRegistrable(arena.allocate(64), ALL));
            assertDoesNotThrow(() -> ProtectionDomain.checkRegistrable(arena.allocate(64).asReadOnly(),
                    Access.REMOTE_READ.flag()));
        }
    }

    @Test
    void shouldRejectMisalignedAtomicsNegativeLengthsFullBatchesAndTooManySges() {
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkAtomicAlignment(0x1004));
        assertDoesNotThrow(() -> WorkRequestChecks.checkAtomicAlignment(0x1008));
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkLength(-1, 1 << 20));
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkLength((1 << 20) + 1, 1 << 20));
        assertDoesNotThrow(() -> WorkRequestChecks.checkLength(0, 1 << 20));
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkRoom(4, 4));
        assertDoesNotThrow(() -> WorkRequestChecks.checkRoom(3, 4));
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkSgeRoom(2, 2));
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkCapacity(0, 64));
        assertThrows(InvalidArgumentException.class, () -> WorkRequestChecks.checkCapacity(65, 64));
        assertThrows(NullPointerException.class, () -> WorkRequestChecks.checkRegion(null, null));
    }

    @Test
    void shouldNameFailedRequestFromBadWrPointer() {
        assertEquals(2, ReceiveBatch.failedIndex(1000 + 2 * 128, 1000, 128, 4));
        assertEquals(0, ReceiveBatch.failedIndex(0, 1000, 128, 4));
        assertEquals(0, ReceiveBatch.failedIndex(1000 + 9 * 128, 1000, 128, 4));
    }

    @Test
    void shouldRejectBadCapacityWhenCreatingWorkCompletions() {
        assertThrows(InvalidArgumentException.class, () -> new WorkCompletions(0));
        WorkCompletions wc = new WorkCompletions(2);
        assertThrows(InvalidArgumentException.class, () -> wc.status(0));
        assertThrows(InvalidArgumentException.class, () -> wc.workRequestId(-1));
        assertThrows(InvalidArgumentException.class, () -> wc.queuePairNumber(2));
        wc.close();
        wc.close();
        assertThrows(ClosedResourceException.class, wc::requireOpen);
    }

    @Test
    void shouldRoundTripEndpointAndRemoteRegionEncodings() {
        Gid gid = Gid.of(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 198, 18, 0, 1});
        assertTrue(gid.isIpv4Mapped());
        assertEquals("0000:0000:0000:0000:0000:ffff:c612:0001", gid.toString());
        Endpoint endpoint = new Endpoint(0x123456, 0xabcdef, 0, gid);
        assertEquals(endpoint, Endpoint.fromBytes(endpoint.toBytes()));
        assertArrayEquals(gid.toBytes(), Endpoint.fromBytes(endpoint.toBytes()).gid().toBytes());
        RemoteRegion region = new RemoteRegion(0x7f0000001000L, 0x1234, 4096);
        assertEquals(region, RemoteRegion.fromBytes(region.toBytes()));
        assertEquals(0x7f0000001008L, region.addressAt(8));
        assertThrows(InvalidArgumentException.class, () -> region.addressAt(4096));
        assertThrows(InvalidArgumentException.class, () -> new Endpoint(1 << 24, 0, 0, Gid.ZERO));
        assertThrows(InvalidArgumentException.class, () -> Endpoint.fromBytes(new byte[3]));
        assertThrows(InvalidArgumentException.class, () -> new ConnectionOptions(null, 32, 7, 7, 12, 16, 16, 64));
    }

    @Test
    void shouldRefuseARemoteRegionThatWrapsTheAddressSpace() {
        for (long[] r : new long[][] {{-4096L, 8192}, {-1L, 2}, {0x8000_0000_0000_0002L, Long.MAX_VALUE}}) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> new RemoteRegion(r[0], 1, r[1]));
            assertTrue(e.getMessage().contains(Long.toHexString(r[0])), e.getMessage());
        }
        byte[] wrapping = java.nio.ByteBuffer.allocate(RemoteRegion.BYTES).putLong(-8).putInt(1).putLong(64).array();
        assertThrows(InvalidArgumentException.class, () -> RemoteRegion.fromBytes(wrapping));
        assertEquals(4096, new RemoteRegion(-4096L, 1, 4096).length(), "ending exactly at the top is no wrap");
    }

    @Test
    void shouldDescribeCompletionStatusAndTypeRemoteAccessErrors() {
        assertEquals("success", CompletionStatus.describe(CompletionStatus.SUCCESS).toLowerCase());
        CompletionException e = CompletionException.of(CompletionStatus.REMOTE_ACCESS_ERROR, 7, 0, 0);
        assertTrue(e instanceof RemoteAccessException);
        assertEquals(7, e.workRequestId());
        assertTrue(e.getMessage().contains("remote access error"), e::getMessage);
        assertTrue(!(CompletionException.of(CompletionStatus.WORK_REQUEST_FLUSHED, 1, 0, 0) instanceof RemoteAccessException));
    }
}
