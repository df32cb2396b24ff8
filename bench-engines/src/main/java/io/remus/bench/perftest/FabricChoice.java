package io.remus.bench.perftest;

import io.remus.core.error.BadArgumentException;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.VerbsException;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The fabric a command runs on and why.
 *
 * <p>The rule every command follows ({@link #choose}): an explicit request is honoured or is an
 * error; only the default falls back. {@code --fabric verbs} or {@code --fabric sim} is taken as
 * given. Without {@code --fabric}, a flag that only one fabric can honour asks for that fabric
 * (a server address, {@code -d} or {@code -i} ask for verbs; {@code --sim-latency-ns} asks for the
 * simulator), and when the host cannot run verbs that is an error naming the flag. With no such
 * flag the host decides ({@link #detect}): verbs when it lists an RDMA device, else the simulator,
 * and a run that falls back says so on standard error ({@link #announce}).
 *
 * @param kind     the fabric
 * @param reason   why it was chosen, for the report
 * @param fellBack whether this is the default falling back to the simulator because the host cannot run verbs
 */
public record FabricChoice(FabricKind kind, String reason, boolean fellBack) {
    private static final String DEFAULT = "default: ";

    /**
     * A choice that is not a fallback.
     *
     * @param kind   the fabric
     * @param reason why it was chosen
     */
    public FabricChoice(FabricKind kind, String reason) {
        this(kind, reason, false);
    }

    /**
     * Resolves {@code --fabric} from a device count, by {@link #choose} with no fabric-only flags: the
     * requested fabric, or verbs when this host has an RDMA device and the simulator otherwise.
     *
     * @param requested the flag's value, or null when not given
     * @param devices   how many RDMA devices this host has, or -1 when libibverbs cannot tell
     * @return the choice
     */
    public static FabricChoice resolve(FabricKind requested, int devices) {
        return choose(requested, List.of(), List.of(), () -> ofDeviceCount(devices));
    }

    private static FabricChoice ofDeviceCount(int devices) {
        if (devices < 0) {
            return fallback("libibverbs could not list RDMA devices");
        }
        if (devices > 0) {
            return new FabricChoice(FabricKind.VERBS, DEFAULT + "this host has " + devices + " RDMA device(s)");
        }
        return fallback("this host has no RDMA devices");
    }

    /**
     * The host's default fabric: verbs when {@code lister} names an RDMA device, else the simulator
     * with the reason. This is the one place where the verbs layer's failure to load is caught: a
     * {@link VerbsException} (a missing libibverbs is its subclass
     * {@link io.remus.verbs.NativeLibraryMissingException}) or a {@link LinkageError} (a class of the
     * binding whose initializer failed, or a missing symbol) means "no RDMA stack", never a crash.
     *
     * @param lister lists the host's RDMA devices ({@code Device::list}; tests give their own)
     * @return the choice
     */
    public static FabricChoice detect(Supplier<List<DeviceInfo>> lister) {
        List<DeviceInfo> devices;
        try {
            devices = lister.get();
        } catch (VerbsException | LinkageError e) {
            return fallback("no RDMA stack (" + stackFailure(e) + ")");
        }
        if (devices.isEmpty()) {
            return fallback("no RDMA device found");
        }
        return new FabricChoice(FabricKind.VERBS, DEFAULT + "this host has " + devices.size() + " RDMA device(s): "
                + devices.getFirst().name() + (devices.size() > 1 ? ", ..." : ""));
    }

    /**
     * @param failure what the verbs layer threw while loading or listing
     * @return the most telling message in its cause chain (the typed error's, where there is one)
     */
    public static String stackFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof VerbsException && t.getMessage() != null) {
                return t.getMessage();
            }
        }
        Throwable deepest = failure;
        while (deepest.getCause() != null) {
            deepest = deepest.getCause();
        }
        return deepest.getMessage() != null ? deepest.getMessage() : deepest.getClass().getSimpleName();
    }

    /**
     * Applies the rule of this class's description.
     *
     * @param requested   {@code --fabric}, or null when not given
     * @param verbsOnly   the flags given that only verbs honours, as the user wrote them (e.g. {@code "-d mlx5_0"})
     * @param simOnly     the flags given that only the simulator honours
     * @param hostDefault the host's default ({@link #detect}); asked only when {@code requested} is null
     * @return the choice
     * @throws BadArgumentException when the flags ask for both fabrics, {@code requested} excludes one of
     *                              them, or {@code requested} is {@link FabricKind#SHM}, which has no fabric in
     *                              one process: the message names the flags (commands make it a usage error)
     * @throws BenchFailedException     when a flag asks for verbs and this host cannot run it
     */
    public static FabricChoice choose(FabricKind requested, List<String> verbsOnly, List<String> simOnly,
                                      Supplier<FabricChoice> hostDefault) {
        if (requested == FabricKind.SHM) {
            throw new BadArgumentException("--fabric shm runs one process per node (under a launcher such as "
                    + "mpirun, or with --cluster), not every node in this JVM");
        }
        if (requested == FabricKind.SIM && !verbsOnly.isEmpty()) {
            throw new BadArgumentException(String.join(", ", verbsOnly) + ": verbs only; this run is on "
                    + "--fabric sim");
        }
        if (requested == FabricKind.VERBS && !simOnly.isEmpty()) {
            throw new BadArgumentException(String.join(", ", simOnly) + ": sim only; this run is on "
                    + "--fabric verbs");
        }
        if (!verbsOnly.isEmpty() && !simOnly.isEmpty()) {
            throw new BadArgumentException(String.join(", ", verbsOnly) + " (verbs only) and "
                    + String.join(", ", simOnly) + " (sim only) exclude each other");
        }
        if (requested != null) {
            return requested(requested);
        }
        if (!simOnly.isEmpty()) {
            return new FabricChoice(FabricKind.SIM, String.join(", ", simOnly) + " given");
        }
        FabricChoice host = hostDefault.get();
        if (verbsOnly.isEmpty()) {
            return host;
        }
        if (host.kind() != FabricKind.VERBS) {
            throw new BenchFailedException(String.join(", ", verbsOnly) + (verbsOnly.size() == 1 ? " needs" : " need")
                    + " the verbs fabric, and this host has none: " + host.why()
                    + " (without verbs flags the run falls back to the simulator)");
        }
        return new FabricChoice(FabricKind.VERBS, String.join(", ", verbsOnly) + " given; " + host.reason());
    }

    /**
     * @param flag  a flag as the user writes it, e.g. {@code -d}
     * @param value its value, or null when not given
     * @return the flag and its value as one entry, or no entry when not given (for {@link #choose}'s lists)
     */
    public static List<String> given(String flag, Object value) {
        return value == null ? List.of() : List.of(flag + " " + value);
    }

    /** @return the reason without its {@code "default: "} prefix */
    public String why() {
        return reason.startsWith(DEFAULT) ? reason.substring(DEFAULT.length()) : reason;
    }

    /**
     * Says on standard error that the default fell back to the simulator, and why; nothing otherwise.
     *
     * @param err standard error
     */
    public void announce(PrintWriter err) {
        if (fellBack) {
            err.println("remus: " + why() + ": running on the simulator (use --fabric verbs to require RDMA, "
                    + "--fabric sim to choose the simulator)");
            err.flush();
        }
    }

    /** @return the fabric's name as the flag spells it */
    public String name() {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    private static FabricChoice requested(FabricKind kind) {
        return new FabricChoice(kind, "--fabric " + kind.name().toLowerCase(Locale.ROOT));
    }

    private static FabricChoice fallback(String why) {
        return new FabricChoice(FabricKind.SIM, DEFAULT + why, true);
    }
}
