package io.remus.tools.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files a command will write ({@code --hgrm}, {@code --csv}, {@code --interval-log},
 * {@code --plot}), checked before it runs: a run of minutes must not end in "cannot write". A
 * command adds each option it was given ({@link #add}) and calls {@link #check()} before its run.
 * The check leaves no trace ({@link #checkWritable}).
 */
public final class OutputFiles {
    private final Map<String, Path> files = new LinkedHashMap<>();

    /**
     * @param option the option that names the file, e.g. {@code --hgrm}
     * @param path   the file, or null when the option was not given (then nothing is added)
     * @return this
     */
    public OutputFiles add(String option, Path path) {
        if (path != null) {
            files.put(option, path);
        }
        return this;
    }

    /**
     * Checks every file added.
     *
     * @throws UnwritableFileException naming the first option whose file cannot be written, and why
     */
    public void check() throws UnwritableFileException {
        for (Map.Entry<String, Path> e : files.entrySet()) {
            checkWritable(e.getKey(), e.getValue());
        }
    }

    /**
     * Checks that {@code path} can be written by writing nothing to it: a file that exists is opened for
     * appending and closed (its content unchanged); one that does not is created and deleted again. A
     * real open, not a permission test, so that a read-only file system, a full {@code /proc} or a
     * missing directory are found whoever runs the tool. A file that exists and is not a regular file (a
     * named pipe, a device such as {@code /dev/null}) is only checked for write permission: opening a
     * pipe that has no reader yet would block the check.
     *
     * @param option the option that names the file, for the message
     * @param path   the file
     * @throws UnwritableFileException naming the option and the path when it cannot be written, and why
     */
    public static void checkWritable(String option, Path path) throws UnwritableFileException {
        if (Files.isDirectory(path)) {
            throw new UnwritableFileException(option, path, "is a directory");
        }
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UnwritableFileException(option, path, "cannot be created: " + parent
                    + (Files.exists(parent) ? " is not a directory" : " does not exist"));
        }
        boolean existed = Files.exists(path);
        if (existed && !Files.isRegularFile(path)) {
            if (!Files.isWritable(path)) {
                throw new UnwritableFileException(option, path, "permission denied");
            }
            return;
        }
        try {
            Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.APPEND).close();
            if (!existed) {
                Files.deleteIfExists(path);
            }
        } catch (AccessDeniedException e) {
            throw new UnwritableFileException(option, path, "permission denied");
        } catch (NoSuchFileException e) {
            throw new UnwritableFileException(option, path, "cannot be created (no such file or directory)");
        } catch (FileSystemException e) {
            throw new UnwritableFileException(option, path, e.getReason() != null ? e.getReason()
                    : "cannot be written (" + e.getClass().getSimpleName() + ")");
        } catch (IOException e) {
            throw new UnwritableFileException(option, path, e.getMessage() != null ? e.getMessage() : "cannot be written");
        }
    }
}
