package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.tools.RemusRun;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.NativeLibraryMissingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A host without libibverbs, played through the device-listing seam: the default runs on the
 * simulator and says why, whichever way the verbs layer reports its failure to load.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NoRdmaStackTest {
    private static final String MISSING = "cannot load libibverbs.so.1 (override with -Dremus.libibverbs=/path/to/"
            + "libibverbs.so.1; on Debian/Ubuntu: apt-get install libibverbs1 ibverbs-providers)";

    private static Supplier<List<DeviceInfo>> throwing(Throwable t) {
        return () -> {
            if (t instanceof RuntimeException e) {
                throw e;
            }
            throw (Error) t;
        };
    }

    @Test
    void shouldRunTheBenchOnTheSimulatorAndSayWhyWhenLibibverbsIsMissing() {
        Supplier<FabricChoice> noStack = () -> FabricChoice.detect(
                throwing(new ExceptionInInitializerError(new NativeLibraryMissingException(MISSING, null))));
        RemusRun run = RemusRun.of(noStack, "bench", "read-lat", "-n", "20", "--json", "--no-progress");
        assertEquals(0, run.exit(), run.err());
        assertEquals(List.of("remus: no RDMA stack (" + MISSING + "): running on the simulator (use --fabric verbs "
                + "to require RDMA, --fabric sim to choose the simulator)"), run.errLines());
        assertTrue(run.out().contains("\"fabric\":\"sim\"") || run.out().contains("\"fabric\": \"sim\""), run.out());
    }

    @Test
    void shouldFailNamingTheLibraryWhenADeviceIsAskedOfAHostWithoutTheStack() {
        Supplier<FabricChoice> noStack = () -> FabricChoice.detect(throwing(new NativeLibraryMissingException(MISSING, null)));
        RemusRun run = RemusRun.of(noStack, "bench", "read-lat", "-n", "20", "-d", "mlx5_0");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().startsWith("remus: -d mlx5_0 needs the verbs fabric, and this host has none: no RDMA "
                + "stack (" + MISSING + ")"), run.err());
    }

    @Test
    void shouldPrintOneLineNamingTheLibraryWhenTheVerbsLayerFailsToLoadInsideACommand() {
        Throwable[] failures = {new ExceptionInInitializerError(new NativeLibraryMissingException(MISSING, null)),
            new NoClassDefFoundError("Could not initialize class io.remus.verbs.ffi.IbVerbs$ibv_get_device_list$")};
        for (Throwable failure : failures) {
            RemusRun run = ToolRun.withStdout(new java.io.ByteArrayOutputStream(),
                    new Object[] {"fail", new ToolRun.Failing(failure)}, "fail");
            assertEquals(1, run.exit(), run.err());
            assertEquals(1, run.errLines().size(), run.err());
            assertTrue(run.err().startsWith("remus: no RDMA stack: "), run.err());
        }
    }
}
