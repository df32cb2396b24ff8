package io.remus.verbs.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * Loads libibverbs and librdmacm, once, in one place.
 *
 * <p>The versioned sonames ({@code libibverbs.so.1}, {@code librdmacm.so.1}) are used: the
 * unversioned names exist only where the -dev packages are installed. A path or name can be
 * forced with the system properties {@value #IBVERBS_PROPERTY} and {@value #RDMACM_PROPERTY}
 * (read on first use).
 *
 * <p>Nothing here runs in a static initializer that can fail. A library that cannot be loaded,
 * or that loads but lacks a symbol the binding needs, is an exception built by the
 * {@link MissingLibraryReport} the verbs layer provides (its {@code NativeLibraryMissingException})
 * naming the library, the override and the Debian package; the failure is remembered, and every
 * later call gets a new exception with the same message (never {@code ExceptionInInitializerError}
 * or {@code NoClassDefFoundError}).
 */
public final class NativeLibraries {
    /** System property overriding the libibverbs name or path. */
    public static final String IBVERBS_PROPERTY = "remus.libibverbs";
    /** System property overriding the librdmacm name or path. */
    public static final String RDMACM_PROPERTY = "remus.librdmacm";

    private static final Library IBVERBS = new Library(IBVERBS_PROPERTY, "libibverbs.so.1",
            "libibverbs1 ibverbs-providers (source package rdma-core)", "ibv_get_device_list");
    private static final Library RDMACM = new Library(RDMACM_PROPERTY, "librdmacm.so.1",
            "librdmacm1 (source package rdma-core)", "rdma_create_event_channel");

    private NativeLibraries() {
    }

    /** {@return libibverbs, as a {@link Library} (for messages about its symbols)} */
    public static Library ibverbsLibrary() {
        return IBVERBS;
    }

    /** {@return librdmacm, as a {@link Library} (for messages about its symbols)} */
    public static Library rdmacmLibrary() {
        return RDMACM;
    }

    /**
     * Checks that libibverbs loads and exports the verbs (its {@code ibv_get_device_list}).
     *
     * @throws RuntimeException the {@link MissingLibraryReport}'s exception if not, naming the
     *                          library and the package
     */
    public static void requireIbverbs() {
        IBVERBS.find(IBVERBS.probeSymbol);
    }

    /** {@return whether libibverbs can be loaded on this host and exports the verbs} */
    public static boolean ibverbsAvailable() {
        return IBVERBS.missing(IBVERBS.probeSymbol) == null;
    }

    /**
     * Why a library or one of its symbols cannot be used: the message and the loader's failure
     * ({@code null} where the library loaded but lacks the symbol).
     */
    record Missing(String message, Throwable cause) {
        /** {@return a new exception for it, built by the {@link MissingLibraryReport}} */
        RuntimeException exception() {
            return Report.REPORT.exception(message, cause);
        }
    }

    /** The {@link MissingLibraryReport} provided by the verbs layer, found on first failure. */
    private static final class Report {
        static final MissingLibraryReport REPORT = ServiceLoader
                .load(MissingLibraryReport.class, NativeLibraries.class.getClassLoader())
                .findFirst()
                .orElse(IllegalStateException::new);
    }

    /**
     * One native library, loaded on first use. A failure is remembered and each later call
     * throws a new exception (the {@link MissingLibraryReport}'s) with the same message and cause.
     */
    public static final class Library implements Supplier<SymbolLookup> {
        private final String property;
        private final String soname;
        private final String debianPackage;
        private final String probeSymbol;
        private SymbolLookup lookup;
        private String loadedName;
        private Missing failure;

        Library(String property, String soname, String debianPackage, String probeSymbol) {
            this.property = property;
            this.soname = soname;
            this.debianPackage = debianPackage;
            this.probeSymbol = probeSymbol;
        }

        /**
         * {@return the library's symbols}
         * @throws RuntimeException the {@link MissingLibraryReport}'s exception if it cannot be
         *                          loaded (every time, not only the first)
         */
        @Override
        public synchronized SymbolLookup get() {
            Missing missing = load();
            if (missing != null) {
                throw missing.exception();
            }
            return lookup;
        }

        /**
         * @param symbol a C symbol
         * @return its address
         * @throws RuntimeException the {@link MissingLibraryReport}'s exception if the library
         *                          cannot be loaded or lacks the symbol
         */
        public MemorySegment find(String symbol) {
            Missing missing = missing(symbol);
            if (missing != null) {
                throw missing.exception();
            }
            return get().find(symbol).orElseThrow();
        }

        /**
         * @param symbol a C symbol
         * @return why it cannot be used, or {@code null} where the library loads and exports it
         */
        Missing missing(String symbol) {
            Missing missing = load();
            if (missing != null) {
                return missing;
            }
            return get().find(symbol).isPresent() ? null : missingSymbol(symbol);
        }

        @Override
        public String toString() {
            return soname;
        }

        /** Loads the library on first use; {@return why it cannot be loaded, or {@code null}} */
        private synchronized Missing load() {
            if (lookup == null && failure == null) {
                String name = System.getProperty(property, soname);
                try {
                    lookup = SymbolLookup.libraryLookup(name, Arena.global());
                    loadedName = name;
                } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
                    failure = new Missing("cannot load " + name + advice(), e);
                }
            }
            return failure;
        }

        private synchronized Missing missingSymbol(String symbol) {
            String name = loadedName == null ? soname : loadedName;
            String what = name.equals(soname) ? name : name + " (loaded as " + soname + ")";
            return new Missing(what + " has no symbol " + symbol
                    + ": it is not " + soname + " or it is too old" + advice(), null);
        }

        private String advice() {
            String override = System.getProperty(property);
            return " (" + (override == null ? "override with -D" + property + "=/path/to/" + soname
                    : "set by -D" + property + "=" + override)
                    + "; on Debian/Ubuntu: apt-get install " + debianPackage + ")";
        }
    }
}
