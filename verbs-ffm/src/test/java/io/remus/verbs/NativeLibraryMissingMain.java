package io.remus.verbs;

import io.remus.verbs.ffi.NativeLibraries;

/**
 * Child-JVM program for {@link NativeLibraryMissingTest}: points libibverbs (or librdmacm) at the
 * name given, then calls the verbs twice and prints, per call, one line
 * {@code CALL <n> <exception class> <message>}.
 *
 * <p>Arguments: {@code ibverbs|rdmacm} and the library name or path to use.
 */
public final class NativeLibraryMissingMain {
    private NativeLibraryMissingMain() {
    }

    /**
     * @param args which library, and the name to load it under
     */
    public static void main(String[] args) {
        boolean ibverbs = args[0].equals("ibverbs");
        System.setProperty(ibverbs ? NativeLibraries.IBVERBS_PROPERTY : NativeLibraries.RDMACM_PROPERTY, args[1]);
        for (int call = 1; call <= 2; call++) {
            try {
                if (ibverbs) {
                    System.out.println("CALL " + call + " available " + Device.rdmaStackAvailable());
                    Device.list();
                } else {
                    new CmEventChannel().close();
                }
                System.out.println("CALL " + call + " returned");
            } catch (Throwable t) {
                System.out.println("CALL " + call + " " + t.getClass().getName() + " " + t.getMessage());
            }
        }
    }
}
