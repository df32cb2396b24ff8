package io.remus.tools.cli;

import io.remus.core.shm.ShmFabric;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --fabric shm}: {@code remus bench lock} as two processes of one cluster on the shared-memory
 * fabric (two commands in one JVM, each with an Open MPI rank in its environment and its own
 * {@link ShmFabric} on one directory), and the usage error for shared memory in one JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShmFabricCommandTest {
    private static LauncherRanks.Run run(Map<String, String> env, String... args) {
        CommandLine cmd = new CommandLine(new LockBenchCommand(ToolRun.NO_DEVICE, env, b -> b));
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new LauncherRanks.Run(exit, out.toString(), err.toString());
    }

    @Test
    void shouldRunOneProcessPerNodeOnSharedMemoryWhenFabricIsShm() throws Exception {
        Path dir = Files.createTempDirectory("remus-shm-tool-");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<LauncherRanks.Run>> futures = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(i), "OMPI_COMM_WORLD_SIZE", "2");
                futures.add(pool.submit(() -> run(env, "--fabric", "shm", "--shm.dir=" + dir, "--json", "--lock", "alock",
                        "--keys", "9", "-D", "0.2", "--warmup", "0", "--threads", "1", "--join-timeout", "30")));
            }
            List<LauncherRanks.Run> runs = new ArrayList<>();
            for (Future<LauncherRanks.Run> f : futures) {
                runs.add(f.get(100, TimeUnit.SECONDS));
            }
            for (LauncherRanks.Run r : runs) {
                assertEquals(0, r.exit(), r.err());
            }
            String json = runs.get(0).out().strip();
            assertFalse(json.isBlank(), "node 0 prints the report");
            assertTrue(json.contains("one process per node: 2 nodes"), json);
            assertTrue(json.contains("fabric shm (RemusCluster.join)"), json);
            assertTrue(LauncherRanks.numbers(json, "operations").getFirst() > 0, json);
        } finally {
            pool.shutdownNow();
            ShmFabric.removeFiles(dir);
        }
    }

    @Test
    void shouldExitWithUsageWhenShmIsAskedForEveryNodeInOneJvm() throws IOException {
        LauncherRanks.Run r = run(Map.of(), "--fabric", "shm", "-D", "0.1");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--fabric shm runs one process per node"), r.err());
    }
}
