package io.remus.tools.cli;

import io.remus.tools.bench.BenchFailedException;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/**
 * {@code remus devices}: the RDMA devices of this host, like a short {@code ibv_devinfo}.
 *
 * <p>Not available in this build: listing devices needs the {@code io.remus.verbs} API (Device,
 * Context), which is not merged yet; the command says so and exits 1 rather than guessing.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "RDMA devices: ports, state, MTU, GIDs, atomic capability, max inline.")
public final class DevicesCommand implements Callable<Integer> {
    /** @return how many RDMA devices this host has, or -1 when this build cannot tell */
    public static int count() {
        return -1;
    }

    @Override
    public Integer call() {
        throw new BenchFailedException("device listing needs the io.remus.verbs API, which this build does not have yet");
    }
}
