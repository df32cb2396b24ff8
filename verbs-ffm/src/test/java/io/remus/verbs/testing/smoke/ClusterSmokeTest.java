package io.remus.verbs.testing.smoke;

import io.remus.verbs.testing.ClusterNode;
import io.remus.verbs.testing.ClusterTest;
import io.remus.verbs.testing.ClusterTests;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every guest of a cluster sees its device and owns its address, and the guests reach each
 * other over TCP: node 0 listens, every other node connects (retrying while node 0 boots) and
 * the two exchange their indices.
 */
class ClusterSmokeTest {
    private static final int PORT = 47101;
    private static final Duration DEADLINE = Duration.ofMinutes(10);
    private static final int IO_TIMEOUT_MS = 120_000;

    @ClusterTest
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void shouldExchangeNodeIndicesOverTcpWhenEveryGuestIsUp() throws IOException, InterruptedException {
        DeviceTests.deviceName();
        ClusterNode node = ClusterTests.node();
        assertTrue(ownsAddress(node.address()), () -> "no local interface has " + node.address());
        Instant deadline = Instant.now().plus(DEADLINE);
        if (node.isLeader()) {
            assertEquals(expectedPeers(node), acceptPeers(node, deadline));
        } else {
            assertEquals(0, connectToLeader(node, deadline));
        }
    }

    private static Set<Integer> acceptPeers(ClusterNode node, Instant deadline) throws IOException {
        Set<Integer> seen = new HashSet<>();
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(InetAddress.getByName(node.address()), PORT));
            while (seen.size() < node.size() - 1) {
                server.setSoTimeout((int) Math.max(1, Duration.between(Instant.now(), deadline).toMillis()));
                try (Socket peer = server.accept()) {
                    peer.setSoTimeout(IO_TIMEOUT_MS);
                    int index = new DataInputStream(peer.getInputStream()).readInt();
                    new DataOutputStream(peer.getOutputStream()).writeInt(node.index());
                    seen.add(index);
                }
            }
        }
        return seen;
    }

    private static int connectToLeader(ClusterNode node, Instant deadline) throws IOException, InterruptedException {
        InetSocketAddress leader = new InetSocketAddress(InetAddress.getByName(node.address(0)), PORT);
        while (true) {
            try (Socket socket = new Socket()) {
                socket.connect(leader, IO_TIMEOUT_MS);
                socket.setSoTimeout(IO_TIMEOUT_MS);
                new DataOutputStream(socket.getOutputStream()).writeInt(node.index());
                return new DataInputStream(socket.getInputStream()).readInt();
            } catch (IOException e) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IOException("node 0 at " + leader + " unreachable until the deadline", e);
                }
                Thread.sleep(1000);
            }
        }
    }

    private static Set<Integer> expectedPeers(ClusterNode node) {
        Set<Integer> peers = new HashSet<>();
        for (int i = 1; i < node.size(); i++) {
            peers.add(i);
        }
        return peers;
    }

    private static boolean ownsAddress(String address) throws IOException {
        InetAddress wanted = InetAddress.getByName(address);
        return NetworkInterface.networkInterfaces()
                .flatMap(NetworkInterface::inetAddresses)
                .anyMatch(wanted::equals);
    }
}
