package io.remus.bench.object;

import io.remus.bench.structure.Ycsb;
import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The objects benchmark's flags ({@link ObjectFlags}) and the experiments' ({@link ExperimentFlags}). */
class ObjectFlagsTest {
    private static ObjectFlags flags(List<String> impls, String stall, double seconds) {
        return new ObjectFlags(List.of("queue", "counter"), impls, stall, 2, 2, seconds, 0.5, 64, 64, 64, 1);
    }

    private static String message(Runnable r) {
        return assertThrows(BadArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldRunEachObjectWithoutThenWithTheStallForEveryImplementation() {
        List<ObjectBenchmarkConfig> configs = flags(List.of("waitfree", "alock"), "both", 2).configs();
        assertEquals(8, configs.size());
        assertEquals(List.of("queue waitfree false", "queue alock false", "queue waitfree true", "queue alock true"),
                configs.subList(0, 4).stream().map(c -> c.object().flagName() + " " + c.impl().flagName() + " "
                        + c.stall()).toList());
    }

    @Test
    void shouldNameTheFlagAndTheValueWhenOneIsBad() {
        assertEquals("--impl names alock twice", message(() -> flags(List.of("alock", "alock"), "none", 2).configs()));
        assertEquals("--stall must be none, one or both, got 'two'", message(() -> flags(List.of("alock"), "two", 2).configs()));
        assertEquals("-D must be in [0.01, 3600] seconds, got 0.001", message(() -> flags(List.of("alock"), "none", 0.001).configs()));
    }

    @Test
    void shouldCheckTheExperimentsDurationAndNameTheirFlags() {
        List<SharingConfig> sharing = new ExperimentFlags(0, Double.NaN, 2, 64, 1)
                .sharing(List.of(SharingWay.parse("faa")), List.of(1, 4), 2, 64);
        assertEquals(List.of(1, 4), sharing.stream().map(SharingConfig::threadsPerNode).toList());
        assertEquals("--duration must be in [0.01, 3600] seconds, got 0.001", message(() -> new ExperimentFlags(0,
                Double.NaN, 0.001, 64, 1).kv(List.of(KvWay.parse("one-sided")), List.of(Ycsb.parse("A")), 2, 1, 100, 8)));
        assertEquals("--segment-mib must be 1..1024, got 0", message(() -> new ExperimentFlags(0, Double.NaN, 2, 0, 1)
                .sharing(List.of(SharingWay.parse("faa")), List.of(1), 2, 64)));
    }
}
