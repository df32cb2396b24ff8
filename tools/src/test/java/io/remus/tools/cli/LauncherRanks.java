package io.remus.tools.cli;

import io.remus.core.RemusCluster;
import io.remus.core.sim.SimFabric;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a multi-node benchmark command as the processes of one cluster under a launcher, in one JVM:
 * one command per rank, each on its own thread with an Open MPI rank in its environment, all joining
 * one shared simulator fabric.
 */
final class LauncherRanks {
    /** Makes a command with its environment and join settings. */
    interface Factory {
        /**
         * @param environment the command's environment
         * @param joinSetup   what the command applies to its join's builder
         * @return the command
         */
        Object command(Map<String, String> environment, UnaryOperator<RemusCluster.Builder> joinSetup);
    }

    /**
     * What one command left.
     *
     * @param exit its exit status
     * @param out  its standard output
     * @param err  its standard error
     */
    record Run(int exit, String out, String err) {
    }

    private LauncherRanks() {
    }

    /**
     * Runs one command on this thread.
     *
     * @param factory makes the command
     * @param fabric  the fabric its join uses
     * @param env     its environment
     * @param args    its arguments
     * @return what it left
     */
    static Run run(Factory factory, SimFabric fabric, Map<String, String> env, String... args) {
        CommandLine cmd = new CommandLine(factory.command(env, b -> b.fabric(fabric)));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /**
     * Runs {@code n} commands as ranks {@code 0..n-1} of one launch ({@code REMUS_NODES} names three
     * nodes), each on its own thread, and waits up to 150 s for each.
     *
     * @param factory makes the commands
     * @param fabric  the fabric they join
     * @param n       the ranks
     * @param args    every command's arguments
     * @return what each left, by rank
     * @throws Exception when a command did not finish in time
     */
    static List<Run> onRanks(Factory factory, SimFabric fabric, int n, String... args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Run>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Map<String, String> env = Map.of("OMPI_COMM_WORLD_RANK", Integer.toString(i),
                        "OMPI_COMM_WORLD_SIZE", Integer.toString(n), "REMUS_NODES", "a,b,c");
                futures.add(pool.submit(() -> run(factory, fabric, env, args)));
            }
            List<Run> runs = new ArrayList<>();
            for (Future<Run> f : futures) {
                runs.add(f.get(150, TimeUnit.SECONDS));
            }
            return runs;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * @param json a JSON report
     * @param key  a key whose values are whole numbers
     * @return every value of that key, in order
     */
    static List<Long> numbers(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":([0-9]+)").matcher(json);
        List<Long> found = new ArrayList<>();
        while (m.find()) {
            found.add(Long.parseLong(m.group(1)));
        }
        return found;
    }
}
