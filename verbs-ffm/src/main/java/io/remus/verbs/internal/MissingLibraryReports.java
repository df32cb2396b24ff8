package io.remus.verbs.internal;

import io.remus.verbs.NativeLibraryMissingException;
import io.remus.verbs.ffi.MissingLibraryReport;

/**
 * The verbs layer's {@link MissingLibraryReport}: the raw layer reports a missing native library or symbol as a
 * {@link NativeLibraryMissingException}, the verbs API's typed error, through this service (declared in
 * {@code module-info.java} and {@code META-INF/services}).
 */
public final class MissingLibraryReports implements MissingLibraryReport {
    /** Creates the provider (the service loader calls this). */
    public MissingLibraryReports() {
    }

    @Override
    public RuntimeException exception(String message, Throwable cause) {
        return new NativeLibraryMissingException(message, cause);
    }
}
