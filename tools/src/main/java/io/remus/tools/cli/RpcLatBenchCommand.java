package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.core.fabric.Fabric;
import io.remus.core.rpc.RpcEndpoint;
import io.remus.core.rpc.RpcPingPong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code remus bench rpc-lat}: the round trip of remus-core's RPC endpoint ({@link RpcPingPong}: node 0 calls an
 * echo method on node 1, one call at a time), in perftest's latency columns, so that it reads beside
 * {@code remus bench send-lat} (a SEND ping-pong) on the same fabric. Both nodes run in this process. Exit
 * status 0 on success, 1 when a call fails, 2 for bad flags.
 */
@Command(name = "rpc-lat", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Round trip of an RPC call (LITE-style endpoint: WRITE_WITH_IMMEDIATE into the callee's ring, "
                + "the response the same way back), one call at a time, as send-lat measures a SEND ping-pong. Both "
                + "nodes run in this process.", ""})
public final class RpcLatBenchCommand implements Callable<Integer> {
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private final Supplier<FabricChoice> hostFabric;

    @Spec
    CommandSpec spec;

    @Mixin
    SharedOptions.IterationsOption iterationsOption = new SharedOptions.IterationsOption(1000);

    @Mixin
    SharedOptions.MessageSizeOption sizeOption = new SharedOptions.MessageSizeOption(2);

    @Mixin
    SharedOptions.WarmupOption warmupOption = new SharedOptions.WarmupOption("200");

    @Mixin
    BenchFabricOptions fabricFlags;

    /** @param hostFabric the fabric without {@code --fabric} ({@link FabricChoice#detect}) */
    public RpcLatBenchCommand(Supplier<FabricChoice> hostFabric) {
        this.hostFabric = hostFabric;
    }

    @Override
    public Integer call() throws InterruptedException, IOException {
        long iters = iterationsOption.iterations;
        int size = sizeOption.size;
        long warmup = warmupOption.iterations();
        if (iters < 1 || iters > 100_000_000) {
            throw usage("-n must be 1..100000000, got " + iters);
        }
        if (size < 0 || size > RpcEndpoint.MAX_PAYLOAD) {
            throw usage("-s must be 0.." + RpcEndpoint.MAX_PAYLOAD + " bytes, got " + size);
        }
        if (warmup < 0 || warmup > 100_000_000) {
            throw usage("--warmup must be 0..100000000, got " + warmup);
        }
        InProcessFabrics.Chosen chosen = InProcessFabrics.choose(spec.commandLine(), fabricFlags, hostFabric,
                new OutputFiles(), this::usage);
        List<String> notes = chosen.notes();
        Supplier<Fabric> fabrics = chosen.fabrics();
        PrintWriter out = spec.commandLine().getOut();
        RpcPingPong.Result r;
        try (Fabric f = fabrics.get()) {
            r = RpcPingPong.run(f, (int) iters, (int) warmup, size, CALL_TIMEOUT);
        }
        out.println("remus bench rpc-lat on " + chosen.name());
        for (String note : notes) {
            out.println("note: " + note);
        }
        out.println(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    99% percentile[usec]   99.9% percentile[usec]   WWI/call");
        out.println(String.format(Locale.ROOT, " %-6d %-11d %-14.2f %-14.2f %-16.2f %-14.2f %-23.2f %-24.2f %.2f", r.payloadBytes(),
                r.calls(), usec(r.quantileNanos(0)), usec(r.quantileNanos(1)), usec(r.quantileNanos(0.5)), r.meanNanos() / 1e3,
                usec(r.quantileNanos(0.99)), usec(r.quantileNanos(0.999)), r.writesWithImmediatePerCall()));
        out.println("(t_typical: the median call; WWI/call: WRITE_WITH_IMMEDIATEs of both endpoints per call, a request and a response)");
        out.flush();
        return 0;
    }

    private static double usec(long nanos) {
        return nanos / 1e3;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
