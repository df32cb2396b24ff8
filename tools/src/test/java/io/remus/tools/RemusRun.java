package io.remus.tools;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One in-process run of the {@code remus} command, on a host that reports no RDMA devices.
 *
 * @param exit the exit status
 * @param out  what went to standard output
 * @param err  what went to standard error
 */
public record RemusRun(int exit, String out, String err) {
    /**
     * @param args the command line
     * @return the run
     */
    public static RemusRun of(String... args) {
        CommandLine cmd = Remus.commandLine(() -> 0);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new RemusRun(exit, out.toString(), err.toString());
    }
}
