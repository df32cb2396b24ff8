package io.remus.ds.index;

/** What a server answers a request with: the first byte of a reply ({@link IndexFormat}). */
public enum IndexStatus {
    /** The operation took effect and found a value: a PUT that replaced one, a GET that read one, a DELETE that removed one. */
    FOUND(1),
    /** The operation took effect and found no value under the key. */
    ABSENT(2),
    /** The called node does not lead the shard; the reply names the leader it knows, or -1. Nothing took effect. */
    NOT_LEADER(3),
    /**
     * The leader could not commit the entry within its commit timeout (no majority answered in time). The entry may
     * still commit later; a retry with the same client id and sequence is applied at most once.
     */
    RETRY(4),
    /** The client's sequence is behind the last one applied for its id: two clients share an id. Nothing took effect. */
    STALE(5),
    /** The request is malformed (the reply's value is the server's description). Nothing took effect. */
    BAD_REQUEST(6);

    private final byte code;

    IndexStatus(int code) {
        this.code = (byte) code;
    }

    /** {@return the status's byte in a reply} */
    public byte code() {
        return code;
    }

    /**
     * {@return the status whose byte is {@code code}, or null when none is}
     *
     * @param code a reply's first byte
     */
    public static IndexStatus of(byte code) {
        for (IndexStatus s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        return null;
    }
}
