package io.remus.verbs.ffi;

/** Rethrowing what a downcall's {@code invokeExact} declares. */
final class Downcalls {
    private Downcalls() {
    }

    /**
     * @param t what {@code invokeExact} threw
     * @return never returns normally; throws {@code t} if unchecked, else wraps it
     */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError("downcall threw a checked exception", t);
    }
}
