package io.remus.bench.perftest;

/** The RDMA operation a benchmark measures. */
public enum BenchOperation {
    /** RDMA READ. */
    READ("RDMA READ"),
    /** RDMA WRITE. */
    WRITE("RDMA WRITE"),
    /** Two-sided SEND/RECV. */
    SEND("SEND/RECV"),
    /** RDMA atomic (compare-and-swap or fetch-and-add), 8 bytes. */
    ATOMIC("RDMA atomic");

    private final String words;

    BenchOperation(String words) {
        this.words = words;
    }

    /** @return the operation in words */
    public String words() {
        return words;
    }
}
