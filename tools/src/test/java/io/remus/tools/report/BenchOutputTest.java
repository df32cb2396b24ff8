package io.remus.tools.report;

import io.remus.bench.report.JsonText;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchOutputTest {
    private static final List<String> LATENCY_KEYS = List.of("bytes", "iterations", "min", "max", "median", "mean",
            "stddev", "p90", "p99", "p99_9", "p99_99");

    @Test
    void shouldPrintStatisticsTableWhenReadLatencyRunsOnSim() {
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "1000", "--no-progress");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains("round trip"), run.out());
        assertTrue(run.out().contains("no separate server process"), run.out());
        String row = run.out().lines().filter(l -> l.trim().startsWith("2 ")).findFirst().orElseThrow();
        String[] cols = row.trim().split("\\s+");
        assertEquals(11, cols.length, row);
        assertEquals("1000", cols[1]);
        double min = Double.parseDouble(cols[2]);
        double median = Double.parseDouble(cols[3]);
        double max = Double.parseDouble(cols[10]);
        assertTrue(min > 0 && min <= median && median <= max, row);
    }

    @Test
    void shouldPrintPerftestColumnsWhenPerftestFormatIsAsked() {
        RemusRun run = RemusRun.of("bench", "write-lat", "--fabric", "sim", "-n", "300", "--perftest-format");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]"), run.out());
        assertTrue(run.out().contains("half of a ping-pong round trip"), run.out());
        String row = run.out().lines().filter(l -> l.startsWith(" 2 ")).findFirst().orElseThrow();
        assertEquals(9, row.trim().split("\\s+").length, row);
    }

    @Test
    void shouldPrintPerftestBandwidthColumnsWhenGbitsAreAsked() {
        RemusRun run = RemusRun.of("bench", "read-bw", "--fabric", "sim", "-n", "500", "-s", "1024",
                "--perftest-format", "--report-gbits");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.out().contains(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"),
                run.out());
        String row = run.out().lines().filter(l -> l.startsWith(" 1024 ")).findFirst().orElseThrow();
        String[] cols = row.trim().split("\\s+");
        assertEquals("500", cols[1]);
        assertTrue(Double.parseDouble(cols[4]) > 0, row);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldPrintParsableJsonWithClaimedKeysWhenJsonIsAsked() {
        RemusRun run = RemusRun.of("bench", "atomic-lat", "--fabric", "sim", "-n", "200", "-A", "CMP_AND_SWAP", "--json");
        assertEquals(0, run.exit(), run.err());
        Map<String, Object> top = (Map<String, Object>) Json.parse(run.out());
        assertEquals("atomic-lat", top.get("test"));
        assertEquals("sim", top.get("fabric"));
        assertEquals("round_trip", top.get("latency_kind"));
        assertEquals("usec", top.get("unit"));
        assertEquals(200.0, top.get("iterations"));
        assertNull(top.get("duration_seconds"));
        assertInstanceOf(List.class, top.get("notes"));
        List<Object> results = (List<Object>) top.get("results");
        assertEquals(1, results.size());
        Map<String, Object> r = (Map<String, Object>) results.getFirst();
        assertEquals(LATENCY_KEYS, List.copyOf(r.keySet()));
        assertEquals(8.0, r.get("bytes"));
        assertEquals(200.0, r.get("iterations"));
        assertTrue((Double) r.get("min") <= (Double) r.get("median"));
        assertTrue((Double) r.get("median") <= (Double) r.get("max"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldPrintBandwidthJsonWhenBandwidthRunsWithJson() {
        RemusRun run = RemusRun.of("bench", "atomic-bw", "--fabric", "sim", "-n", "300", "-q", "2", "--json");
        assertEquals(0, run.exit(), run.err());
        Map<String, Object> top = (Map<String, Object>) Json.parse(run.out());
        assertEquals("MB/sec", top.get("unit"));
        Map<String, Object> r = (Map<String, Object>) ((List<Object>) top.get("results")).getFirst();
        assertEquals(List.of("bytes", "iterations", "seconds", "bw_peak", "bw_average", "msg_rate_mpps"),
                List.copyOf(r.keySet()));
        assertEquals(600.0, r.get("iterations"), "-n is per QP, as in perftest");
        assertEquals(100.0, top.get("cq_moderation"));
    }

    @Test
    void shouldEscapeStringsWhenTheyHoldQuotesAndControls() {
        assertEquals("a \"b\" \\ \n", Json.parse(JsonText.str("a \"b\" \\ \n")));
    }

    @Test
    void shouldWriteHgrmAndIntervalLogWhenAsked(@TempDir Path dir) throws IOException {
        Path hgrm = dir.resolve("lat.hgrm");
        Path log = dir.resolve("lat.hlog");
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-n", "500", "--hgrm", hgrm.toString(),
                "--interval-log", log.toString());
        assertEquals(0, run.exit(), run.err());
        String text = Files.readString(hgrm);
        assertTrue(text.contains("Value     Percentile TotalCount 1/(1-Percentile)"), text);
        assertTrue(text.contains("Total count    =          500]"), text);
        String logText = Files.readString(log);
        assertTrue(logText.contains("#[StartTime:"), logText);
        assertTrue(logText.lines().anyMatch(l -> !l.startsWith("#") && !l.startsWith("\"") && l.contains(",")), logText);
    }

    @Test
    void shouldWriteOneHgrmPerSizeWhenSeveralSizesRun(@TempDir Path dir) throws IOException {
        Path hgrm = dir.resolve("lat.hgrm");
        assertEquals(dir.resolve("lat-64.hgrm"), HgrmFiles.perSize(hgrm, 64));
        assertEquals(dir.resolve("lat-64"), HgrmFiles.perSize(dir.resolve("lat"), 64));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldReportEveryRunAndWriteOneHgrmPerRunWhenRepeatIsGiven(@TempDir Path dir) throws IOException {
        Path hgrm = dir.resolve("lat.hgrm");
        RemusRun run = RemusRun.of("bench", "read-lat", "--fabric", "sim", "-s", "64", "-n", "300", "--warmup", "10",
                "--repeat", "2", "--json", "--hgrm", hgrm.toString());
        assertEquals(0, run.exit(), run.err());
        Map<String, Object> top = (Map<String, Object>) Json.parse(run.out());
        List<Object> results = (List<Object>) top.get("results");
        assertEquals(2, results.size());
        assertTrue(run.out().contains("--repeat 2: each size runs 2 times in a row"), run.out());
        for (Object r : results) {
            assertEquals(64.0, ((Map<String, Object>) r).get("bytes"));
        }
        assertTrue(Files.readString(dir.resolve("lat-64-run1.hgrm")).contains("Total count    =          300]"));
        assertTrue(Files.readString(dir.resolve("lat-64-run2.hgrm")).contains("Total count    =          300]"));
        assertEquals(dir.resolve("lat-64-run2"), HgrmFiles.perRun(dir.resolve("lat"), 64, 2));
    }
}
