package io.remus.tools.cli;

import picocli.CommandLine.Option;

/** {@code --json}, a picocli mixin shared by the commands that print their report as one JSON object instead of text. */
public final class JsonOption {
    @Option(names = "--json", description = "Print the report as one JSON object.")
    boolean json;
}
