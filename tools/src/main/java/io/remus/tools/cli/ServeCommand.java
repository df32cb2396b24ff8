package io.remus.tools.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code remus serve}: protocol front ends over the library's data structures; {@code memcached} is the one there is. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve a network protocol over Remus data structures: memcached.")
public final class ServeCommand implements Runnable {
    /** Empty: picocli fills the fields. */
    public ServeCommand() {
    }

    @Spec
    CommandSpec spec;

    /** Without a protocol: a usage error naming the one there is. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a protocol: remus serve memcached");
    }
}
