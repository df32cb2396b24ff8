package io.remus.verbs;

/**
 * A native library the binding needs (libibverbs or librdmacm) could not be loaded.
 *
 * <p>The message names the library, the system property that overrides its path and the
 * Debian package that provides it.
 */
public final class NativeLibraryMissingException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message and the loader's failure.
     *
     * @param message what could not be loaded and how to fix it
     * @param cause   the loader's failure
     */
    public NativeLibraryMissingException(String message, Throwable cause) {
        super(message, cause);
    }
}
