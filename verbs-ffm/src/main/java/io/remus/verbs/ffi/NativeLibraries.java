package io.remus.verbs.ffi;

import io.remus.verbs.NativeLibraryMissingException;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;

/**
 * Loads libibverbs and librdmacm, once, in one place.
 *
 * <p>The versioned sonames ({@code libibverbs.so.1}, {@code librdmacm.so.1}) are used: the
 * unversioned names exist only where the -dev packages are installed. A path or name can be
 * forced with the system properties {@value #IBVERBS_PROPERTY} and {@value #RDMACM_PROPERTY}.
 */
public final class NativeLibraries {
    /** System property overriding the libibverbs name or path. */
    public static final String IBVERBS_PROPERTY = "remus.libibverbs";
    /** System property overriding the librdmacm name or path. */
    public static final String RDMACM_PROPERTY = "remus.librdmacm";

    private NativeLibraries() {
    }

    /** @return libibverbs' symbols; throws {@link NativeLibraryMissingException} if it cannot be loaded */
    public static SymbolLookup ibverbs() {
        return IBVERBS.get();
    }

    /** @return librdmacm's symbols; throws {@link NativeLibraryMissingException} if it cannot be loaded */
    public static SymbolLookup rdmacm() {
        return RDMACM.get();
    }

    /** @return whether libibverbs can be loaded on this host */
    public static boolean ibverbsAvailable() {
        try {
            ibverbs();
            return true;
        } catch (NativeLibraryMissingException e) {
            return false;
        }
    }

    private static final Lazy IBVERBS = new Lazy(IBVERBS_PROPERTY, "libibverbs.so.1", "libibverbs1 ibverbs-providers");
    private static final Lazy RDMACM = new Lazy(RDMACM_PROPERTY, "librdmacm.so.1", "librdmacm1");

    /** One library, loaded on first use; a failure is remembered and rethrown as the same typed error. */
    private static final class Lazy {
        private final String property;
        private final String soname;
        private final String debianPackage;
        private SymbolLookup lookup;
        private NativeLibraryMissingException failure;

        Lazy(String property, String soname, String debianPackage) {
            this.property = property;
            this.soname = soname;
            this.debianPackage = debianPackage;
        }

        synchronized SymbolLookup get() {
            if (lookup == null && failure == null) {
                String name = System.getProperty(property, soname);
                try {
                    lookup = SymbolLookup.libraryLookup(name, Arena.global());
                } catch (IllegalArgumentException e) {
                    failure = new NativeLibraryMissingException("cannot load " + name + " (override with -D" + property
                            + "=/path/to/" + soname + "; on Debian/Ubuntu: apt-get install " + debianPackage + ")", e);
                }
            }
            if (failure != null) {
                throw new NativeLibraryMissingException(failure.getMessage(), failure.getCause());
            }
            return lookup;
        }
    }
}
