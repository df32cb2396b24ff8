package io.remus.tools.cli;

import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code remus bench read-lat|atomic-lat|read-bw|atomic-bw|...} with {@code --sim-time virtual --seed N}: the same
 * seed gives the same JSON, the outputs name the clock, and what virtual time cannot honour is refused before the run,
 * naming the value.
 */
class PerftestVirtualTimeCommandTest {
    private static RemusRun virtual(String test, String... more) {
        String[] args = new String[7 + more.length];
        String[] head = {"bench", test, "--sim-time", "virtual", "--sim-cost", "connectx5", "--fabric"};
        System.arraycopy(head, 0, args, 0, head.length);
        System.arraycopy(more, 0, args, head.length, more.length);
        return RemusRun.of(args);
    }

    @Test
    void shouldPrintIdenticalJsonWhenReadLatRunsTwiceWithTheSameSeed() {
        RemusRun first = virtual("read-lat", "sim", "--seed", "1", "--json");
        RemusRun second = virtual("read-lat", "sim", "--seed", "1", "--json");
        assertEquals(0, first.exit(), first.err());
        assertEquals(0, second.exit(), second.err());
        assertEquals(first.out(), second.out());
        assertTrue(first.out().contains("\"time\":\"virtual time, model connectx5, CPU charged as model: "), first.out());
        assertTrue(first.out().contains(", seed 1\""), first.out());
        assertTrue(first.out().contains("\"warmup_iterations\":0"), first.out());
        assertTrue(first.out().contains("\"mean\":2.000"), "connectx5's 2 us READ: " + first.out());
        assertFalse(first.out().contains("System.nanoTime costs"), first.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"write-lat", "send-lat", "write-bw", "send-bw", "atomic-lat", "read-bw"})
    void shouldReplayWhenTheOtherTestsRunTwiceWithTheSameSeed(String test) {
        String[] args = test.equals("atomic-lat") ? new String[] {"sim", "--seed", "2", "-n", "200", "--json"}
                : new String[] {"sim", "--seed", "2", "-n", "200", "-s", "64", "--json"};
        RemusRun first = virtual(test, args);
        RemusRun second = virtual(test, args);
        assertEquals(0, first.exit(), first.err());
        assertEquals(first.out(), second.out());
        assertTrue(first.out().contains("\"time\":\"virtual time, model connectx5"), first.out());
    }

    @Test
    void shouldNameTheClockAndNoWarmUpAboveTheTableWhenAtomicBwRunsOnOneWord() {
        RemusRun r = virtual("atomic-bw", "sim", "--seed", "4", "--words", "1", "-q", "2", "-t", "16", "-n", "200");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("every figure below is virtual time, model connectx5, CPU charged as model: "),
                r.out());
        assertTrue(r.out().contains(", seed 4"), r.out());
        assertTrue(r.out().contains("warm-up: none; in virtual time"), r.out());
        assertTrue(r.out().contains("atomics go to 1 word"), r.out());
        assertTrue(r.out().contains("0.400000"), "connectx5: one word's unit allows 0.4 Mops: " + r.out());
    }

    @Test
    void shouldRefuseVirtualTimeOnVerbsNamingTheValue() {
        RemusRun r = virtual("read-lat", "verbs", "-d", "no_such_dev0");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("verbs"), r.err());
        assertTrue(r.err().contains("Usage: remus bench read-lat"), r.err());
    }

    @Test
    void shouldRefuseVirtualTimeWithoutACostModelNamingTheModel() {
        RemusRun r = RemusRun.of("bench", "atomic-lat", "--sim-time", "virtual", "--fabric", "sim");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sim-time virtual") && r.err().contains("model none"), r.err());
    }

    @Test
    void shouldRefuseTheIntervalLogInVirtualTimeBeforeTheRun(@TempDir Path dir) {
        Path log = dir.resolve("intervals.hlog");
        RemusRun r = virtual("read-lat", "sim", "--interval-log", log.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--interval-log " + log) && r.err().contains("wall clock"), r.err());
        assertTrue(Files.notExists(log));
    }

    @Test
    void shouldRefuseASeedWithoutVirtualTimeNamingIt() {
        RemusRun r = RemusRun.of("bench", "read-lat", "--fabric", "sim", "--seed", "7");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--seed 7") && r.err().contains("--sim-time virtual"), r.err());
    }

    @Test
    void shouldRefuseWordsOnAnythingButAtomicBwAndOutsideItsRange() {
        RemusRun other = RemusRun.of("bench", "read-bw", "--fabric", "sim", "--words", "4");
        assertEquals(2, other.exit(), other.err());
        assertTrue(other.err().contains("--words 4 applies to atomic-bw, not read-bw"), other.err());
        for (String bad : new String[] {"0", "513"}) {
            RemusRun r = RemusRun.of("bench", "atomic-bw", "--fabric", "sim", "--words", bad);
            assertEquals(2, r.exit(), r.err());
            assertTrue(r.err().contains("--words must be 1..512, got " + bad), r.err());
        }
    }
}
