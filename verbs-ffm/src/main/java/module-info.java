/**
 * FFM binding to libibverbs and librdmacm.
 *
 * <p>{@code io.remus.verbs} is the verbs API in plain English names. {@code io.remus.verbs.ffi},
 * the raw layer in C names (jextract's output shape), is internal: not exported.
 *
 * <p>This module makes the downcalls: an application on the module path grants it native access
 * by name ({@code --enable-native-access=io.remus.verbs}); one on the class path grants
 * {@code ALL-UNNAMED}.
 *
 * <p>The raw layer does not depend on the verbs layer: it reports a missing native library through
 * the {@code MissingLibraryReport} service, which this module provides with the verbs layer's
 * {@code NativeLibraryMissingException}.
 */
module io.remus.verbs {
    exports io.remus.verbs;

    uses io.remus.verbs.ffi.MissingLibraryReport;
    provides io.remus.verbs.ffi.MissingLibraryReport with io.remus.verbs.internal.MissingLibraryReports;
}
