package io.remus.ds.set;

import io.remus.core.error.BadArgumentException;

/** A key that a {@link RemoteSet} cannot hold: one of the sentinels' keys. The message names it. */
public class SetKeyException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /** The refused key. */
    private final long key;

    /**
     * Creates the exception for a refused key; the message names it.
     *
     * @param key the refused key
     */
    public SetKeyException(long key) {
        super("set keys must be " + RemoteSet.MIN_KEY + ".." + RemoteSet.MAX_KEY + " (Long.MIN_VALUE and Long.MAX_VALUE are the"
                + " sentinels' keys), got " + key);
        this.key = key;
    }

    /** {@return the refused key} */
    public long key() {
        return key;
    }
}
