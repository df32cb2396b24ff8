package io.remus.tools.bench.verbs;

import io.remus.tools.Remus;
import io.remus.verbs.Context;
import io.remus.verbs.Gid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * read-lat, write-lat, atomic-lat and read-bw through the verbs transport on a real device: server
 * and client as two command runs in this JVM (each with its own context, QPs and buffer), the
 * client's JSON report checked for the iterations asked.
 */
@Tag("device")
@EnabledIfEnvironmentVariable(named = "REMUS_TEST_DEVICE", matches = ".+",
        disabledReason = "no RDMA device: set REMUS_TEST_DEVICE=<name>, see softroce/README.md")
class VerbsBenchDeviceTest {
    private static final String DEVICE = System.getenv("REMUS_TEST_DEVICE");

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String[] run(String address, String... args) throws Exception {
        int port = freePort();
        List<String> common = new ArrayList<>(List.of(args));
        common.addAll(List.of("--fabric", "verbs", "-d", DEVICE, "-p", Integer.toString(port), "--timeout", "60"));
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
        server.join(120_000);
        assertEquals(0, exit, "client: " + err + "\nserver: " + serverErr);
        assertEquals(0, serverExit.get(), "server: " + serverErr);
        return new String[] {out.toString(), serverErr.toString()};
    }

    private static String rdmaCmAddress() {
        try (Context context = Context.open(DEVICE)) {
            for (int i = 0; i < context.queryPort(1).gidTableLength(); i++) {
                Gid gid = context.queryGid(1, i);
                if (gid.isIpv4Mapped()) {
                    long a = gid.low();
                    return ((a >>> 24) & 0xff) + "." + ((a >>> 16) & 0xff) + "." + ((a >>> 8) & 0xff) + "." + (a & 0xff);
                }
            }
        }
        throw new IllegalStateException(DEVICE + " has no IPv4 GID");
    }

    @Test
    void shouldMeasureReadLatencyWhenClientAndServerConnectByTcp() throws Exception {
        String[] r = run("127.0.0.1", "bench", "read-lat", "-n", "300", "-s", "64");
        assertTrue(r[0].contains("\"iterations\":300") || r[0].contains("\"iterations\": 300"), r[0]);
        assertTrue(r[1].contains("the client ran 1 size(s)"), r[1]);
    }

    @Test
    void shouldPingPongWriteLatencyWhenClientAndServerConnectByTcp() throws Exception {
        String[] r = run("127.0.0.1", "bench", "write-lat", "-n", "300", "-I", "32", "-s", "8");
        assertTrue(r[0].contains("300"), r[0]);
        assertTrue(r[1].contains("the client ran 1 size(s)"), r[1]);
    }

    @Test
    void shouldRunEverySizeOfWriteLatencyWhenAllSizesAreAskedUpTo() throws Exception {
        String[] r = run("127.0.0.1", "bench", "write-lat", "-n", "10", "--warmup", "2", "-a");
        assertTrue(r[1].contains("the client ran 23 size(s)"), r[1]);
    }

    @Test
    void shouldMeasureAtomicLatencyWhenConnectedByRdmaCm() throws Exception {
        String[] r = run(rdmaCmAddress(), "bench", "atomic-lat", "-n", "200", "-R", "-A", "CMP_AND_SWAP");
        assertTrue(r[1].contains("rdma_cm"), r[1]);
    }

    @Test
    void shouldMeasureReadBandwidthWhenSeveralQueuePairsAreAsked() throws Exception {
        String[] r = run("127.0.0.1", "bench", "read-bw", "-n", "300", "-q", "2", "-s", "4096");
        assertTrue(r[0].contains("4096"), r[0]);
    }
}
