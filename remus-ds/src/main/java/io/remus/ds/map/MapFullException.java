package io.remus.ds.map;

import io.remus.core.RemusException;

/**
 * A {@link RemoteHashMap} insert found no empty slot in either of the key's two buckets: the table
 * has a fixed capacity and does not resize.
 */
public class MapFullException extends RemusException {
    private static final long serialVersionUID = 1L;

    private final long key;

    /**
     * @param key     the key that did not fit
     * @param message which buckets were full
     */
    public MapFullException(long key, String message) {
        super(message);
        this.key = key;
    }

    /** @return the key that did not fit */
    public long key() {
        return key;
    }
}
