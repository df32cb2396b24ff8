package io.remus.tools.devices;

import io.remus.bench.devices.DeviceReport;
import io.remus.bench.devices.PortReport;
import io.remus.bench.devices.GidEntry;
import io.remus.verbs.DeviceAttributes;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.Gid;
import io.remus.verbs.Mtu;
import io.remus.verbs.PortAttributes;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeviceFormatTest {
    private static String format(List<DeviceReport> reports) {
        StringWriter text = new StringWriter();
        DeviceFormat.write(reports, new PrintWriter(text));
        return text.toString();
    }

    @Test
    void shouldPrintNoRdmaDevicesWhenTheListIsEmpty() {
        assertEquals("no RDMA devices", format(List.of()).strip());
    }

    @Test
    void shouldShowPortStateMtuGidsAtomicsAndInlineWhenADeviceIsListed() {
        DeviceAttributes attributes = new DeviceAttributes("", 0x1234, 1L << 40, 1024, 16384, 32, 1024, 65536, 1024,
                1024, 128, 128, 1, 0, 0, 0, 1, 0xffffff, 0);
        PortAttributes port = new PortAttributes(1, 4, Mtu.MTU_4096, Mtu.MTU_1024, 1024, 0, 1L << 31, 2);
        Gid v4 = Gid.of(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 198, 18, 0, 1});
        DeviceReport report = new DeviceReport(new DeviceInfo("rxe0", 0x1234, 1, 0), attributes,
                List.of(new PortReport(port, List.of(new GidEntry(1, v4, "RoCE v2")))), 256);
        String text = format(List.of(report));
        assertTrue(text.startsWith("rxe0"), text);
        assertTrue(text.contains("vendor 0xffffff part 0"), text);
        assertTrue(text.contains("PORT_ACTIVE"), text);
        assertTrue(text.contains("MTU 1024 (max 4096)"), text);
        assertTrue(text.contains("GID[1] 0000:0000:0000:0000:0000:ffff:c612:0001  RoCE v2"), text);
        assertTrue(text.contains("ATOMIC_HCA"), text);
        assertTrue(text.contains("max inline 256 B"), text);
        assertTrue(text.contains("Ethernet (RoCE)"), text);
    }
}
