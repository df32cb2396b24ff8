package io.remus.bench.loopback;

/** How an experiment reaches an 8-byte word. */
public enum AccessPath {
    /** A CPU load, store or CAS on the node's own memory. */
    LOCAL_CPU("local CPU"),
    /** An RDMA operation through the node's loopback QP to its own memory. */
    LOOPBACK_QP("loopback QP"),
    /** An RDMA operation to another node's memory. */
    REMOTE_NODE("remote node");

    private final String words;

    AccessPath(String words) {
        this.words = words;
    }

    /** @return the path in words */
    public String words() {
        return words;
    }
}
