package io.remus.core.shm;

import io.remus.core.testing.Fabrics;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Four JVMs started by a real {@code mpirun -np 4} on this host form one cluster on the
 * shared-memory fabric ({@link ShmClusterMain}: rank and size from Open MPI's environment, the memory
 * in a fresh directory): every rank sees the same cluster, and every node's counter ends at the sum
 * of every rank's fetch-and-adds. Skipped, with the reason, where {@code mpirun} is not installed.
 */
class ShmClusterMpirunTest {
    private static final int RANKS = 4;
    private static final Path MPIRUN = Path.of("/usr/bin/mpirun");
    private static final Pattern LINE = Pattern.compile(
            "shm-cluster rank=(\\d+) size=(\\d+) fabric=(\\w+) cluster=(\\p{XDigit}+) published=\\[([\\d,]*)] counters=([\\d,]+)");

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldCountEveryRanksFetchAndAddsWhenMpirunStartsFourProcesses() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(MPIRUN), MPIRUN + " is not installed (Open MPI)");
        Path dir = Fabrics.freshShmDirectory();
        List<String> command = new ArrayList<>(List.of(MPIRUN.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--allow-run-as-root");
        }
        command.addAll(List.of("--oversubscribe", "-np", Integer.toString(RANKS),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), ShmClusterMain.class.getName(),
                "--fabric=shm", "--shm.dir=" + dir, "--segment.count=2", "--segment.size=64K", "--buffer.size=8K",
                "--timeout.ms=30000", "--join.timeout.ms=60000"));
        Path log = Files.createTempFile("remus-shm-mpirun-", ".log");
        Process mpirun = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        boolean exited = mpirun.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            mpirun.descendants().forEach(ProcessHandle::destroyForcibly);
            mpirun.destroyForcibly();
        }
        String output = read(log);
        Files.deleteIfExists(log);
        assertTrue(exited, "mpirun ran past 120 s:\n" + output);
        assertEquals(0, mpirun.exitValue(), "mpirun's exit status:\n" + output);

        Map<Integer, MatchResult> byRank = new TreeMap<>();
        Matcher m = LINE.matcher(output);
        while (m.find()) {
            assertEquals(null, byRank.put(Integer.parseInt(m.group(1)), m.toMatchResult()),
                    "rank " + m.group(1) + " reported twice:\n" + output);
        }
        assertEquals(Set.of(0, 1, 2, 3), byRank.keySet(), "the ranks that reported:\n" + output);
        String clusterId = Files.readString(dir.resolve("cluster"), StandardCharsets.US_ASCII).strip();
        String every = "0,1,2,3";
        String counted = String.join(",", Collections.nCopies(RANKS, Long.toString((long) RANKS * ShmClusterMain.INCREMENTS)));
        for (MatchResult r : byRank.values()) {
            assertEquals(Integer.toString(RANKS), r.group(2), "size seen by rank " + r.group(1));
            assertEquals("shm", r.group(3), "fabric of rank " + r.group(1));
            assertEquals(Long.parseUnsignedLong(clusterId, 16), Long.parseUnsignedLong(r.group(4), 16),
                    "cluster id seen by rank " + r.group(1));
            assertEquals(every, r.group(5), "nodes whose memory rank " + r.group(1) + " found");
            assertEquals(counted, r.group(6), "every node's counter as rank " + r.group(1) + " read it");
        }

        try (ShmFabric after = ShmFabric.open(dir)) {
            for (int n = 0; n < RANKS; n++) {
                assertTrue(after.publishedRegions(n).isEmpty(), "node " + n + " withdrew its memory when it closed");
            }
        }
        assertTrue(ShmFabric.removeFiles(dir) > 0);
        assertFalse(Files.exists(dir), "the cluster's directory is gone");
    }

    private static String read(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }
}
