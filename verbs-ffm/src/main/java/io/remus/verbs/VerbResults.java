package io.remus.verbs;

import io.remus.verbs.ffi.Errno;

import java.lang.foreign.MemorySegment;

/** Turns the return values of verbs into exceptions naming the verb and errno. */
final class VerbResults {
    private VerbResults() {
    }

    /**
     * For verbs that return 0 or an errno value.
     *
     * @param rc       the return value
     * @param function the verb
     * @param what     what was being done
     * @throws VerbsException if {@code rc} is not 0
     */
    static void checkErrnoResult(int rc, String function, String what) {
        if (rc != 0) {
            throw new VerbsException(function, Math.abs(rc), what);
        }
    }

    /**
     * For verbs that return 0 or -1 with errno.
     *
     * @param rc        the return value
     * @param callState the captured call state
     * @param function  the verb
     * @param what      what was being done
     * @throws VerbsException if {@code rc} is not 0
     */
    static void checkMinusOne(int rc, MemorySegment callState, String function, String what) {
        if (rc != 0) {
            throw new VerbsException(function, Errno.get(callState), what);
        }
    }

    /**
     * For verbs that return a pointer, NULL with errno on failure.
     *
     * @param p         the returned pointer
     * @param size      the size of the struct it points to
     * @param callState the captured call state
     * @param function  the verb
     * @param what      what was being done
     * @return {@code p} reinterpreted to {@code size} bytes
     * @throws VerbsException if {@code p} is NULL
     */
    static MemorySegment checkPointer(MemorySegment p, long size, MemorySegment callState, String function, String what) {
        if (p.equals(MemorySegment.NULL)) {
            throw new VerbsException(function, Errno.get(callState), what);
        }
        return p.reinterpret(size);
    }
}
