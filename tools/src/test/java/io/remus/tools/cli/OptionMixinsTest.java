package io.remus.tools.cli;

import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The options that several {@code remus} commands take are each declared once, in a picocli mixin, and every
 * such mixin refuses a bad value in each command that uses it with the same error.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OptionMixinsTest {
    /** One option of one command and the class that declares it (a mixin, or the command itself). */
    private record Declared(String command, OptionSpec option, Class<?> owner) {
        /** @return what the user sees of the option: names, label, default, arity, type and help text */
        String signature() {
            return Arrays.toString(option.names()) + " " + option.paramLabel() + " " + option.defaultValue() + " "
                    + option.arity() + " " + option.type().getName() + " " + String.join(" ", option.description());
        }
    }

    @Test
    void shouldDeclareEveryOptionThatSeveralCommandsShareInOneClass() {
        Map<String, Set<Class<?>>> owners = new LinkedHashMap<>();
        Map<String, Set<String>> commands = new LinkedHashMap<>();
        for (Declared d : declared()) {
            owners.computeIfAbsent(d.signature(), k -> new LinkedHashSet<>()).add(d.owner());
            commands.computeIfAbsent(d.signature(), k -> new TreeSet<>()).add(d.command());
        }
        List<String> repeated = new ArrayList<>();
        owners.forEach((signature, classes) -> {
            if (classes.size() > 1) {
                repeated.add(signature + " declared in " + classes + " for " + commands.get(signature));
            }
        });
        assertEquals(List.of(), repeated);
    }

    /**
     * The names that two classes declare, each for two different options: {@code --json} is a flag that prints
     * JSON instead of text, or {@code --json FILE} that also writes it (a flag that took an optional file would
     * swallow the perftest-style client's server address); {@code experiment numa}'s {@code --size} is MiB of
     * memory per node, and its {@code -n} is {@code --steps}, not {@code --iters}; {@code experiment sharing}'s and
     * {@code kv}'s {@code --fabric} defaults to sim and refuses another value with their own message, where the
     * other commands' is an enum that picocli checks as it parses (before it refuses a repeated option);
     * {@code serve memcached}'s {@code --port} is the memcached port its nodes serve (perftest's is the connection
     * exchange's), its {@code --duration} how long a server runs, unset to serve until stopped (the benchmarks' is a
     * measured run's length), its {@code --nodes} defaults to 3 (the benchmarks' to 2) and its {@code --shards} default
     * and limit follow its {@code --engine} (bench index's are replica groups of its own count and placement).
     */
    private static final Set<String> SAME_NAME_OTHER_OPTION = new TreeSet<>(List.of("--duration", "--fabric", "--json",
            "--nodes", "--port", "--shards", "--size", "-n"));

    @Test
    void shouldDeclareEveryOptionNameInOneClass() {
        Map<String, Set<String>> declarers = new LinkedHashMap<>();
        for (Declared d : declared()) {
            for (String name : d.option().names()) {
                declarers.computeIfAbsent(name, k -> new TreeSet<>()).add(declaringClass(d).getSimpleName());
            }
        }
        Map<String, Set<String>> repeated = new java.util.TreeMap<>();
        declarers.forEach((name, classes) -> {
            if (classes.size() > 1) {
                repeated.put(name, classes);
            }
        });
        assertEquals(SAME_NAME_OTHER_OPTION, repeated.keySet(), repeated.toString());
    }

    @Test
    void shouldTakeFabricDeviceSimAndJsonOptionsFromTheirMixins() {
        Map<Class<?>, Set<String>> users = new LinkedHashMap<>();
        for (Declared d : declared()) {
            users.computeIfAbsent(d.owner(), k -> new TreeSet<>()).add(d.command() + " " + d.option().longestName());
        }
        Set<String> fabric = users.get(FabricOption.class);
        for (String c : List.of("bench object", "bench lock", "bench reclaim", "bench ds", "bench rpc-lat", "bench send-lat",
                "bench read-bw", "bench atomic-lat", "experiment loopback")) {
            assertTrue(fabric.contains(c + " --fabric"), c + ": " + fabric);
        }
        Set<String> device = users.get(DeviceOption.class);
        for (String c : List.of("bench object", "bench lock", "bench reclaim", "bench ds", "bench rpc-lat",
                "experiment sharing", "experiment kv")) {
            assertTrue(device.contains(c + " --ib-dev"), c + ": " + device);
        }
        Set<String> simCost = users.get(SimCostOption.class);
        for (String c : List.of("bench object", "bench lock", "bench reclaim", "bench ds", "bench rpc-lat", "bench write-lat")) {
            assertTrue(simCost.contains(c + " --sim-cost"), c + ": " + simCost);
        }
        assertEquals(Set.of("bench lock --sim-latency-ns", "bench atomic-bw --sim-latency-ns", "bench atomic-lat --sim-latency-ns",
                        "bench read-bw --sim-latency-ns", "bench read-lat --sim-latency-ns", "bench send-bw --sim-latency-ns",
                        "bench send-lat --sim-latency-ns", "bench write-bw --sim-latency-ns", "bench write-lat --sim-latency-ns"),
                users.get(SimLatencyOption.class));
        assertTrue(users.get(JsonOption.class).containsAll(List.of("bench object --json", "bench lock --json",
                "bench send-lat --json", "experiment sharing --json")), users.get(JsonOption.class).toString());
        assertEquals(Set.of("bench ds --json", "experiment kv --json"), users.get(JsonFileOption.class));
        assertTrue(device.containsAll(List.of("experiment loopback --ib-dev", "experiment numa --ib-dev", "devices --ib-dev",
                "bench read-lat --ib-dev")), device.toString());
        assertTrue(users.get(SharedOptions.PlotOption.class).containsAll(List.of("experiment loopback --plot",
                "experiment numa --plot", "bench ds --plot", "bench reclaim --plot", "experiment kv --plot")),
                users.get(SharedOptions.PlotOption.class).toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bench rpc-lat --fabric=ethernet|2|Invalid value for option '--fabric': expected one of [VERBS, SIM, SHM] (case-insensitive) but was 'ethernet'",
            "bench lock --fabric=ethernet|2|Invalid value for option '--fabric': expected one of [VERBS, SIM, SHM] (case-insensitive) but was 'ethernet'",
            "experiment loopback --fabric=ethernet|2|Invalid value for option '--fabric': expected one of [VERBS, SIM, SHM] (case-insensitive) but was 'ethernet'",
            "bench object --fabric=sim -d mlx5_0|2|-d mlx5_0: verbs only; this run is on --fabric sim",
            "bench reclaim --fabric=sim -d mlx5_0|2|-d mlx5_0: verbs only; this run is on --fabric sim",
            "experiment sharing --fabric sim -d mlx5_0|2|-d mlx5_0 is for --fabric verbs only; this run is on sim",
            "bench rpc-lat --fabric=sim --sim-cost=cx9|2|--sim-cost: no simulator cost model named 'cx9'; presets: [none, connectx3, connectx5, connectx6]",
            "bench ds --fabric=sim --sim-cost=cx9|2|--sim-cost: no simulator cost model named 'cx9'; presets: [none, connectx3, connectx5, connectx6]",
            "bench lock --sim-latency-ns=-1|2|--sim-latency-ns must not be negative, got -1",
            "bench send-lat --sim-latency-ns=abc|2|Invalid value for option '--sim-latency-ns': 'abc' is not a long",
            "bench send-lat --json --perftest-format|2|--json and --perftest-format exclude each other",
            "experiment kv --fabric sim --json /nonexistent/dir/x.json|1|remus: --json /nonexistent/dir/x.json: cannot be created: /nonexistent/dir does not exist",
            "bench ds --fabric sim --json /nonexistent/x.json|1|remus: --json /nonexistent/x.json: cannot be created: /nonexistent does not exist",
            "experiment numa --no-rdma -d mlx5_0|2|--no-rdma excludes --fabric and -d",
            "experiment loopback --fabric sim --plot /nonexistent/x.png|1|remus: --plot /nonexistent/x.png: cannot be created: /nonexistent does not exist"})
    void shouldRefuseABadValueOfASharedOptionWithTheCommandsError(String args, int exit, String firstLine) {
        RemusRun r = RemusRun.of(args.split(" "));
        assertEquals(exit, r.exit(), r.err());
        assertEquals(firstLine, r.errLines().getFirst(), r.err());
    }

    /** @return every option of every command of {@code remus}, with the class that declares it */
    private static List<Declared> declared() {
        List<Declared> all = new ArrayList<>();
        collect(Remus.commandLine(ToolRun.NO_DEVICE).getCommandSpec(), all);
        return all;
    }

    private static void collect(CommandSpec command, List<Declared> into) {
        String name = command.qualifiedName(" ").replaceFirst("^remus ?", "");
        for (OptionSpec option : command.options()) {
            if (!option.usageHelp() && !option.versionHelp()) {
                into.add(new Declared(name, option, owner(command, option)));
            }
        }
        for (var sub : command.subcommands().values()) {
            collect(sub.getCommandSpec(), into);
        }
    }

    /** @return the class whose field or method carries the option's annotation */
    private static Class<?> declaringClass(Declared d) {
        return d.option().userObject() instanceof Member m ? m.getDeclaringClass() : d.owner();
    }

    /** @return the class of the innermost mixin that holds {@code option}, or the command's own class */
    private static Class<?> owner(CommandSpec spec, OptionSpec option) {
        for (CommandSpec mixin : spec.mixins().values()) {
            if (mixin.options().stream().anyMatch(o -> o == option)) {
                return owner(mixin, option);
            }
        }
        return spec.userObject().getClass();
    }
}
