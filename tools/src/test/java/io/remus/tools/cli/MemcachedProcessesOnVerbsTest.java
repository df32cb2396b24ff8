package io.remus.tools.cli;

import io.remus.tools.Remus;
import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code remus serve memcached --engine delegated} as three processes of one cluster on rxe (the device
 * {@code REMUS_TEST_DEVICE} names; {@link MemcachedReplicatedProcessesOnVerbsTest} runs the replicated default),
 * each one node ({@code --node-id=i --node.count=3}, addresses through a rendezvous directory) serving
 * its own port: a client sets through one node's port and reads through the others', {@code gets}/{@code cas}
 * and {@code incr} go through different ports, every key of a batch written round the ports is read back through
 * every port, and Debian's {@code memccapable -a} passes against node 1's port; then each process gets
 * {@code SIGTERM} and must close its server, its store and its membership ({@code node i: stopped}) and exit by
 * the signal (143), with no exception in its output.
 */
// Slow: in a TCG guest three JVMs that join over rxe and start their stores take minutes; CI runs
// MemcachedProcessesOnShmTest; SOFTROCE_WITH_SLOW=1 softroce/run-tests runs this class too.
@Tag(DeviceTests.SLOW_TAG)
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class MemcachedProcessesOnVerbsTest {
    static final int NODES = 3;
    /** memccapable 1.1.4's ASCII tests, as in remus-memcached's MemccapableTest. */
    private static final int ASCII_TESTS = 27;
    private static final int KEYS = 30;

    /**
     * @param dir a fresh directory of the test's
     * @return the arguments that put every process on the fabric under test, the same for each
     */
    List<String> fabricArgs(Path dir) throws IOException {
        int portBase = 20000 + ThreadLocalRandom.current().nextInt(20000);
        return List.of("--fabric", "verbs", "-d", DeviceTests.deviceName(), "--rendezvous=" + dir.resolve("rendezvous"),
                "--port.base=" + portBase);
    }

    /** @return the arguments that choose the store's engine, the same for each process */
    List<String> engineArgs() {
        return List.of("--engine", "delegated");
    }

    /** @return what each process's first line says of how the shards are kept */
    String engineLine() {
        return "shards delegated to trustees";
    }

    /** @return how long the processes may take to join and serve */
    Duration startBound() {
        return Duration.ofMinutes(8);
    }

    /** Removes what the fabric left beside {@code dir}. */
    void cleanUp(Path dir) throws IOException {
    }

    @DeviceTest
    void shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm() throws Exception {
        Path dir = Files.createTempDirectory("remus-memcached-procs-");
        Files.createDirectories(dir.resolve("rendezvous"));
        List<ChildJvm> children = new ArrayList<>();
        try {
            int port = freePorts(NODES);
            List<String> fabric = fabricArgs(dir);
            long joinSeconds = startBound().toSeconds();
            for (int i = 0; i < NODES; i++) {
                List<String> args = new ArrayList<>(List.of("serve", "memcached", "--port", Integer.toString(port),
                        "--shards", "6", "--join-timeout", Long.toString(joinSeconds), "--node-id=" + i,
                        "--node.count=" + NODES, "--shutdown.timeout.ms=60000"));
                args.addAll(fabric);
                args.addAll(engineArgs());
                children.add(ChildJvm.start(Remus.class, args.toArray(String[]::new)));
            }
            awaitPorts(children, port, startBound());
            checkOneStore(port);
            memccapable(port + 1);
            for (ChildJvm child : children) {
                ProcessHandle.of(child.pid()).ifPresent(ProcessHandle::destroy);
            }
            for (int i = 0; i < NODES; i++) {
                ChildJvm.Result r = children.get(i).await(Duration.ofMinutes(2));
                System.out.println("node " + i + " (" + children.get(i) + "):\n" + r.output());
                assertFalse(r.timedOut(), "node " + i + " did not stop on SIGTERM:\n" + r.output());
                assertEquals(143, r.exitCode(), "node " + i + " exits by SIGTERM after its shutdown hook:\n" + r.output());
                assertTrue(r.output().contains("node " + i + ": stopped"), "node " + i + " closed everything:\n" + r.output());
                assertFalse(r.output().contains("Exception"), "node " + i + ":\n" + r.output());
                assertTrue(r.output().contains(engineLine()), "node " + i + ":\n" + r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
            cleanUp(dir);
            try (var paths = Files.walk(dir)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Sets and reads across ports, cas and incr across ports, and a batch of keys read back through every port. */
    private static void checkOneStore(int port) throws IOException {
        try (TextLines n0 = new TextLines(port); TextLines n1 = new TextLines(port + 1); TextLines n2 = new TextLines(port + 2)) {
            List<TextLines> all = List.of(n0, n1, n2);
            assertEquals(List.of("STORED"), n0.send("set shared 7 0 5\r\nhello\r\n", 1));
            assertEquals(List.of("VALUE shared 7 5", "hello", "END"), n1.send("get shared\r\n", 3));
            assertEquals(List.of("VALUE shared 7 5", "hello", "END"), n2.send("get shared\r\n", 3));
            List<String> gets = n1.send("gets shared\r\n", 3);
            String[] header = gets.getFirst().split(" ");
            assertEquals(5, header.length, gets.toString());
            long unique = Long.parseLong(header[4]);
            assertEquals(List.of("STORED"), n2.send("cas shared 0 0 5 " + unique + "\r\nworld\r\n", 1));
            assertEquals(List.of("EXISTS"), n0.send("cas shared 0 0 5 " + unique + "\r\nagain\r\n", 1),
                    "a cas with a stale unique through another port");
            assertEquals(List.of("VALUE shared 0 5", "world", "END"), n0.send("get shared\r\n", 3));
            assertEquals(List.of("STORED"), n0.send("set counter 0 0 1\r\n0\r\n", 1));
            assertEquals(List.of("5"), n1.send("incr counter 5\r\n", 1));
            assertEquals(List.of("12"), n2.send("incr counter 7\r\n", 1));
            assertEquals(List.of("10"), n0.send("decr counter 2\r\n", 1));
            for (int k = 0; k < KEYS; k++) {
                String v = "value-" + k;
                assertEquals(List.of("STORED"), all.get(k % NODES).send("set key" + k + " " + k + " 0 " + v.length() + "\r\n"
                        + v + "\r\n", 1));
            }
            for (TextLines node : all) {
                for (int k = 0; k < KEYS; k++) {
                    String v = "value-" + k;
                    assertEquals(List.of("VALUE key" + k + " " + k + " " + v.length(), v, "END"),
                            node.send("get key" + k + "\r\n", 3), "key" + k + " through port " + node.port);
                }
            }
            assertEquals(List.of("DELETED"), n2.send("delete shared\r\n", 1));
            assertEquals(List.of("END"), n1.send("get shared\r\n", 1));
        }
    }

    private static void memccapable(int port) throws Exception {
        String tool = null;
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (new File(d, "memccapable").canExecute()) {
                tool = new File(d, "memccapable").getPath();
                break;
            }
        }
        if (tool == null) {
            fail("memccapable is not on PATH: install libmemcached-tools (bin/install-deps installs it with memcached)");
        }
        Process p = new ProcessBuilder(tool, "-a", "-v", "-t", "10", "-h", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "memccapable did not finish");
        assertEquals(0, count(output, "[FAIL]"), output);
        assertEquals(ASCII_TESTS, count(output, "[pass]"), output);
        assertTrue(output.contains("All tests passed"), output);
        assertEquals(0, p.exitValue(), output);
    }

    private static int count(String text, String word) {
        int n = 0;
        for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length())) {
            n++;
        }
        return n;
    }

    /** @return the first of {@code n} consecutive ports that are free on 127.0.0.1 now */
    private static int freePorts(int n) throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int base = 30000 + ThreadLocalRandom.current().nextInt(20000);
            List<ServerSocket> held = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    held.add(new ServerSocket(base + i, 1, InetAddress.getByName("127.0.0.1")));
                }
                return base;
            } catch (IOException taken) {
                // another base
            } finally {
                for (ServerSocket s : held) {
                    s.close();
                }
            }
        }
        throw new IOException("no " + n + " consecutive free ports found");
    }

    /** Waits until every node's port accepts, failing with a child's output when it exited first. */
    private static void awaitPorts(List<ChildJvm> children, int port, Duration bound) throws Exception {
        long deadline = System.nanoTime() + bound.toNanos();
        for (int i = 0; i < children.size(); i++) {
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port + i), 1000);
                    break;
                } catch (IOException notYet) {
                    ChildJvm child = children.get(i);
                    if (ProcessHandle.of(child.pid()).map(h -> !h.isAlive()).orElse(true)) {
                        fail("node " + i + " exited before serving:\n" + child.await(Duration.ofSeconds(10)).output());
                    }
                    if (System.nanoTime() - deadline > 0) {
                        children.forEach(c -> ProcessHandle.of(c.pid()).ifPresent(ProcessHandle::destroy));
                        StringBuilder outputs = new StringBuilder();
                        for (ChildJvm c : children) {
                            outputs.append(c).append(":\n").append(c.await(Duration.ofSeconds(60)).output()).append('\n');
                        }
                        fail("node " + i + "'s port " + (port + i) + " did not open within " + bound + ":\n" + outputs);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    /** One connection's lines. */
    private static final class TextLines implements AutoCloseable {
        final int port;
        private final Socket socket;
        private final OutputStream out;
        private final BufferedReader in;

        TextLines(int port) throws IOException {
            this.port = port;
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
        }

        List<String> send(String request, int lines) throws IOException {
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            List<String> got = new ArrayList<>();
            for (int i = 0; i < lines; i++) {
                got.add(in.readLine());
            }
            return got;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
