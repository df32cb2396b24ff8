package io.remus.verbs;

import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.ClusterNode;
import io.remus.verbs.testing.ClusterTest;
import io.remus.verbs.testing.ClusterTests;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Connections through the RDMA connection manager: two processes in one guest, and two guests. */
class CmConnectionTest {
    private static final int PORT = 47211;
    private static final int CLUSTER_PORT = 47212;

    @Test
    void shouldRejectNonIpv4AddressBeforeNativeCode() {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            assertThrows(InvalidArgumentException.class, () -> CmIds.ipv4(arena, "example.org", 1));
            assertThrows(InvalidArgumentException.class, () -> CmIds.ipv4(arena, "10.0.0.1", 70000));
            assertThrows(NullPointerException.class, () -> CmIds.ipv4(arena, null, 1));
        }
    }

    @DeviceTest
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void shouldExchangeRegionsAndOperateWhenTwoProcessesConnect() throws InterruptedException {
        String device = DeviceTests.deviceName();
        String address = DeviceAddress.ipv4(device);
        try (ChildJvm listener = ChildJvm.start(CmPeerMain.class, "listen", device, address, Integer.toString(PORT));
             ChildJvm connector = ChildJvm.start(CmPeerMain.class, "connect", device, address, Integer.toString(PORT))) {
            ChildJvm.Result connected = connector.await(Duration.ofMinutes(10));
            ChildJvm.Result listened = listener.await(Duration.ofMinutes(1));
            assertTrue(connected.succeeded(), () -> "connector: " + connected + "\nlistener: " + listened);
            assertTrue(listened.succeeded(), () -> "listener: " + listened);
        }
    }

    @ClusterTest
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void shouldExchangeRegionsAndOperateAcrossTwoGuests() throws InterruptedException {
        String device = DeviceTests.deviceName();
        ClusterNode node = ClusterTests.node();
        if (node.isLeader()) {
            CmPeer.listen(device, node.address(), CLUSTER_PORT);
        } else if (node.index() == 1) {
            CmPeer.connect(device, node.address(0), CLUSTER_PORT);
        }
    }
}
