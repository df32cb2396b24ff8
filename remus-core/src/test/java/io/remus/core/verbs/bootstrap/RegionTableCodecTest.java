package io.remus.core.verbs.bootstrap;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.RemoteRegion;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionTableCodecTest {
    private static final RegionTable TABLE = new RegionTable(7, List.of(new RemoteRegion(7, 0x7f00_0000_1000L, 65536, 0x1234),
            new RemoteRegion(7, 0x7f00_0010_0000L, 4096, 0xabcd)));

    @Test
    void shouldRoundTripWhenTableIsWellFormed() {
        byte[] bytes = RegionTableCodec.encode(TABLE, 4096);
        assertEquals(RegionTableCodec.HEADER + 2 * RegionTableCodec.ENTRY, bytes.length);
        assertEquals(TABLE, RegionTableCodec.decode(bytes));
        assertEquals(TABLE, RegionTableCodec.decode(Arrays.copyOf(bytes, 4096)));
        RegionTable empty = new RegionTable(3, List.of());
        assertEquals(empty, RegionTableCodec.decode(RegionTableCodec.encode(empty, 4096)));
    }

    @Test
    void shouldRefuseToEncodeWhenRegionsDoNotFit() {
        List<RemoteRegion> many = new ArrayList<>();
        for (int i = 0; i <= RegionTableCodec.capacity(256); i++) {
            many.add(new RemoteRegion(1, 4096L * (i + 1), 8, i));
        }
        assertThrows(BadArgumentException.class, () -> RegionTableCodec.encode(new RegionTable(1, many), 256));
        assertThrows(BadArgumentException.class, () -> new RegionTable(1, List.of(new RemoteRegion(2, 4096, 8, 1))));
    }

    @Test
    void shouldRejectWithTypedErrorWhenBytesAreMalformed() {
        byte[] good = RegionTableCodec.encode(TABLE, 4096);
        assertThrows(NullPointerException.class, () -> RegionTableCodec.decode(null));
        assertThrows(BootstrapProtocolException.class, () -> RegionTableCodec.decode(new byte[5]));
        assertThrows(BootstrapProtocolException.class, () -> RegionTableCodec.decode(new byte[4096]));
        assertRejected(good, b -> b.putInt(0, 0x11223344), "magic");
        assertRejected(good, b -> b.putShort(4, (short) 2), "version");
        assertRejected(good, b -> b.putShort(6, (short) 3), "entries");
        assertRejected(good, b -> b.put(20, (byte) (b.get(20) ^ 1)), "checksum");
        assertThrows(BootstrapProtocolException.class, () -> RegionTableCodec.decode(Arrays.copyOf(good, good.length - 1)));
    }

    @Test
    void shouldRejectWhenAnEntryIsEmptyOrNodeIsOutOfRange() {
        assertThrows(BootstrapProtocolException.class, () -> RegionTableCodec.decode(withEntry(4096, 0)));
        byte[] bytes = RegionTableCodec.encode(TABLE, 4096);
        ByteBuffer.wrap(bytes).putInt(8, 1 << 20);
        BootstrapProtocolException e = assertThrows(BootstrapProtocolException.class, () -> RegionTableCodec.decode(bytes));
        assertTrue(e.getMessage().contains("node"), e.getMessage());
    }

    private static void assertRejected(byte[] good, java.util.function.Consumer<ByteBuffer> corrupt, String word) {
        byte[] bad = good.clone();
        corrupt.accept(ByteBuffer.wrap(bad));
        BootstrapProtocolException e = assertThrows(BootstrapProtocolException.class, () -> RegionTableCodec.decode(bad));
        assertTrue(e.getMessage().contains(word), e.getMessage());
    }

    @Test
    void shouldRejectAnEntryPastTwoToTheFortyEighthOrWrapping() {
        long top = 1L << io.remus.core.memory.RemotePtr.ADDRESS_BITS;
        assertEquals(top - 4096, RegionTableCodec.decode(withEntry(top - 4096, 4096)).regions().get(0).address());
        for (long[] entry : new long[][] {{top, 4096}, {top - 4096, 8192}, {Long.MAX_VALUE - 8, 16}, {-4096, 4096}, {4096, -1}}) {
            BootstrapProtocolException e = assertThrows(BootstrapProtocolException.class,
                    () -> RegionTableCodec.decode(withEntry(entry[0], entry[1])));
            assertTrue(e.getMessage().contains(Long.toHexString(entry[0])), e.getMessage());
        }
    }

    /** @return a well-sealed table of node 2 with one entry, whatever its address and length */
    private static byte[] withEntry(long address, long length) {
        ByteBuffer b = ByteBuffer.allocate(RegionTableCodec.HEADER + RegionTableCodec.ENTRY);
        b.putInt(RegionTableCodec.MAGIC).putShort((short) RegionTableCodec.VERSION).putShort((short) 1).putInt(2).putInt(0);
        b.putLong(address).putLong(length).putInt(1);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(b.array(), RegionTableCodec.HEADER, RegionTableCodec.ENTRY);
        b.putInt(12, (int) crc.getValue());
        return b.array();
    }
}
