package io.remus.core.sim;

import io.remus.core.BadArgumentException;

/**
 * Knobs of the simulated fabric.
 *
 * @param executionLatencyNanos  delay between posting a work request and its execution at the target
 * @param completionDelayNanos   delay between execution and the completion becoming pollable
 * @param transportTimeoutNanos  how long a request to a node that stopped answering waits before
 *                               it completes with {@code RETRY_EXCEEDED}
 * @param yieldWhileTearing      yield the executing thread between the 8-byte pieces of a transfer
 * @param yieldInsideNicAtomics  yield between the load and the store of a NIC atomic, widening the
 *                               window in which a CPU atomic, a CPU store or an RDMA WRITE on the
 *                               same word is lost
 */
public record SimOptions(long executionLatencyNanos, long completionDelayNanos, long transportTimeoutNanos,
                         boolean yieldWhileTearing, boolean yieldInsideNicAtomics) {
    /** Validates the knobs. */
    public SimOptions {
        if (executionLatencyNanos < 0 || completionDelayNanos < 0 || transportTimeoutNanos <= 0) {
            throw new BadArgumentException("simulator delays must be non-negative and the transport timeout positive");
        }
    }

    /** @return no injected delays, a 100 ms transport timeout, no yielding */
    public static SimOptions defaults() {
        return new SimOptions(0, 0, 100_000_000L, false, false);
    }

    /** @param nanos execution latency @return a copy with it */
    public SimOptions withExecutionLatencyNanos(long nanos) {
        return new SimOptions(nanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing, yieldInsideNicAtomics);
    }

    /** @param nanos completion delay @return a copy with it */
    public SimOptions withCompletionDelayNanos(long nanos) {
        return new SimOptions(executionLatencyNanos, nanos, transportTimeoutNanos, yieldWhileTearing, yieldInsideNicAtomics);
    }

    /** @param nanos transport timeout @return a copy with it */
    public SimOptions withTransportTimeoutNanos(long nanos) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, nanos, yieldWhileTearing, yieldInsideNicAtomics);
    }

    /** @param yield whether transfers yield between pieces @return a copy with it */
    public SimOptions withYieldWhileTearing(boolean yield) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yield, yieldInsideNicAtomics);
    }

    /** @param yield whether NIC atomics yield between load and store @return a copy with it */
    public SimOptions withYieldInsideNicAtomics(boolean yield) {
        return new SimOptions(executionLatencyNanos, completionDelayNanos, transportTimeoutNanos, yieldWhileTearing, yield);
    }
}
