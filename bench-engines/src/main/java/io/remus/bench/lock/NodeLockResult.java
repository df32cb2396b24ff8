package io.remus.bench.lock;

import java.util.Objects;

/**
 * What one node of a {@link ClusterLockBenchmark} run measured.
 *
 * @param node       the node's id
 * @param result     its workers' counts and log2 latency histogram
 * @param attachment the bytes its caller attached (e.g. an encoded latency histogram); may be empty
 */
public record NodeLockResult(int node, LockBenchmarkResult result, byte[] attachment) {
    /** Checks the references and copies the attachment. */
    public NodeLockResult {
        Objects.requireNonNull(result, "result");
        attachment = Objects.requireNonNull(attachment, "attachment").clone();
    }

    /** {@return a copy of the attachment} */
    @Override
    public byte[] attachment() {
        return attachment.clone();
    }
}
