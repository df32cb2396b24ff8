package io.remus.core.error;

/**
 * The one unchecked exception family of remus-core. Subclasses name the kind of failure so that
 * callers catch what they can handle: {@link BadArgumentException} (rejected before anything is
 * posted), {@link RemoteOperationException} (the fabric completed an operation with an error),
 * {@link RemoteTimeoutException} (a bounded wait ran out), {@link AllocationExhaustedException},
 * {@link InvalidFreeException} and {@link DoubleFreeException} (a free the allocator refused),
 * {@link CorruptedMemoryException} and {@link CorruptedControlBlockException} (a shared word holds
 * what no protocol writes), {@link ThreadConfinementException} (a thread-confined object used from
 * another thread), {@link ResourceInUseException} (a fabric resource closed while others use it), {@link StaleHandleException} (an operation handle used twice) and
 * {@link BarrierMismatchException} (barrier participants that count differently); the RPC endpoint
 * adds {@link io.remus.core.rpc.RpcUnknownMethodException} and
 * {@link io.remus.core.rpc.RpcMethodFailedException} (a call the peer could not serve).
 */
public class RemusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message what went wrong
     */
    public RemusException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its message and cause.
     *
     * @param message what went wrong
     * @param cause   the underlying failure
     */
    public RemusException(String message, Throwable cause) {
        super(message, cause);
    }
}
