package io.remus.tools.cli;

import io.remus.tools.Remus;
import io.remus.verbs.testing.DeviceTests;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs one {@code remus bench} test on the verbs transport as perftest's two sides: the server
 * (no address) on a thread of this JVM and the client with {@code --json}, each a command run with
 * its own context, QPs and buffer, on the device under test ({@link DeviceTests#deviceName()}).
 */
final class BenchCommandPair {
    private BenchCommandPair() {
    }

    /**
     * Runs the server and then the client, and asserts that both exit with 0.
     *
     * @param address the address the client connects to
     * @param args    the command and flags both sides get (the device, a free port and a timeout
     *                are added)
     * @return the client's standard output (its JSON report) and the server's standard error (its
     *         progress lines)
     */
    static String[] run(String address, String... args) throws Exception {
        List<String> common = new ArrayList<>(List.of(args));
        common.addAll(List.of("--fabric", "verbs", "-d", DeviceTests.deviceName(), "-p", Integer.toString(freePort()), "--timeout", "60"));
        StringWriter serverErr = new StringWriter();
        AtomicInteger serverExit = new AtomicInteger(-1);
        Thread server = Thread.ofPlatform().start(() -> {
            CommandLine cmd = Remus.commandLine(() -> 1);
            cmd.setErr(new PrintWriter(serverErr, true));
            cmd.setOut(new PrintWriter(new StringWriter(), true));
            serverExit.set(cmd.execute(common.toArray(String[]::new)));
        });
        List<String> client = new ArrayList<>(common);
        client.add(address);
        client.add("--json");
        CommandLine cmd = Remus.commandLine(() -> 1);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(client.toArray(String[]::new));
        server.join(180_000);
        assertEquals(0, exit, "client: " + err + "\nserver: " + serverErr);
        assertEquals(0, serverExit.get(), "server: " + serverErr);
        return new String[] {out.toString(), serverErr.toString()};
    }

    /** @return a TCP port that was free a moment ago */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
