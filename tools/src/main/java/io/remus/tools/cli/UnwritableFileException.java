package io.remus.tools.cli;

import java.io.IOException;
import java.nio.file.Path;

/** A file an option names cannot be written ({@link OutputFiles}); the message names the option and the path. */
public final class UnwritableFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String option;

    /**
     * @param option the option, e.g. {@code --hgrm}
     * @param path   the file
     * @param why    why it cannot be written, e.g. "is a directory"
     */
    public UnwritableFileException(String option, Path path, String why) {
        super(option + " " + path + ": " + why);
        this.option = option;
    }

    /** @return the option that names the file */
    public String option() {
        return option;
    }
}
