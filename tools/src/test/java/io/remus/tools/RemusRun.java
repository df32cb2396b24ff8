package io.remus.tools;

import io.remus.bench.perftest.FabricChoice;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Supplier;

/**
 * One in-process run of the {@code remus} command (or of one of its subcommands), with what it wrote
 * to standard output and standard error and its exit status: the one place the tools' tests capture a run.
 *
 * @param exit the exit status
 * @param out  what went to standard output (empty when the test gave its own standard output)
 * @param err  what went to standard error
 */
public record RemusRun(int exit, String out, String err) {
    /**
     * Runs on a host that reports no RDMA devices.
     *
     * @param args the command line
     * @return the run
     */
    public static RemusRun of(String... args) {
        return ofCommand(Remus.commandLine(() -> 0), args);
    }

    /**
     * Runs on a host whose default fabric is {@code host}.
     *
     * @param host what the host offers without {@code --fabric}
     * @param args the command line
     * @return the run
     */
    public static RemusRun of(Supplier<FabricChoice> host, String... args) {
        return ofCommand(Remus.commandLine(host), args);
    }

    /**
     * Runs a command line the test built, capturing its standard output and standard error.
     *
     * @param cmd  the command line
     * @param args its arguments
     * @return the run
     */
    public static RemusRun ofCommand(CommandLine cmd, String... args) {
        StringWriter out = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        RemusRun run = withStdout(cmd, args);
        return new RemusRun(run.exit(), out.toString(), run.err());
    }

    /**
     * Runs a command line whose standard output the test has set ({@link CommandLine#setOut}),
     * capturing standard error only.
     *
     * @param cmd  the command line, its standard output set
     * @param args its arguments
     * @return the run; {@link #out} is empty
     */
    public static RemusRun withStdout(CommandLine cmd, String... args) {
        StringWriter err = new StringWriter();
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new RemusRun(exit, "", err.toString());
    }

    /** @return the lines written to standard error */
    public List<String> errLines() {
        return err.lines().toList();
    }
}
