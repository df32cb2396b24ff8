package io.remus.tools;

import io.remus.bench.perftest.BenchFailedException;
import io.remus.core.error.RemusException;
import io.remus.tools.cli.BenchCommand;
import io.remus.tools.cli.DevicesCommand;
import io.remus.tools.cli.ExperimentCommand;
import io.remus.bench.perftest.FabricChoice;
import io.remus.tools.cli.PlotCommand;
import io.remus.tools.cli.ServeCommand;
import io.remus.tools.cli.ServeMemcachedCommand;
import io.remus.verbs.Device;
import io.remus.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The {@code remus} command: {@code devices}, {@code bench}, {@code experiment}, {@code plot}, {@code serve}. Exit
 * status 0 on success, 1 when a run fails, 2 for bad flags (with usage). A failure is one line on
 * standard error, {@code remus: } and what failed, naming the value or file at fault: an I/O error
 * anywhere (an unwritable {@code --hgrm}, standard output closed or full) as much as a failed run.
 * Only a defect of the tool itself adds a stack trace.
 */
@Command(name = "remus", mixinStandardHelpOptions = true, version = "remus 0.1.0-SNAPSHOT",
        description = "RDMA for Java: devices, perftest-style benchmarks, experiments.")
public final class Remus {
    private Remus() {
    }

    /**
     * Runs the command and exits the JVM with its status. Standard output is written through a
     * stream that reports write errors, so that output lost to a closed pipe or a full disk is a
     * failure, not a silent success.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        CommandLine cmd = commandLine(() -> FabricChoice.detect(Device::list));
        cmd.setOut(new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
                System.out.charset()), true));
        System.exit(cmd.execute(args));
    }

    /**
     * Builds the command line from a device count; tests run it in-process with their own output writers.
     *
     * @param deviceCount how many RDMA devices this host has (-1 when unknown), for default fabrics
     * @return the command line, ready to {@link CommandLine#execute(String...)}
     */
    public static CommandLine commandLine(IntSupplier deviceCount) {
        return commandLine(() -> FabricChoice.resolve(null, deviceCount.getAsInt()));
    }

    /**
     * Builds the command line; tests run it in-process with their own output writers.
     *
     * @param hostFabric the fabric a command runs on without {@code --fabric} and why
     *                   ({@link FabricChoice#detect}); asked only by a command that needs it
     * @return the command line, ready to {@link CommandLine#execute(String...)}
     */
    public static CommandLine commandLine(Supplier<FabricChoice> hostFabric) {
        CommandLine top = new CommandLine(new Remus());
        top.addSubcommand("devices", new DevicesCommand());
        BenchCommand.register(top, hostFabric);
        top.addSubcommand("experiment", ExperimentCommand.commandLine(hostFabric));
        top.addSubcommand("plot", new PlotCommand());
        top.addSubcommand("serve", new CommandLine(new ServeCommand()).addSubcommand("memcached", new ServeMemcachedCommand()));
        top.setCaseInsensitiveEnumValuesAllowed(true);
        top.setExecutionStrategy(Remus::execute);
        top.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            String message = message(e);
            if (message != null) {
                err.println("remus: " + message);
            } else {
                err.println("remus: unexpected failure");
                e.printStackTrace(err);
            }
            err.flush();
            return 1;
        });
        return top;
    }

    /**
     * Runs the command, then checks that all its output reached standard output: a write error there
     * (a closed pipe, a full disk) turns a success into exit status 1 with a message.
     */
    private static int execute(CommandLine.ParseResult parsed) {
        CommandLine top = parsed.commandSpec().commandLine();
        int status;
        try {
            status = new CommandLine.RunLast().execute(parsed);
        } catch (LinkageError e) {
            // picocli passes errors through; a binding that failed to load is a failure with a message
            throw new CommandLine.ExecutionException(top, "the RDMA stack failed to load", e);
        }
        PrintWriter out = top.getOut();
        out.flush();
        if (out.checkError()) {
            PrintWriter err = top.getErr();
            err.println("remus: cannot write to standard output (closed, full, or a broken pipe): the output is "
                    + "incomplete");
            err.flush();
            return status == 0 ? 1 : status;
        }
        return status;
    }

    /**
     * @param failure what a command threw
     * @return the one line that says what failed, or null for a defect of the tool (then a stack trace follows)
     */
    static String message(Throwable failure) {
        Throwable e = failure instanceof CommandLine.ExecutionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (e instanceof BenchFailedException || e instanceof RemusException || e instanceof VerbsException) {
            return e.getMessage();
        }
        if (e instanceof IOException io) {
            return describe(io);
        }
        if (e instanceof UncheckedIOException u) {
            return describe(u.getCause());
        }
        if (e instanceof LinkageError && fromVerbs(e)) {
            return "no RDMA stack: " + FabricChoice.stackFailure(e);
        }
        return null;
    }

    private static boolean fromVerbs(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof VerbsException || t instanceof UnsatisfiedLinkError
                    || (t.getMessage() != null && t.getMessage().contains("io.remus.verbs"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param e an I/O error
     * @return what failed and on which file, in words
     */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException f) {
            return f.getFile() + ": no such file or directory";
        }
        if (e instanceof AccessDeniedException f) {
            return f.getFile() + ": permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getFile() + ": " + f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
