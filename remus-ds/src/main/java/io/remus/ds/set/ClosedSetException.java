package io.remus.ds.set;

import io.remus.core.BadArgumentException;
import io.remus.core.RemotePtr;

/** A call on a {@link RemoteSet} handle after its {@link RemoteSet#close()}. The message names the set. */
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
}
