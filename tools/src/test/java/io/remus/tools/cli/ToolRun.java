package io.remus.tools.cli;

import io.remus.bench.perftest.FabricChoice;
import io.remus.tools.Remus;
import io.remus.tools.RemusRun;
import picocli.CommandLine;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Helpers for in-process runs of the {@code remus} command ({@link RemusRun} captures them): the seams
 * through which these tests play a host without an RDMA stack and a standard output that fails.
 */
final class ToolRun {
    /** A host that lists no RDMA device. */
    static final Supplier<FabricChoice> NO_DEVICE = () -> FabricChoice.detect(java.util.List::of);

    private ToolRun() {
    }

    /**
     * @param stdout where standard output goes, through a writer that, like the tool's own, records write errors
     * @param extra  a further top-level command, or null: name and command (tests of the failure handling)
     * @param args   the command line
     * @return the run; {@link RemusRun#out} is empty
     */
    static RemusRun withStdout(OutputStream stdout, Object[] extra, String... args) {
        CommandLine cmd = Remus.commandLine(NO_DEVICE);
        if (extra != null) {
            cmd.addSubcommand((String) extra[0], extra[1]);
        }
        cmd.setOut(new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true));
        return RemusRun.withStdout(cmd, args);
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
