package io.remus.core.verbs.bootstrap;

import io.remus.core.error.RemoteTimeoutException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** The TCP bootstrap on loopback: slow peers delay nobody, and every exchange keeps to its deadline. */
class BootstrapServerTest {
    private static final BootstrapHandler ECHO_NODE =
            request -> new BootstrapMessage.RegionsReply(((BootstrapMessage.RegionsRequest) request).nodeId(), List.of());

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    @Test
    void shouldServeAGoodPeerWhileSilentAndTricklingPeersHoldConnections() throws Exception {
        try (BootstrapServer server = new BootstrapServer(loopback(0), ECHO_NODE, Duration.ofMinutes(5))) {
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    slow.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
                }
                Socket trickler = new Socket(InetAddress.getLoopbackAddress(), server.port());
                slow.add(trickler);
                byte[] frame = BootstrapCodec.encode(new BootstrapMessage.RegionsRequest(9));
                trickler.getOutputStream().write(frame, 0, 5);
                for (int request = 1; request <= 5; request++) {
                    assertEquals(new BootstrapMessage.RegionsReply(request, List.of()), BootstrapClient.exchange(
                            loopback(server.port()), new BootstrapMessage.RegionsRequest(request), Duration.ofSeconds(20)));
                    trickler.getOutputStream().write(frame, 4 + request, 1);
                }
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    @Test
    void shouldCutOffATricklingPeerAtTheExchangeDeadline() throws Exception {
        try (BootstrapServer server = new BootstrapServer(loopback(0), ECHO_NODE, Duration.ofMillis(300));
             Socket trickler = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            byte[] frame = BootstrapCodec.encode(new BootstrapMessage.RegionsRequest(3));
            OutputStream out = trickler.getOutputStream();
            try {
                for (byte b : frame) {
                    out.write(b);
                    out.flush();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
                }
            } catch (IOException cutOffWhileWriting) {
                return;
            }
            trickler.setSoTimeout(30_000);
            InputStream in = trickler.getInputStream();
            try {
                int first = in.read();
                assertEquals(-1, first, "a request sent a byte per 100 ms over 1.4 s was answered despite a 300 ms deadline");
            } catch (SocketTimeoutException e) {
                fail("the server neither answered nor closed the trickling connection", e);
            } catch (SocketException reset) {
                assertTrue(reset.getMessage() != null, "cut off by a reset");
            }
        }
    }

    @Test
    void shouldCloseTheConnectionOfASilentPeerWhenTheServerCloses() throws Exception {
        Socket silent;
        try (BootstrapServer server = new BootstrapServer(loopback(0), ECHO_NODE, Duration.ofHours(1))) {
            silent = new Socket(InetAddress.getLoopbackAddress(), server.port());
            assertEquals(new BootstrapMessage.RegionsReply(5, List.of()), BootstrapClient.exchange(
                    loopback(server.port()), new BootstrapMessage.RegionsRequest(5), Duration.ofSeconds(20)));
        }
        try (Socket s = silent) {
            s.setSoTimeout(20_000);
            try {
                assertEquals(-1, s.getInputStream().read(), "a closed server answered a peer that sent nothing");
            } catch (SocketTimeoutException e) {
                fail("the closed server kept the silent peer's connection open for its 1 h exchange deadline", e);
            } catch (SocketException reset) {
                assertTrue(reset.getMessage() != null, "cut off by a reset");
            }
        }
    }

    @Test
    void shouldStillServeAfterCuttingOffSilentPeers() throws Exception {
        try (BootstrapServer server = new BootstrapServer(loopback(0), ECHO_NODE, Duration.ofMillis(200))) {
            List<Socket> silent = new ArrayList<>();
            try {
                for (int i = 0; i < BootstrapServer.MAX_CONCURRENT_EXCHANGES + 4; i++) {
                    silent.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
                }
                assertEquals(new BootstrapMessage.RegionsReply(4, List.of()), BootstrapClient.exchange(
                        loopback(server.port()), new BootstrapMessage.RegionsRequest(4), Duration.ofSeconds(60)));
            } finally {
                for (Socket s : silent) {
                    s.close();
                }
            }
        }
    }

    /** A handler whose replies come from {@code reply} and whose reports are kept. */
    private static final class RecordingHandler implements BootstrapHandler {
        final java.util.concurrent.ConcurrentLinkedQueue<String> problems = new java.util.concurrent.ConcurrentLinkedQueue<>();
        private final java.util.function.Function<BootstrapMessage, BootstrapMessage> reply;

        RecordingHandler(java.util.function.Function<BootstrapMessage, BootstrapMessage> reply) {
            this.reply = reply;
        }

        @Override
        public BootstrapMessage handle(BootstrapMessage request) {
            return reply.apply(request);
        }

        @Override
        public void exchangeFailed(String problem, Throwable cause) {
            problems.add(problem);
        }
    }

    @Test
    void shouldAnswerTypedAndReportWhenTheHandlerGivesNoReply() throws Exception {
        RecordingHandler handler = new RecordingHandler(request -> null);
        try (BootstrapServer server = new BootstrapServer(loopback(0), handler)) {
            BootstrapProtocolException e = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThrows(
                    BootstrapProtocolException.class, () -> BootstrapClient.exchange(loopback(server.port()),
                            new BootstrapMessage.RegionsRequest(4), Duration.ofSeconds(5))),
                    "the peer is told at once, not left to its timeout");
            assertTrue(e.getMessage().contains("RegionsRequest[nodeId=4]") && e.getMessage().contains("got null"),
                    "names the request and the problem: " + e.getMessage());
            assertEquals(1, handler.problems.size(), "reported once to the server side: " + handler.problems);
            assertTrue(handler.problems.peek().contains("got null"), handler.problems.peek());
        }
    }

