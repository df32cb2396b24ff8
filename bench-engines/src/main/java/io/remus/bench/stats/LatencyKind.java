package io.remus.bench.stats;

/** What one recorded latency sample is, so that reports never mix a round trip with a one-way time. */
public enum LatencyKind {
    /** Post to completion of one operation that returns data (RDMA READ, atomics): a full round trip. */
    ROUND_TRIP("round trip", "round_trip"),
    /** Half of one measured ping-pong round trip (RDMA WRITE, SEND), as perftest reports them. */
    HALF_ROUND_TRIP("half of a ping-pong round trip", "half_round_trip");

    private final String words;
    private final String key;

    LatencyKind(String words, String key) {
        this.words = words;
        this.key = key;
    }

    /** @return the kind in words, for tables */
    public String words() {
        return words;
    }

    /** @return the kind as a JSON value */
    public String key() {
        return key;
    }
}
