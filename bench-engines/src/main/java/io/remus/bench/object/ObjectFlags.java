package io.remus.bench.object;

import io.remus.bench.engines.RunFlags;
import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The objects benchmark's flags as given, checked against the engine's rules and turned into one
 * {@link ObjectBenchmarkConfig} per run ({@link #configs}). Every error is a {@link BadArgumentException}
 * whose message names the flag ({@code --object}, {@code --impl}, {@code --stall}, ...) and the bad value.
 *
 * @param objects       {@code --object}: the objects' names, as given
 * @param impls         {@code --impl}: the implementations' names, as given
 * @param stall         {@code --stall}: none, one or both
 * @param nodes         {@code --nodes}
 * @param threads       {@code --threads}: workers per node
 * @param seconds       {@code -D}
 * @param warmupSeconds {@code --warmup}
 * @param elements      {@code --elements}
 * @param valueBytes    {@code --value-bytes}
 * @param segmentMib    {@code --segment-mib}
 * @param seed          {@code --seed}
 */
public record ObjectFlags(List<String> objects, List<String> impls, String stall, int nodes, int threads, double seconds,
                          double warmupSeconds, int elements, int valueBytes, long segmentMib, long seed) {
    /** Copies the lists. */
    public ObjectFlags {
        objects = List.copyOf(objects);
        impls = List.copyOf(impls);
    }

    /**
     * One configuration per run, in run order: for each object, for each stall mode (without first), each
     * implementation.
     *
     * @return the configurations
     * @throws BadArgumentException naming the flag and its value when one is out of range
     */
    public List<ObjectBenchmarkConfig> configs() {
        List<ObjectKind> objectKinds = RunFlags.kinds("--object", objects, ObjectKind::parse);
        List<ImplKind> implKinds = RunFlags.kinds("--impl", impls, ImplKind::parse);
        List<Boolean> stalls = switch (stall.strip().toLowerCase(Locale.ROOT)) {
            case "none" -> List.of(false);
            case "one" -> List.of(true);
            case "both" -> List.of(false, true);
            default -> throw new BadArgumentException("--stall must be none, one or both, got '" + stall + "'");
        };
        Duration duration = RunFlags.hundredthsOrMore("-D", seconds);
        RunFlags.checkWarmup(warmupSeconds);
        long segment = RunFlags.segmentBytes(segmentMib);
        List<ObjectBenchmarkConfig> configs = new ArrayList<>();
        for (ObjectKind o : objectKinds) {
            for (boolean s : stalls) {
                for (ImplKind i : implKinds) {
                    try {
                        configs.add(new ObjectBenchmarkConfig(o, i, nodes, threads, duration, s, elements, valueBytes,
                                segment, seed));
                    } catch (BadArgumentException e) {
                        throw new BadArgumentException(flagNames(e.getMessage()));
                    }
                }
            }
        }
        return configs;
    }

    private static String flagNames(String message) {
        return message.replace("threadsPerNode", "--threads").replace("nodes must", "--nodes must")
                .replace("elements must", "--elements must").replace("valueBytes", "--value-bytes")
                .replace("a stall needs 2 workers", "--stall needs 2 workers");
    }
}
