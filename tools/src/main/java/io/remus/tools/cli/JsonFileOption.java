package io.remus.tools.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --json FILE}, a picocli mixin shared by the commands that print text and also write their report as
 * one JSON object to a file; the command checks the file with {@link OutputFiles} before it runs.
 */
public final class JsonFileOption {
    @Option(names = "--json", paramLabel = "FILE", description = "Also write the report as one JSON object to FILE.")
    Path json;
}
