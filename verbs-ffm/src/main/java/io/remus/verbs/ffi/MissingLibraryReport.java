package io.remus.verbs.ffi;

/**
 * How a missing native library or symbol reaches the caller: the exception the raw layer throws
 * for it, with the message it wrote (the library, the symbol where one is missing, the system
 * property that overrides the library's path and the Debian package that provides it).
 *
 * <p>The verbs layer provides one (see {@code module-info.java} and
 * {@code META-INF/services}) so that its users catch one typed exception of the verbs API.
 * Without a provider the raw layer throws {@link IllegalStateException} with the same message.
 */
public interface MissingLibraryReport {
    /**
     * @param message what could not be loaded or found, and how to fix it
     * @param cause   the loader's failure, or {@code null} where a symbol is missing
     * @return a new exception to throw
     */
    RuntimeException exception(String message, Throwable cause);
}
