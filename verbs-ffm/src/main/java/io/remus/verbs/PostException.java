package io.remus.verbs;

/**
 * The provider rejected a work request of a posted chain ({@code ibv_post_send},
 * {@code ibv_post_recv}, {@code ibv_post_srq_recv}). The requests before {@link #failedIndex()}
 * were posted; it and those after it were not.
 */
public final class PostException extends VerbsException {
    private static final long serialVersionUID = 1L;

    /** The index in the chain of the first request that was not posted. */
    private final int failedIndex;

    /**
     * Creates the exception for a post verb that rejected the request at {@code failedIndex}.
     *
     * @param function    the post verb
     * @param errno       the error number it returned
     * @param failedIndex the index in the chain of the first request that was not posted
     * @param message     the chain's size and the failing request's id
     */
    public PostException(String function, int errno, int failedIndex, String message) {
        super(function, errno, message);
        this.failedIndex = failedIndex;
    }

    /** {@return the index in the chain of the first request that was not posted} */
    public int failedIndex() {
        return failedIndex;
    }
}
