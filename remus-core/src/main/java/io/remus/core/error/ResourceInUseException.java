package io.remus.core.error;

/**
 * A fabric resource was closed while others still use it: a completion queue that open queue pairs
 * deliver into (verbs refuses {@code ibv_destroy_cq} with {@code EBUSY}; the simulator refuses the
 * same). Nothing was closed; close the users first, or let the node close everything.
 */
public class ResourceInUseException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which resource, and what still uses it
     */
    public ResourceInUseException(String message) {
        super(message);
    }
}
