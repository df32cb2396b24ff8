package io.remus.ds.set;

import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;

/**
 * A call on a {@link RemoteSet} handle after its {@link RemoteSet#close()} or its set's {@code destroy()}, a
 * {@code destroy()} of a set that another handle destroyed first, or an {@code attach} to a destroyed set. The
 * message names the set and its root. Nothing was changed.
 */
public class ClosedSetException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a closed handle; the message names the set.
     *
     * @param kind the set's class name
     * @param root the set's root
     */
    public ClosedSetException(String kind, long root) {
        super("this handle on the " + kind + " at " + RemotePtr.toString(root) + " is closed");
    }

    /**
     * Creates the exception with its whole message.
     *
     * @param message what was refused, naming the set and its root
     */
    public ClosedSetException(String message) {
        super(message);
    }
}
