package io.remus.tools.cli;

import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus serve memcached}: three nodes' ports over one store, replicated (the default on 3 nodes) and
 * delegated, and its flags' checks.
 */
class ServeMemcachedCommandTest {
    private static final Pattern NODE = Pattern.compile("node (\\d+): 127\\.0\\.0\\.1:(\\d+)");

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldServeOneStoreOnEveryNodesPort() throws Exception {
        serveOneStore(List.of(), "memcached text protocol on 3 simulator nodes, 5 shards replicated on 3 nodes each");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldServeOneDelegatedStoreOnEveryNodesPortWhenAskedFor() throws Exception {
        serveOneStore(List.of("--engine", "delegated"),
                "memcached text protocol on 3 simulator nodes, 5 shards delegated to trustees");
    }

    private static void serveOneStore(List<String> engine, String firstLine) throws Exception {
        CommandLine top = Remus.commandLine(() -> 0);
        StringWriter out = new StringWriter();
        top.setOut(new PrintWriter(out, true));
        top.setErr(new PrintWriter(new StringWriter(), true));
        List<String> args = new ArrayList<>(List.of("serve", "memcached", "--port", "0", "--shards", "5", "--duration", "4"));
        args.addAll(engine);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> top.execute(args.toArray(String[]::new)));
        List<Integer> ports = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (ports.size() < 3 && System.nanoTime() - deadline < 0 && !exit.isDone()) {
            ports.clear();
            Matcher m = NODE.matcher(out.toString());
            while (m.find()) {
                ports.add(Integer.parseInt(m.group(2)));
            }
            Thread.sleep(20);
        }
        assertEquals(3, ports.size(), out.toString());
        assertTrue(out.toString().startsWith(firstLine), out.toString());
        assertEquals("STORED", exchange(ports.get(0), "set shared 3 0 5\r\nhello\r\n", 1).get(0));
        assertEquals(List.of("VALUE shared 3 5", "hello", "END"), exchange(ports.get(2), "get shared\r\n", 3));
        assertEquals(List.of("DELETED"), exchange(ports.get(1), "delete shared\r\n", 1));
        assertEquals(0, exit.get(60, TimeUnit.SECONDS));
    }

    private static List<String> exchange(int port, String request, int lines) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            OutputStream o = s.getOutputStream();
            o.write(request.getBytes(StandardCharsets.US_ASCII));
            o.flush();
            BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            List<String> got = new ArrayList<>();
            for (int i = 0; i < lines; i++) {
                got.add(r.readLine());
            }
            return got;
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldFailNamingAPortThatIsTaken() throws Exception {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            RemusRun run = RemusRun.of("serve", "memcached", "--nodes", "1", "--port", Integer.toString(taken.getLocalPort()),
                    "--duration", "0");
            assertEquals(1, run.exit());
            assertTrue(run.err().startsWith("remus: cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": "), run.err());
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldNameTheMissingRankWhenOneProcessPerNodeWaitsInVain() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("remus-memcached-alone-");
        try {
            RemusRun run = RemusRun.of("serve", "memcached", "--fabric", "shm", "--shm.dir=" + dir, "--node-id=0",
                    "--node.count=2", "--port", "0", "--join-timeout", "1");
            assertEquals(1, run.exit(), run.err());
            assertTrue(run.err().contains("node(s) [1] of 2"), run.err());
        } finally {
            io.remus.core.shm.ShmFabric.removeFiles(dir);
            java.nio.file.Files.deleteIfExists(dir);
        }
    }

    @Test
    void shouldRefuseAProcessPerNodeFabricInOneJvm() {
        RemusRun shm = RemusRun.of("serve", "memcached", "--no-cluster", "--fabric", "shm");
        assertEquals(2, shm.exit());
        assertTrue(shm.err().contains("serve memcached in one JVM runs on the simulator only"), shm.err());
        RemusRun joinArg = RemusRun.of("serve", "memcached", "--no-cluster", "--node-id=1");
        assertEquals(2, joinArg.exit());
        assertTrue(joinArg.err().contains("--node-id=1"), joinArg.err());
    }

    @Test
    void shouldRefuseBadFlagsNamingThem() {
        RemusRun nodes = RemusRun.of("serve", "memcached", "--nodes", "0");
        assertEquals(2, nodes.exit());
        assertTrue(nodes.err().contains("--nodes must be in 1..64, got 0"), nodes.err());
        RemusRun shards = RemusRun.of("serve", "memcached", "--shards", "2000");
        assertEquals(2, shards.exit());
        assertTrue(shards.err().contains("--shards must be in 1..1024, got 2000"), shards.err());
        RemusRun port = RemusRun.of("serve", "memcached", "--port", "65535");
        assertEquals(2, port.exit());
        assertTrue(port.err().contains("--port must leave room for 3 ports"), port.err());
        RemusRun twoNodes = RemusRun.of("serve", "memcached", "--nodes", "2", "--engine", "replicated");
        assertEquals(2, twoNodes.exit());
        assertTrue(twoNodes.err().contains("--engine replicated needs at least 3 nodes"), twoNodes.err());
        assertTrue(twoNodes.err().contains("got 2"), twoNodes.err());
        RemusRun unknown = RemusRun.of("serve", "memcached", "--engine", "paxos");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("--engine must be replicated or delegated, got paxos"), unknown.err());
        RemusRun planes = RemusRun.of("serve", "memcached", "--shards", "16");
        assertEquals(2, planes.exit());
        assertTrue(planes.err().contains("--shards must be in 1..15 with the replicated engine"), planes.err());
        RemusRun bare = RemusRun.of("serve");
        assertEquals(2, bare.exit());
        assertTrue(bare.err().contains("remus serve memcached"), bare.err());
    }
}
