package io.remus.core.shm;

import io.remus.core.testing.Fabrics;
import io.remus.core.testing.Mpirun;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    private static final Pattern LINE = Pattern.compile(
            "shm-cluster rank=(\\d+) size=(\\d+) fabric=(\\w+) cluster=(\\p{XDigit}+) published=\\[([\\d,]*)] counters=([\\d,]+)");

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void shouldCountEveryRanksFetchAndAddsWhenMpirunStartsFourProcesses() throws Exception {
        Assumptions.assumeTrue(Mpirun.isInstalled(), Mpirun.MPIRUN + " is not installed (Open MPI)");
        Path dir = Fabrics.freshShmDirectory();
        Mpirun.Result run = Mpirun.run(RANKS, List.of("-Xshare:auto"), ShmClusterMain.class,
                List.of("--fabric=shm", "--shm.dir=" + dir, "--segment.count=2", "--segment.size=64K", "--buffer.size=8K",
                        "--timeout.ms=30000", "--join.timeout.ms=60000"), Duration.ofSeconds(120));
        String output = run.output();
        assertTrue(run.exited(), "mpirun ran past 120 s:\n" + output);
        assertEquals(0, run.exitCode(), "mpirun's exit status:\n" + output);

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

}
