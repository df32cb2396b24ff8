package io.remus.bench.engines;

import java.util.List;

/**
 * Closing the handles a benchmark worker or creator opened, shared by the engines: every handle is closed even when
 * one fails, so that no structure keeps a handle open past the run. Not exported.
 */
public final class Handles {
    private Handles() {
    }

    /**
     * Closes every handle that is not null, in order, then throws the first failure, the later ones suppressed in it.
     *
     * @param handles the handles (null entries are skipped)
     * @throws RuntimeException the first failure, a checked one wrapped in an {@link IllegalStateException}
     */
    public static void closeAll(List<? extends AutoCloseable> handles) {
        RuntimeException failure = null;
        for (AutoCloseable h : handles) {
            if (h == null) {
                continue;
            }
            try {
                h.close();
            } catch (Exception e) {
                RuntimeException unchecked = e instanceof RuntimeException r ? r : new IllegalStateException(e);
                if (failure == null) {
                    failure = unchecked;
                } else {
                    failure.addSuppressed(unchecked);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
