package io.remus.tools.experiment.numa;

import io.remus.core.RemusException;

/** A Linux memory-policy or affinity call failed; the message names the call and errno. */
public final class NumaCallException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * @param function the C function or system call
     * @param errno    the errno it left
     * @param detail   what was asked
     */
    public NumaCallException(String function, int errno, String detail) {
        super(function + " failed: errno " + errno + " (" + Errno.name(errno) + "): " + detail);
    }
}
