package io.remus.bench.perftest;

import io.remus.bench.stats.LatencyKind;

/**
 * The perftest-style benchmarks: an operation measured for latency or for bandwidth, named as the
 * perftest binaries are ({@code ib_read_lat} is {@code read-lat}).
 */
public enum BenchTest {
    /** {@code ib_read_lat}. */
    READ_LAT("read-lat", BenchOperation.READ, true),
    /** {@code ib_write_lat}. */
    WRITE_LAT("write-lat", BenchOperation.WRITE, true),
    /** {@code ib_send_lat}. */
    SEND_LAT("send-lat", BenchOperation.SEND, true),
    /** {@code ib_atomic_lat}. */
    ATOMIC_LAT("atomic-lat", BenchOperation.ATOMIC, true),
    /** {@code ib_read_bw}. */
    READ_BW("read-bw", BenchOperation.READ, false),
    /** {@code ib_write_bw}. */
    WRITE_BW("write-bw", BenchOperation.WRITE, false),
    /** {@code ib_send_bw}. */
    SEND_BW("send-bw", BenchOperation.SEND, false),
    /** {@code ib_atomic_bw}. */
    ATOMIC_BW("atomic-bw", BenchOperation.ATOMIC, false);

    private final String commandName;
    private final BenchOperation operation;
    private final boolean latency;

    BenchTest(String commandName, BenchOperation operation, boolean latency) {
        this.commandName = commandName;
        this.operation = operation;
        this.latency = latency;
    }

    /** @return the subcommand name, e.g. {@code read-lat} */
    public String commandName() {
        return commandName;
    }

    /** @return the measured operation */
    public BenchOperation operation() {
        return operation;
    }

    /** @return whether this measures latency (otherwise bandwidth) */
    public boolean isLatency() {
        return latency;
    }

    /**
     * @return what one latency sample is: a round trip for READ and atomics, half a ping-pong for
     *         WRITE and SEND
     */
    public LatencyKind latencyKind() {
        return operation == BenchOperation.READ || operation == BenchOperation.ATOMIC
                ? LatencyKind.ROUND_TRIP : LatencyKind.HALF_ROUND_TRIP;
    }

    /** @return perftest's default message size: 2 bytes for latency, 65536 for bandwidth, 8 for atomics */
    public int defaultSize() {
        if (operation == BenchOperation.ATOMIC) {
            return 8;
        }
        return latency ? 2 : 65536;
    }

    /** @return perftest's default iteration count: 1000 for latency, 5000 for bandwidth */
    public int defaultIterations() {
        return latency ? 1000 : 5000;
    }

    /** @return perftest's default send queue depth: 1 for latency, 128 for bandwidth */
    public int defaultTxDepth() {
        return latency ? 1 : 128;
    }
}
