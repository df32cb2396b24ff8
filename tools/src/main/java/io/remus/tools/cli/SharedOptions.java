package io.remus.tools.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Options that several commands take, one picocli mixin each, beside the mixins that have a file of their
 * own ({@link FabricOption}, {@link DeviceOption}, {@link NodeCountOption}, ...). A command whose default
 * differs passes it to the mixin's constructor: picocli takes the field's value as the default and shows it
 * as {@code ${DEFAULT-VALUE}}. Each command checks the value against its own bounds. An option that one
 * command takes as a comma list and another as one value holds its text: {@link #list} and {@link #one}
 * convert it and refuse a bad value with picocli's message.
 */
final class SharedOptions {
    private SharedOptions() {
    }

    /** {@code --plot FILE}: the PNG a command draws its results into, or null for none. */
    static final class PlotOption {
        @Option(names = "--plot", paramLabel = "FILE", description = "Also draw the results as a PNG to FILE (what is drawn: see the command's description).")
        Path plot;
    }

    /** {@code -D}/{@code --duration}: the measured seconds of each run, or null where a count of operations bounds the run. */
    static final class DurationOption {
        @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS",
                description = "Measured time of each run in seconds (default 2; bench ds and the perftest-style tests: none, --num-ops or -n operations bound each run).")
        Double seconds;

        DurationOption() {
        }

        DurationOption(double seconds) {
            this.seconds = seconds;
        }
    }

    /** {@code --zipf}: the Zipfian constant of the workers' key picks; 0 is uniform. */
    static final class ZipfOption {
        @Option(names = "--zipf", paramLabel = "THETA", defaultValue = "0",
                description = "Zipfian constant of the key picks, in [0, 1); 0 is uniform (default ${DEFAULT-VALUE}; YCSB's is 0.99, which bench ds --ycsb and bench index take for 0).")
        double zipf;
    }

    /** {@code --ycsb}: a YCSB workload by letter; each command checks the letters it runs. */
    static final class YcsbOption {
        @Option(names = "--ycsb", paramLabel = "W",
                description = "A YCSB workload: bench ds runs A, B, C, D or F on the hash map (not with --insert/--remove/--prefill, which it replaces); bench index runs A, B or C (default there: A).")
        String ycsb;

        YcsbOption(String ycsb) {
            this.ycsb = ycsb;
        }
    }

    /** {@code --num-ops}: operations per worker thread. */
    static final class NumOpsOption {
        @Option(names = "--num-ops", paramLabel = "N",
                description = "Operations per worker thread, bench index: per client (default ${DEFAULT-VALUE}); bench ds: not with -D.")
        long numOps;

        NumOpsOption(long numOps) {
            this.numOps = numOps;
        }
    }

    /** {@code --replicas}: members of each replica group, a comma list run in order. */
    static final class ReplicasOption {
        @Option(names = "--replicas", split = ",", paramLabel = "N", defaultValue = "3",
                description = "Members of each replica group, an odd 2f + 1 in 3..15; a comma list runs each (default ${DEFAULT-VALUE}).")
        List<Integer> replicas;
    }

    /** {@code --log-slots}: slots of each member's replicated log. */
    static final class LogSlotsOption {
        @Option(names = "--log-slots", paramLabel = "S", defaultValue = "256",
                description = "Slots of each member's log; past them the log wraps and slots are reused (default ${DEFAULT-VALUE}).")
        int slots;
    }

    /** {@code --value-size}: bytes per stored value. */
    static final class ValueSizeOption {
        @Option(names = "--value-size", paramLabel = "BYTES",
                description = "Bytes per value (default ${DEFAULT-VALUE}; experiment kv: a multiple of 8 in 8..4096, larger values travel as the trustees' payloads; bench index: 1..168, so that a request fills at most one RPC payload).")
        int valueSize;

        ValueSizeOption(int valueSize) {
            this.valueSize = valueSize;
        }
    }

    /** {@code --ways}: the ways an experiment compares, a comma list run in order. */
    static final class WaysOption {
        @Option(names = "--ways", paramLabel = "WAY[,WAY...]", description = "Ways to run, in order (default ${DEFAULT-VALUE}).")
        String ways;

        WaysOption(String ways) {
            this.ways = ways;
        }
    }

    /**
     * {@code --p-local}: the fraction of picks on the worker's own node, or null to pick over everything;
     * {@code bench lock} runs each of a comma list.
     */
    static final class LocalPickOption {
        @Spec(Spec.Target.MIXEE)
        CommandSpec mixee;

        @Option(names = "--p-local", paramLabel = "P[,P...]",
                description = "Fraction 0..1 of picks on a counter, key or lock homed on the worker's node (default: pick over all of them; bench lock: of lock pairs, default 0.9, and a comma list runs each).")
        String pLocal;

        LocalPickOption() {
        }

        LocalPickOption(String pLocal) {
            this.pLocal = pLocal;
        }

        /** @return the one fraction, or NaN when not given (pick over all) */
        double oneOrNaN() {
            return pLocal == null ? Double.NaN : SharedOptions.one(mixee, "--p-local", pLocal, Double::valueOf, "a double");
        }

        /** @return every fraction of the comma list */
        List<Double> list() {
            return SharedOptions.list(mixee, "--p-local", pLocal, Double::valueOf, "a double");
        }
    }

    /**
     * {@code --warmup}: the unmeasured warm-up before each run, in seconds (bench object, lock and reclaim) or in
     * iterations (the perftest-style benchmarks and rpc-lat), or null for the command's own rule.
     */
    static final class WarmupOption {
        @Spec(Spec.Target.MIXEE)
        CommandSpec mixee;

        @Option(names = "--warmup", paramLabel = "N|SECONDS",
                description = "Unmeasured warm-up before measuring. bench object, lock and reclaim: seconds each kind runs unreported, so the JIT has compiled its paths (default 0.5; 0: none). "
                        + "bench rpc-lat: calls (default 200). The perftest-style benchmarks: iterations before each size (default: a tenth of -n); then, once per JVM, more run (latency tests: in rounds of at most the larger of -n and --warmup) until no JIT compilation finished for 1 s (at most 60 s).")
        String warmup;

        WarmupOption() {
        }

        WarmupOption(String warmup) {
            this.warmup = warmup;
        }

        /** @return the warm-up in seconds */
        double seconds() {
            return SharedOptions.one(mixee, "--warmup", warmup, Double::valueOf, "a double");
        }

        /** @return the warm-up in iterations, or null when not given */
        Long iterations() {
            return warmup == null ? null : SharedOptions.one(mixee, "--warmup", warmup, Long::valueOf, "a long");
        }
    }

    /** {@code -n}/{@code --iters}: measured iterations, or null for the command's own count. */
    static final class IterationsOption {
        @Option(names = {"-n", "--iters"}, paramLabel = "N",
                description = "Measured iterations: experiment loopback's operations per measurement (default 100000), bench rpc-lat's calls (default 1000), the perftest-style tests' per size (default 1000 latency, 5000 bandwidth; on sim a run of -n moves at most 128 GiB, all sizes and --warmup included, and -D bounds a longer one).")
        Long iterations;

        IterationsOption() {
        }

        IterationsOption(long iterations) {
            this.iterations = iterations;
        }
    }

    /** {@code -s}/{@code --size}: message bytes, or null for the test's own size. */
    static final class MessageSizeOption {
        @Option(names = {"-s", "--size"}, paramLabel = "BYTES",
                description = "Message size: rpc-lat's request and response payload, 0..256 (default 2, send-lat's); the perftest-style tests: default 2 for latency, 65536 for bandwidth, 8 for atomics.")
        Integer size;

        MessageSizeOption() {
        }

        MessageSizeOption(int size) {
            this.size = size;
        }
    }

    /** {@code -t}/{@code --tx-depth}: RDMA operations in flight, or null for the test's own depth. */
    static final class TxDepthOption {
        @Option(names = {"-t", "--tx-depth"}, paramLabel = "DEPTH",
                description = "RDMA operations in flight: experiment loopback's for throughput (default 16); the perftest-style bandwidth tests' work requests per QP (default 128, at most -n, as perftest; on sim -q x -t is at most 65536 and -q x -t x -s at most 4 GiB).")
        Integer depth;

        TxDepthOption() {
        }

        TxDepthOption(int depth) {
            this.depth = depth;
        }
    }

    /** {@code --timeout}: the longest wait for one RDMA completion (or, in the perftest-style benchmarks, the peer). */
    static final class TimeoutOption {
        @Option(names = "--timeout", paramLabel = "SECONDS",
                description = "Longest wait for one RDMA completion or the peer, seconds (default ${DEFAULT-VALUE}).")
        double seconds;

        TimeoutOption(double seconds) {
            this.seconds = seconds;
        }

        /** @return the value as typed when whole ({@code 10}), else as a decimal */
        String text() {
            return seconds == Math.rint(seconds) && Math.abs(seconds) < 1e15 ? Long.toString((long) seconds) : Double.toString(seconds);
        }
    }

    /** {@code --threads}: workers per node; a comma list where the command runs each count. */
    static final class ThreadsOption {
        @Spec(Spec.Target.MIXEE)
        CommandSpec mixee;

        @Option(names = "--threads", paramLabel = "T[,T...]",
                description = "Worker threads per node; bench ds and experiment sharing take a comma list and run each (default ${DEFAULT-VALUE}).")
        String threads = "2";

        /** @return the one count this command takes */
        int one() {
            return SharedOptions.one(mixee, "--threads", threads, Integer::valueOf, "an int");
        }
    }

    /** {@code --keys}: the keys (locks, map entries) of the run; {@code bench lock} runs each of a comma list. */
    static final class KeysOption {
        @Spec(Spec.Target.MIXEE)
        CommandSpec mixee;

        @Option(names = "--keys", paramLabel = "K[,K...]",
                description = "Keys: bench lock's locks in the table, at least --nodes (fewer = more contention), a comma list runs each; experiment kv's keys, nodes..65536, key k on node k mod nodes, all loaded before the run; bench index's keys 0..K-1, 8 bytes each, all loaded before the run (default ${DEFAULT-VALUE}).")
        String keys;

        KeysOption(String keys) {
            this.keys = keys;
        }

        /** @return the one count this command takes */
        int one() {
            return SharedOptions.one(mixee, "--keys", keys, Integer::valueOf, "an int");
        }

        /** @return every count of the comma list */
        List<Integer> list() {
            return SharedOptions.list(mixee, "--keys", keys, Integer::valueOf, "an int");
        }
    }

    /** {@code --lock}: the lock kind; {@code bench lock} runs each of a comma list. */
    static final class LockOption {
        @Option(names = "--lock", paramLabel = "KIND[,KIND...]",
                description = "Lock kind: alock, spin or mcs; bench lock also alock-remote-only or alock-parking (ALock whose local waiters park after spinning), and a comma list runs each (default ${DEFAULT-VALUE}).")
        String lock = "alock";

        /** @return every kind of the comma list, as given */
        List<String> list() {
            return List.of(lock.split(","));
        }
    }

    /** {@code --stall}: whether a worker stands still during the run; {@code both} runs without and with it. */
    static final class StallOption {
        @Option(names = "--stall", paramLabel = "MODE", arity = "0..1", fallbackValue = "yes",
                description = "bench object: none (default) or one: worker 0 (node 0) stands still in the middle of an operation for half of the run, from a quarter of it on (a locked one while holding the lock); "
                        + "bench reclaim: no (default) or yes: one more thread on node 0 stays inside a guard for the whole run; both: each run without and with it. --stall alone means yes.")
        String stall;

        StallOption(String stall) {
            this.stall = stall;
        }
    }

    /**
     * @return {@code text} converted, as picocli converts an option's value
     * @throws ParameterException naming the option, the value and the type, as picocli does
     */
    static <T> T one(CommandSpec mixee, String option, String text, Function<String, T> convert, String type) {
        try {
            return convert.apply(text);
        } catch (NumberFormatException e) {
            throw new ParameterException(mixee.commandLine(),
                    "Invalid value for option '" + option + "': '" + text + "' is not " + type);
        }
    }

    /** @return each of {@code text}'s comma-separated values converted, as picocli converts a split option's values */
    static <T> List<T> list(CommandSpec mixee, String option, String text, Function<String, T> convert, String type) {
        List<T> values = new ArrayList<>();
        for (String v : text.split(",")) {
            values.add(one(mixee, option, v, convert, type));
        }
        return values;
    }
}
