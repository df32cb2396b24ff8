package io.remus.bench.stats;

import io.remus.core.error.BadArgumentException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyFilesTest {
    private static void assertSamePoints(PercentileDistribution expected, PercentileDistribution actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.percentiles()[i], actual.percentiles()[i], 1e-12);
            assertEquals(expected.latencyUsec()[i], actual.latencyUsec()[i], 0.0005);
        }
    }

    private static String error(String name, String... lines) {
        return assertThrows(BadArgumentException.class, () -> LatencyFiles.parse("x", name, List.of(lines)))
                .getMessage();
    }

    @Test
    void shouldReadHdrHistogramsPercentileDistributionAsItWasRecorded(@TempDir Path dir) throws Exception {
        Histogram h = PercentileDistributionTest.oneToHundredUsec();
        Path file = dir.resolve("ours.hgrm");
        Files.write(file, PercentileDistributionTest.hgrmLines(h, false));
        PercentileDistribution read = LatencyFiles.read("ours", file);
        assertEquals("ours", read.label());
        assertSamePoints(PercentileDistribution.of("ours", h, 1000.0), read);
        assertEquals(1.0, read.percentiles()[read.size() - 1], "the 100 % row has three fields and is read too");
    }

    @Test
    void shouldReadHdrHistogramsCsvDistributionToo() {
        Histogram h = PercentileDistributionTest.oneToHundredUsec();
        PercentileDistribution read = LatencyFiles.parse("x", "f.csv", PercentileDistributionTest.hgrmLines(h, true));
        assertSamePoints(PercentileDistribution.of("x", h, 1000.0), read);
    }

    @Test
    void shouldReadOneLatencyPerLineInMicrosecondsSkippingBlankAndCommentLines(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("perftest.txt");
        Files.writeString(file, "# perftest, read_lat\n3.5\n\n1.25\n  2.0  \n");
        PercentileDistribution read = LatencyFiles.read("perftest", file);
        assertArrayEquals(PercentileDistribution.ofSamples("perftest", new double[] {3.5, 1.25, 2.0}).latencyUsec(),
                read.latencyUsec());
        assertEquals(1.25, read.latencyUsec()[0], 0.001);
        assertEquals(3.5, read.latencyUsec()[read.size() - 1], 0.004);
    }

    @Test
    void shouldNameTheLineThatIsNotALatency() {
        String e = error("raw.txt", "1.0", "2.0", "2.5us");
        assertTrue(e.startsWith("raw.txt line 3: '2.5us' is not a number"), e);
        e = error("raw.txt", "1.0", "-2");
        assertTrue(e.startsWith("raw.txt line 2: a latency below 0"), e);
        e = error("raw.txt", "1.0", "NaN");
        assertTrue(e.startsWith("raw.txt line 2:"), e);
    }

    @Test
    void shouldNameTheLineThatIsNotAPercentileRow() {
        String header = "       Value     Percentile TotalCount 1/(1-Percentile)";
        String e = error("h.hgrm", header, "", "       1.000 0.000000000000          1           1.00",
                "       2.000 oops          2           1.11");
        assertTrue(e.startsWith("h.hgrm line 4: 'oops' is not a number"), e);
        e = error("h.hgrm", header, "1.0 0.5 1 2.0", "1.0 0.4 2 1.67");
        assertTrue(e.startsWith("h.hgrm line 3: the percentile falls below"), e);
        e = error("h.hgrm", header, "1.0");
        assertTrue(e.startsWith("h.hgrm line 2: expected value, percentile"), e);
        e = error("h.hgrm", header, "#[Mean = 1.0]");
        assertTrue(e.contains("no percentile lines"), e);
    }

    @Test
    void shouldSayWhenTheFileIsMissingOrEmpty(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("none.txt");
        String e = assertThrows(BadArgumentException.class, () -> LatencyFiles.read("x", missing)).getMessage();
        assertEquals(missing + ": no such file", e);
        Path empty = Files.writeString(dir.resolve("empty.txt"), "\n# nothing\n");
        e = assertThrows(BadArgumentException.class, () -> LatencyFiles.read("x", empty)).getMessage();
        assertEquals(empty + ": no latencies in the file", e);
    }
}
