package io.remus.bench.reclaim;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ReclaimFlagsTest {
    private static ReclaimFlags flags(List<String> reclaimers, String stall, Long ops, boolean secondsGiven) {
        return new ReclaimFlags(reclaimers, stall, 2, 2, secondsGiven, 0.5, ops, 64, 50, 200, 64, 1000, 20, 256, 1);
    }

    private static String message(Runnable r) {
        return assertThrows(BadArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldRunEachReclaimerWithoutThenWithTheStall() {
        List<ReclaimBenchmarkConfig> configs = flags(List.of("never", "epoch"), "both", null, false).configs(2, Duration.ZERO);
        assertEquals(List.of("never", "never+stall", "epoch", "epoch+stall"), configs.stream()
                .map(c -> c.reclaimer().flagName() + (c.stall() ? "+stall" : "")).toList());
        assertEquals(Duration.ofSeconds(2), configs.getFirst().duration());
        assertNull(flags(List.of("never"), "no", 10L, false).configs(2, Duration.ZERO).getFirst().duration());
    }

    @Test
    void shouldNameTheFlagAndTheValueWhenOneIsBad() {
        assertEquals("--reclaimer names never twice",
                message(() -> flags(List.of("never", "NEVER"), "no", null, false).configs(1, Duration.ZERO)));
        assertEquals("--stall must be no, yes or both, got 'maybe'",
                message(() -> flags(List.of("never"), "maybe", null, false).configs(1, Duration.ZERO)));
        assertEquals("--ops 5 and -D 2.0 exclude each other: a run is bounded by one",
                message(() -> flags(List.of("never"), "no", 5L, true).configs(1, Duration.ZERO)));
    }
}
