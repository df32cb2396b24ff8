package io.remus.core.verbs.bootstrap;

import io.remus.core.fabric.RemoteRegion;
import io.remus.verbs.Endpoint;
import io.remus.verbs.Gid;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BootstrapCodecTest {
    private static final Endpoint ENDPOINT = new Endpoint(0x123456, 0x654321, 0, new Gid(0, 0xffffc612_0001L));

    private static byte[] frame(int magic, int version, int type, byte[] body) {
        return ByteBuffer.allocate(BootstrapCodec.HEADER + body.length).putInt(magic).putShort((short) version)
                .putShort((short) type).putInt(body.length).put(body).array();
    }

    @Test
    void shouldRoundTripEveryMessageWhenEncodedThenDecoded() throws Exception {
        List<BootstrapMessage> messages = List.of(
                new BootstrapMessage.RegionsRequest(7),
                new BootstrapMessage.RegionsReply(2, List.of(new RemoteRegion(2, 0x7f00_0000_1000L, 65536, 0x1234),
                        new RemoteRegion(2, 0x7f00_0001_0000L, 4096, -5))),
                new BootstrapMessage.RegionsReply(3, List.of()),
                new BootstrapMessage.ConnectRequest(1, 65535, ENDPOINT),
                new BootstrapMessage.ConnectReply(ENDPOINT, 0),
                new BootstrapMessage.ConnectReply(ENDPOINT, -2),
                new BootstrapMessage.ConnectReply(ENDPOINT, 0x1234_5678_9abc_def0L),
                new BootstrapMessage.ConnectRequest(2, 0, ENDPOINT, 15),
                new BootstrapMessage.ErrorReply("node 4 is not open in this process"));
        for (BootstrapMessage m : messages) {
            byte[] bytes = BootstrapCodec.encode(m);
            assertEquals(m, BootstrapCodec.decode(bytes));
            assertEquals(m, BootstrapCodec.read(new ByteArrayInputStream(bytes)));
        }
    }

    @Test
    void shouldRejectWithClearErrorWhenHeaderIsMalformed() {
        byte[] good = BootstrapCodec.encode(new BootstrapMessage.RegionsRequest(1));
        assertMessage("magic", () -> BootstrapCodec.decode(frame(0x47455420, BootstrapCodec.VERSION, 1, new byte[2])));
        assertMessage("version 1 ", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, 1, 1, new byte[2])));
        assertMessage("version 3", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, 3, 1, new byte[2])));
        assertMessage("unknown bootstrap message type 9", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 9, new byte[2])));
        assertMessage("header", () -> BootstrapCodec.decode(Arrays.copyOf(good, 5)));
        assertEquals("frame", assertThrows(NullPointerException.class, () -> BootstrapCodec.decode(null)).getMessage());
        assertMessage("announces a body of 2", () -> BootstrapCodec.decode(Arrays.copyOf(good, good.length + 1)));
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).putInt(8, 1 << 30);
        assertMessage("body length", () -> BootstrapCodec.decode(huge));
        byte[] negative = good.clone();
        ByteBuffer.wrap(negative).putInt(8, -1);
        assertMessage("body length", () -> BootstrapCodec.read(new ByteArrayInputStream(negative)));
        assertMessage("closed inside", () -> BootstrapCodec.read(new ByteArrayInputStream(Arrays.copyOf(good, good.length - 1))));
    }

    @Test
    void shouldRejectWithClearErrorWhenBodyDoesNotMatchItsType() {
        assertMessage("shorter than its fields", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 1, new byte[1])));
        assertMessage("after its fields", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 1, new byte[3])));
        byte[] lying = ByteBuffer.allocate(2 + 4 + 20).putShort((short) 1).putInt(2).putLong(4096).putLong(4096).putInt(1).array();
        assertMessage("announces 2 regions", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 2, lying)));
        byte[] empty = ByteBuffer.allocate(2 + 4 + 20).putShort((short) 1).putInt(1).putLong(4096).putLong(0).putInt(1).array();
        assertMessage("is invalid", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 2, empty)));
        byte[] wide = ByteBuffer.allocate(2 + 4 + 20).putShort((short) 1).putInt(1).putLong(1L << 50).putLong(8).putInt(1).array();
        assertMessage("is invalid", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 2, wide)));
        byte[] badQpn = ByteBuffer.allocate(4 + Endpoint.BYTES).putShort((short) 0).putShort((short) 1).putInt(1 << 24)
                .putInt(0).putInt(0).put(new byte[16]).array();
        assertMessage("invalid queue pair endpoint", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 3, badQpn)));
        assertMessage("shorter than its fields", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC,
                BootstrapCodec.VERSION, 4, ENDPOINT.toBytes())));
        byte[] badPlane = ByteBuffer.allocate(4 + Endpoint.BYTES + 2).putShort((short) 0).putShort((short) 1)
                .put(ENDPOINT.toBytes()).putShort((short) 16).array();
        assertMessage("plane 16", () -> BootstrapCodec.decode(frame(BootstrapCodec.MAGIC, BootstrapCodec.VERSION, 3, badPlane)));
    }

    @Test
    void shouldAnswerWithErrorWhenServerReceivesGarbage() throws Exception {
        try (BootstrapServer server = new BootstrapServer(new InetSocketAddress("127.0.0.1", 0),
                request -> new BootstrapMessage.RegionsReply(((BootstrapMessage.RegionsRequest) request).nodeId(), List.of()))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
            assertEquals(new BootstrapMessage.RegionsReply(5, List.of()),
                    BootstrapClient.exchange(address, new BootstrapMessage.RegionsRequest(5), Duration.ofSeconds(10)));
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                BootstrapMessage reply = BootstrapCodec.read(s.getInputStream());
                assertTrue(reply instanceof BootstrapMessage.ErrorReply e && e.message().contains("magic"), reply.toString());
            }
            assertThrows(BootstrapProtocolException.class, () -> BootstrapClient.exchange(address,
                    new BootstrapMessage.ConnectReply(ENDPOINT, 1), Duration.ofSeconds(10)));
        }
    }

    private static void assertMessage(String fragment, org.junit.jupiter.api.function.Executable decode) {
        BootstrapProtocolException e = assertThrows(BootstrapProtocolException.class, decode);
        assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
    }
}
