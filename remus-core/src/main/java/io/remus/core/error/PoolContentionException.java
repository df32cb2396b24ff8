package io.remus.core.error;

/**
 * A shared free pool's head changed under every one of a bounded number of compare-and-swaps of one
 * push or pop ({@link io.remus.core.FreeBlockPool#MAX_ATTEMPTS}): other threads kept winning.
 * Nothing of the failed operation took effect: the blocks it was pushing are still the caller's,
 * and no block was popped.
 */
public class PoolContentionException extends RemusException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with its message.
     *
     * @param message which pool, and how many attempts failed
     */
    public PoolContentionException(String message) {
        super(message);
    }
}