    @Test
    void shouldAnswerTypedAndReportWhenTheHandlerThrowsWithoutAMessage() throws Exception {
        RecordingHandler handler = new RecordingHandler(request -> {
            throw new IllegalStateException();
        });
        try (BootstrapServer server = new BootstrapServer(loopback(0), handler)) {
            BootstrapProtocolException e = assertThrows(BootstrapProtocolException.class, () -> BootstrapClient.exchange(
                    loopback(server.port()), new BootstrapMessage.RegionsRequest(5), Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("IllegalStateException"), "names the failure, not \"null\": " + e.getMessage());
            assertEquals(1, handler.problems.size(), String.valueOf(handler.problems));
        }
    }

    @Test
    void shouldReportAMalformedRequestBesidesAnsweringIt() throws Exception {
        RecordingHandler handler = new RecordingHandler(request -> fail("a malformed request reached the handler"));
        try (BootstrapServer server = new BootstrapServer(loopback(0), handler);
             Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(10_000);
            byte[] frame = BootstrapCodec.encode(new BootstrapMessage.RegionsRequest(1));
            frame[0] ^= 0x55;
            s.getOutputStream().write(frame);
            BootstrapMessage reply = BootstrapCodec.read(s.getInputStream());
            assertTrue(reply instanceof BootstrapMessage.ErrorReply r && r.message().contains("magic"), String.valueOf(reply));
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (handler.problems.isEmpty() && System.nanoTime() < end) {
                LockSupport.parkNanos(1_000_000);
            }
            assertEquals(1, handler.problems.size(), String.valueOf(handler.problems));
            assertTrue(handler.problems.peek().contains("malformed"), handler.problems.peek());
        }
    }

    @Test
    void shouldFailTypedNamingThePeerAndTheDeadlineWhenThePeerNeverAnswers() throws Exception {
        try (ServerSocket mute = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            InetSocketAddress peer = loopback(mute.getLocalPort());
            RemoteTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(8), () -> assertThrows(
                    RemoteTimeoutException.class,
                    () -> BootstrapClient.exchange(peer, new BootstrapMessage.RegionsRequest(1), Duration.ofSeconds(2))),
                    "a 2 s exchange must not wait for a socket timeout of its own");
            assertTrue(e.getMessage().contains(peer.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("PT2S"), e.getMessage());
        }
    }

    @Test
    void shouldFailTypedWhenNothingListensAtTheDeadline() {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        RemoteTimeoutException e = assertThrows(RemoteTimeoutException.class, () -> BootstrapClient.exchange(
                loopback(port), new BootstrapMessage.RegionsRequest(1), Duration.ofMillis(300)));
        assertTrue(e.getMessage().contains("PT0.3S"), e.getMessage());
    }

    @Test
    void shouldRefuseTimeoutsThatAreNotPositiveOrNull() {
        InetSocketAddress peer = loopback(1);
        BootstrapMessage request = new BootstrapMessage.RegionsRequest(1);
        for (Duration bad : List.of(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(Long.MIN_VALUE))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BootstrapClient.exchange(peer, request, bad));
            assertTrue(e.getMessage().contains("timeout"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> new BootstrapServer(loopback(0), ECHO_NODE, bad));
        }
        NullPointerException npe = assertThrows(NullPointerException.class, () -> BootstrapClient.exchange(peer, request, null));
        assertEquals("timeout", npe.getMessage());
        assertEquals("peer", assertThrows(NullPointerException.class,
                () -> BootstrapClient.exchange(null, request, Duration.ofSeconds(1))).getMessage());
        assertEquals("handler", assertThrows(NullPointerException.class,
                () -> new BootstrapServer(loopback(0), null)).getMessage());
    }

    @Test
    void shouldAcceptTheLongestTimeoutWithoutOverflowing() throws Exception {
        Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
        try (BootstrapServer server = new BootstrapServer(loopback(0), ECHO_NODE, longest)) {
            assertEquals(new BootstrapMessage.RegionsReply(2, List.of()), BootstrapClient.exchange(
                    loopback(server.port()), new BootstrapMessage.RegionsRequest(2), longest));
        }
    }
}
