package io.remus.bench.lock;

import io.remus.core.error.BadArgumentException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LockFlagsTest {
    private static LockFlags flags(int threads, List<String> locks, List<Integer> keys) {
        return new LockFlags(threads, locks, List.of(0.5, 0.9), keys, null, null, 0, 2, 0.5, 1);
    }

    private static String message(Runnable r) {
        return assertThrows(BadArgumentException.class, r::run).getMessage();
    }

    @Test
    void shouldRunEveryPointWithTheLockKindsInnermost() {
        List<LockBenchmarkConfig> configs = flags(2, List.of("alock", " spin"), List.of(4, 8)).configs(2);
        assertEquals(8, configs.size());
        assertEquals(List.of("alock", "spin", "alock", "spin"), configs.subList(0, 4).stream()
                .map(c -> c.kind().cliName()).toList());
        assertEquals(List.of(4, 4, 8, 8), configs.subList(0, 4).stream().map(LockBenchmarkConfig::keys).toList());
        assertEquals(0.9, configs.getLast().pLocal());
    }

    @Test
    void shouldNameTheFlagAndTheValueWhenOneIsOutOfRange() {
        assertEquals("--nodes must be 1..64, got 65", message(() -> flags(1, List.of("alock"), List.of(100)).configs(65)));
        assertEquals("--keys must be 2 (one per node)..1048576, got 1",
                message(() -> flags(1, List.of("alock"), List.of(1)).configs(2)));
        assertEquals("--nodes 8 x --threads 256 = 2048 worker threads, each spinning while it waits: at most 1024",
                message(() -> flags(256, List.of("alock"), List.of(100)).configs(8)));
        assertEquals("--lock: ", message(() -> flags(1, List.of("ticket"), List.of(100)).configs(1)).substring(0, 8));
    }

    @Test
    void shouldWarnOnlyWhenTheWorkersOutnumberTwiceTheCpus() {
        assertEquals("--nodes 4 x --threads 4 = 16 spinning worker threads on 2 CPU(s): waiters spin through the time "
                + "slices of descheduled lock holders, so progress is slow and the figures measure the scheduler",
                flags(4, List.of("alock"), List.of(100)).oversubscribed(4, 2));
        assertNull(flags(4, List.of("alock"), List.of(100)).oversubscribed(4, 8));
    }
}
