package io.remus.tools.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * Options that several commands take, one picocli mixin each, beside the mixins that have a file of their
 * own ({@link FabricOption}, {@link DeviceOption}, {@link NodeCountOption}, ...). A command whose default
 * differs passes it to the mixin's constructor: picocli takes the field's value as the default and shows it
 * as {@code ${DEFAULT-VALUE}}. Each command checks the value against its own bounds.
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
                description = "Measured time of each run in seconds (default ${DEFAULT-VALUE}; null: a count of operations bounds each run instead).")
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
                description = "Zipfian constant of the key picks, in [0, 1); 0 is uniform (default ${DEFAULT-VALUE}; YCSB's is 0.99, which bench ds --ycsb takes for 0).")
        double zipf;
    }

    /** {@code --value-size}: bytes per stored value. */
    static final class ValueSizeOption {
        @Option(names = "--value-size", paramLabel = "BYTES",
                description = "Bytes per value (default ${DEFAULT-VALUE}; experiment kv: a multiple of 8 in 8..4096, larger values travel as the trustees' payloads).")
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

    /** {@code --p-local}: the fraction of picks on the worker's own node, or null to pick over everything. */
    static final class LocalPickOption {
        @Option(names = "--p-local", paramLabel = "P",
                description = "Fraction of picks on a counter or key of the worker's own node, in [0, 1], as bench lock (default: pick over all of them).")
        Double pLocal;
    }

    /** {@code --warmup SECONDS}: how long each kind runs unreported before it is measured, so the JIT has compiled its paths. */
    static final class WarmupSecondsOption {
        @Option(names = "--warmup", paramLabel = "SECONDS", defaultValue = "0.5",
                description = "Before measuring, run each kind this long, unreported, so the JIT has compiled its paths (default ${DEFAULT-VALUE}; 0: none).")
        double warmupSeconds;
    }
}
