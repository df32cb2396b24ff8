package io.remus.tools;

import io.remus.core.RemusException;
import io.remus.tools.bench.BenchFailedException;
import io.remus.tools.cli.BenchCommand;
import io.remus.tools.cli.ExperimentCommand;
import io.remus.tools.cli.DevicesCommand;
import io.remus.tools.cli.PlotCommand;
import io.remus.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.function.IntSupplier;

/**
 * The {@code remus} command: {@code devices}, {@code bench}, {@code experiment}. Exit status 0 on
 * success, 1 when a run fails (the message says why), 2 for bad flags (with usage).
 */
@Command(name = "remus", mixinStandardHelpOptions = true, version = "remus 0.1.0-SNAPSHOT",
        description = "RDMA for Java: devices, perftest-style benchmarks, experiments.")
public final class Remus {
    private Remus() {
    }

    /**
     * Runs the command and exits the JVM with its status.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(commandLine(DevicesCommand::count).execute(args));
    }

    /**
     * Builds the command line; tests run it in-process with their own output writers.
     *
     * @param deviceCount how many RDMA devices this host has (-1 when unknown), for default fabrics
     * @return the command line, ready to {@link CommandLine#execute(String...)}
     */
    public static CommandLine commandLine(IntSupplier deviceCount) {
        CommandLine top = new CommandLine(new Remus());
        top.addSubcommand("devices", new DevicesCommand());
        BenchCommand.register(top, deviceCount);
        top.addSubcommand("experiment", ExperimentCommand.commandLine(deviceCount));
        top.addSubcommand("plot", new PlotCommand());
        top.setCaseInsensitiveEnumValuesAllowed(true);
        top.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            if (e instanceof BenchFailedException || e instanceof RemusException || e instanceof VerbsException) {
                err.println("remus: " + e.getMessage());
            } else {
                err.println("remus: unexpected failure");
                e.printStackTrace(err);
            }
            err.flush();
            return 1;
        });
        return top;
    }
}
