package io.remus.tools.cli;

import io.remus.tools.Remus;
import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * One in-process run of the {@code remus} command with the host's default fabric and standard output
 * given: the seams through which these tests play a host without an RDMA stack and a standard output
 * that fails.
 *
 * @param exit the exit status
 * @param out  what reached standard output
 * @param err  what went to standard error
 */
record ToolRun(int exit, String out, String err) {
    /** A host that lists no RDMA device. */
    static final Supplier<FabricChoice> NO_DEVICE = () -> FabricChoice.detect(java.util.List::of);

    /**
     * @param host what the host offers without {@code --fabric}
     * @param args the command line
     * @return the run
     */
    static ToolRun of(Supplier<FabricChoice> host, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Remus.commandLine(host);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new ToolRun(exit, out.toString(), err.toString());
    }

    /**
     * @param stdout where standard output goes, through a writer that, like the tool's own, records write errors
     * @param extra  a further top-level command, or null: name and command (tests of the failure handling)
     * @param args   the command line
     * @return the run; {@link #out} is empty
     */
    static ToolRun withStdout(OutputStream stdout, Object[] extra, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cmd = Remus.commandLine(NO_DEVICE);
        if (extra != null) {
            cmd.addSubcommand((String) extra[0], extra[1]);
        }
        cmd.setOut(new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new ToolRun(exit, "", err.toString());
    }

    /** @return the lines written to standard error */
    java.util.List<String> errLines() {
        return err.lines().toList();
    }

    /** A standard output whose every write fails, as a full disk or a closed pipe does. */
    static final class FailingStream extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            throw new IOException("No space left on device");
        }
    }

    /** A command that throws what it is given. */
    @CommandLine.Command(name = "fail")
    static final class Failing implements Callable<Integer> {
        private final Throwable failure;

        Failing(Throwable failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() throws Exception {
            if (failure instanceof Exception e) {
                throw e;
            }
            throw (Error) failure;
        }
    }
}
