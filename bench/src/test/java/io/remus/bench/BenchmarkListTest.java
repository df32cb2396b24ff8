package io.remus.bench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The annotation processor ran: JMH's benchmark list names every benchmark class. */
class BenchmarkListTest {
    @Test
    void shouldListEveryBenchmarkClassWhenTheModuleIsCompiled() throws IOException {
        String list;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("META-INF/BenchmarkList")) {
            assertNotNull(in, "META-INF/BenchmarkList is missing: the JMH annotation processor did not run");
            list = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String benchmark : new String[] {
                "io.remus.bench.pointer.RemotePtrBenchmark",
                "io.remus.bench.core.ComputeThreadSimBenchmark",
                "io.remus.bench.fabric.FabricPostPollBenchmark",
                "io.remus.bench.verbs.VerbsPostPollBenchmark"}) {
            assertTrue(list.contains(benchmark), benchmark + " is not in the benchmark list");
        }
    }
}
