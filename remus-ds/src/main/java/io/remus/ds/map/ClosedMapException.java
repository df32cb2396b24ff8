package io.remus.ds.map;

import io.remus.core.error.BadArgumentException;

/**
 * A call on a {@link RemoteHashMap} handle (or a {@link TypedRemoteHashMap} over it) that was closed, or whose
 * map was destroyed, through this handle or another before the call started; or an attach to a destroyed map. The message names the map
 * and its root. Nothing was changed.
 */
public class ClosedMapException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was refused, naming the map and its root
     */
    public ClosedMapException(String message) {
        super(message);
    }
}
