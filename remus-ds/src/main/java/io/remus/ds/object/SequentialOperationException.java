package io.remus.ds.object;

import io.remus.core.error.RemusException;

/**
 * The sequential object threw when {@link WaitFreeObject#apply} applied this call's operation: the call
 * failed, the operation took no effect (the object's state is what it would be had the operation never
 * been called), and the object and every handle on it go on working. The cause is what
 * {@link SequentialObject#apply} threw.
 */
public class SequentialOperationException extends RemusException {
    private static final long serialVersionUID = 1L;

    /** The operation code of the call that failed. */
    private final long operation;
    /** The argument of the call that failed. */
    private final long argument;

    /**
     * Creates the exception.
     *
     * @param message   which object, slot and operation
     * @param operation the operation code
     * @param argument  its argument
     * @param cause     what the sequential object threw
     */
    public SequentialOperationException(String message, long operation, long argument, Throwable cause) {
        super(message, cause);
        this.operation = operation;
        this.argument = argument;
    }

    /** {@return the operation code of the call that failed} */
    public long operation() {
        return operation;
    }

    /** {@return the argument of the call that failed} */
    public long argument() {
        return argument;
    }
}
