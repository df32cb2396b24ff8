package io.remus.bench.structure;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DsFlagsTest {
    private static DsFlags flags(String ycsb, Double seconds, boolean numOpsGiven, List<String> mixGiven) {
        return new DsFlags("alock", ycsb, seconds, 8192, numOpsGiven, mixGiven, 50, 50, 50, 0, 1024, 0, 64, true, 64, 1);
    }

    private static String message(Runnable r) {
        return assertThrows(BadArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldRunEveryStructureWithEveryThreadCountStructuresOuter() {
        List<DsBenchmarkConfig> configs = flags(null, null, false, List.of()).configs(2,
                List.of(StructureKind.parse("lazy-list"), StructureKind.parse("hash-map")), List.of(1, 2));
        assertEquals(List.of("lazy-list 1", "lazy-list 2", "hash-map 1", "hash-map 2"), configs.stream()
                .map(c -> c.structure().flagName() + " " + c.threadsPerNode()).toList());
        assertEquals(8192, configs.getFirst().opsPerThread());
    }

    @Test
    void shouldNameTheFlagsThatExcludeEachOther() {
        List<StructureKind> map = List.of(StructureKind.parse("hash-map"));
        assertEquals("--insert and --ycsb A exclude each other: the YCSB workload sets the mix and loads every key",
                message(() -> flags("A", null, false, List.of("--insert", "--remove")).configs(2, map, List.of(1))));
        assertEquals("--num-ops 8192 and -D 2.0 exclude each other: a run is bounded by one",
                message(() -> flags(null, 2.0, true, List.of()).configs(2, map, List.of(1))));
        assertEquals("--ycsb: ", message(() -> flags("Z", null, false, List.of()).configs(2, map, List.of(1))).substring(0, 8));
    }
}
