package io.remus.tools.devices;

import io.remus.tools.RemusRun;
import io.remus.bench.perftest.FabricKind;
import io.remus.tools.cli.DevicesCommand;
import io.remus.bench.perftest.FabricChoice;
import io.remus.verbs.Device;
import io.remus.verbs.NativeLibraryMissingException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code remus devices} on a host without an RDMA stack: one line with the reason, exit status 0. */
class NoRdmaStackTest {
    private static final String REASON = "cannot load libibverbs.so.1 (on Debian/Ubuntu: apt-get install libibverbs1)";

    @Test
    void shouldSayNoRdmaStackWithTheReasonAndExitZeroWhenTheLibraryIsMissing() {
        RemusRun run = run(new DevicesCommand(() -> {
            throw new NativeLibraryMissingException(REASON, null);
        }));
        assertEquals(0, run.exit(), run.err());
        assertEquals("no RDMA stack: " + REASON, run.out().strip());
        assertEquals("", run.err());
    }

    @Test
    void shouldFailNamingTheDeviceAndTheReasonWhenADeviceIsAskedForWithoutAStack() {
        RemusRun run = run(new DevicesCommand(() -> {
            throw new NativeLibraryMissingException(REASON, null);
        }), "-d", "rxe0");
        assertEquals(1, run.exit());
        assertTrue(run.err().contains("no RDMA device called 'rxe0'"), run.err());
        assertTrue(run.err().contains(REASON), run.err());
    }

    @Test
    void shouldSayNoRdmaStackEveryTimeOnThisHostWhenLibibverbsIsNotInstalled() {
        assumeFalse(Device.rdmaStackAvailable(), "this host has libibverbs");
        for (int i = 0; i < 2; i++) {
            RemusRun run = RemusRun.of("devices");
            assertEquals(0, run.exit(), run.err());
            assertTrue(run.out().startsWith("no RDMA stack: "), run.out());
            assertTrue(run.out().contains("libibverbs.so.1"), run.out());
            assertTrue(run.out().contains("libibverbs1"), run.out());
        }
        FabricChoice host = FabricChoice.detect(Device::list);
        assertEquals(FabricKind.SIM, host.kind(), host.reason());
        assertTrue(host.fellBack() && host.why().startsWith("no RDMA stack (") && host.why().contains("libibverbs"), host.reason());
    }

    private static RemusRun run(DevicesCommand command, String... args) {
        CommandLine cmd = new CommandLine(command);
        cmd.setExecutionExceptionHandler((e, c, p) -> {
            c.getErr().println(e.getMessage());
            return 1;
        });
        return RemusRun.ofCommand(cmd, args);
    }
}
