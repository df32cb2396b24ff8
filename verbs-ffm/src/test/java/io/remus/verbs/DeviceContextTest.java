package io.remus.verbs;

import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Device enumeration, queries, registration and lifetimes. */
class DeviceContextTest {

    @Test
    void shouldListWithoutFailingWhenHostHasNoRdmaStack() {
        List<DeviceInfo> devices = Device.list();
        assertTrue(devices.stream().allMatch(d -> !d.name().isEmpty()));
    }

    @Test
    void shouldNameAvailableDevicesWhenOpeningUnknownDevice() {
        DeviceNotFoundException e = assertThrows(DeviceNotFoundException.class, () -> Context.open("no-such-device0"));
        assertTrue(e.getMessage().contains("no-such-device0"), e::getMessage);
    }

    @DeviceTest
    void shouldEnumerateAndQueryTheDevice() {
        String name = DeviceTests.deviceName();
        assertTrue(Device.list().stream().anyMatch(d -> d.name().equals(name) && d.isChannelAdapter()));
        try (Context context = Context.open(name)) {
            DeviceAttributes device = context.queryDevice();
            assertTrue(device.physicalPortCount() >= 1);
            assertTrue(device.maxQueuePairs() > 0 && device.maxCompletionQueueEntries() > 0);
            assertTrue(device.supportsAtomics());
            PortAttributes port = context.queryPort(1);
            assertTrue(port.isActive());
            assertTrue(port.gidTableLength() > 1);
            if (name.startsWith("rxe")) {
                assertTrue(port.isEthernet());
                assertEquals(Mtu.MTU_1024, port.activeMtu());
                assertTrue(context.queryGid(1, 1).isIpv4Mapped(), () -> context.queryGid(1, 1).toString());
            }
            assertThrows(InvalidArgumentException.class, () -> context.queryPort(0));
            assertThrows(InvalidArgumentException.class, () -> context.queryPort(device.physicalPortCount() + 1));
            assertThrows(InvalidArgumentException.class, () -> context.queryGid(1, port.gidTableLength()));
        }
    }

    @DeviceTest
    void shouldConnectThroughAnIpv4RoceV2GidWhenNoneIsAsked() {
        try (Context context = Context.open(DeviceTests.deviceName());
             ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(4);
             PreparedQueuePair qp = pd.queuePair().completionQueue(cq).build()) {
            Assumptions.assumeTrue(context.queryPort(1).isEthernet(), "RoCE only");
            Gid gid = qp.localEndpoint().gid();
            assertTrue(gid.isIpv4Mapped(), gid::toString);
            int index = 0;
            while (!context.queryGid(1, index).equals(gid)) {
                index++;
            }
            assertEquals("RoCE v2", context.gidType(1, index), "GID " + index + " " + gid);
        }
    }

    @DeviceTest
    void shouldRegisterMemoryAndRefuseParentCloseWhileChildrenLive() {
        try (Context context = Context.open(DeviceTests.deviceName());
             Arena arena = Arena.ofConfined()) {
            ProtectionDomain pd = context.allocateProtectionDomain();
            MemorySegment memory = arena.allocate(8192, 4096);
            MemoryRegion mr = pd.registerMemory(memory, Access.all());
            assertEquals(memory.address(), mr.address());
            assertEquals(8192, mr.length());
            assertNotEquals(0, mr.remoteKey());
            assertEquals(new RemoteRegion(memory.address(), mr.remoteKey(), 8192), mr.toRemoteRegion());
            assertThrows(ResourceBusyException.class, pd::close);
            assertThrows(ResourceBusyException.class, context::close);
            mr.close();
            mr.close();
            assertTrue(mr.isClosed());
            assertThrows(ClosedResourceException.class, mr::handle);
            pd.close();
            pd.close();
            assertThrows(ClosedResourceException.class, () -> pd.registerMemory(memory, Access.LOCAL_WRITE));
            assertFalse(context.isClosed());
        }
    }

    @DeviceTest
    void shouldRefuseClosingCompletionQueueWhileQueuePairUsesIt() {
        try (Context context = Context.open(DeviceTests.deviceName());
             ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(16)) {
            PreparedQueuePair prepared = pd.queuePair().completionQueue(cq).build();
            assertThrows(ResourceBusyException.class, cq::close);
            assertThrows(ResourceBusyException.class, pd::close);
            ConnectedQueuePair qp = prepared.connectToSelf();
            assertThrows(VerbsException.class, prepared::connectToSelf);
            prepared.close();
            assertFalse(qp.isClosed());
            qp.close();
            qp.close();
            assertTrue(qp.isClosed());
        }
    }

    @DeviceTest
    void shouldSignalCompletionChannelWhenArmedQueueCompletes() {
        try (Context context = Context.open(DeviceTests.deviceName());
             CompletionChannel channel = context.createCompletionChannel();
             ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(16, channel);
             Arena arena = Arena.ofShared();
             WorkCompletions wc = new WorkCompletions(4)) {
            assertTrue(channel.await(Duration.ofMillis(50)).isEmpty());
            MemoryRegion mr = pd.registerMemory(arena.allocate(64, 8), Access.all());
            try (ConnectedQueuePair qp = pd.queuePair().completionQueue(cq).build().connectToSelf()) {
                cq.requestNotify(false);
                qp.sendBatch(1).write(1, mr, 0, 8, mr.address() + 8, mr.remoteKey(), true).post();
                assertEquals(cq, channel.await(Duration.ofSeconds(30)).orElseThrow());
                assertEquals(1, cq.poll(wc));
                assertTrue(wc.isSuccess(0));
            } finally {
                mr.close();
            }
        }
    }
}
