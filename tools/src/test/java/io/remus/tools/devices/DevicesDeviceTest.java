package io.remus.tools.devices;

import io.remus.tools.Remus;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code remus devices} on a real device: it lists the device with an active port and its GIDs. */
class DevicesDeviceTest {
    @DeviceTest
    void shouldListTheDeviceWithPortStateAndGidsWhenOneExists() {
        String device = DeviceTests.deviceName();
        CommandLine cmd = Remus.commandLine(() -> 1);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        assertEquals(0, cmd.execute("devices", "-d", device), err.toString());
        String text = out.toString();
        assertTrue(text.startsWith(device), text);
        assertTrue(text.contains("port 1"), text);
        assertTrue(text.contains("GID["), text);
        assertTrue(text.contains("atomics"), text);
        assertTrue(java.util.regex.Pattern.compile("vendor 0x[0-9a-f]+ part \\d+").matcher(text).find(), text);
    }
}
