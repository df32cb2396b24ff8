package io.remus.bench.engines;

import io.remus.core.error.RemusException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The result steps of a run across processes that the cluster engines of structures and reclamation share
 * ({@code io.remus.bench.structure}, {@code io.remus.bench.reclaim}): each node measures its part and sends node 0
 * its result, or its failure, through the run's {@link ClusterRounds.Round}; node 0 reads them all. A result is
 * {@link #OK} and then the engine's counts; a failure is the length and UTF-8 text of its message. Not exported.
 */
public final class ClusterResults {
    /** A result's first int: the node measured, and its counts follow. A failure starts with its text's length. */
    public static final int OK = -1;

    private ClusterResults() {
    }

    /** This node's part of a run. */
    public interface Measure<R> {
        /** {@return what this node measured} */
        R measure() throws InterruptedException;
    }

    /**
     * Measures this node's part and sends node 0 its result. A failure fails the round, is sent as this node's
     * failure (naming the node) where the round still takes it, and is rethrown.
     *
     * @param round   the run's round
     * @param self    this node's id
     * @param measure measures this node's part
     * @param encode  the result's bytes, starting with {@link #OK}
     * @return what this node measured
     * @throws InterruptedException when interrupted while measuring
     */
    public static <R> R report(ClusterRounds.Round round, int self, Measure<R> measure, Function<R, byte[]> encode)
            throws InterruptedException {
        R mine;
        try {
            mine = measure.measure();
        } catch (RuntimeException e) {
            round.markFailed();
            try {
                round.publishResult(failure("node " + self + ": " + e));
            } catch (RuntimeException notSent) {
                e.addSuppressed(notSent);
            }
            throw e;
        }
        round.publishResult(encode.apply(mine));
        return mine;
    }

    /**
     * Reads every node's result, in node order.
     *
     * @param blobs  every node's result
     * @param decode reads one node's counts, after the {@link #OK}
     * @param what   names the run, for the failure's message
     * @return every node's result
     * @throws RemusException naming the run and every node's failure, when a node failed
     */
    public static <R> List<R> decodeAll(List<byte[]> blobs, Function<ByteBuffer, R> decode, Supplier<String> what) {
        List<R> results = new ArrayList<>();
        StringBuilder failures = new StringBuilder();
        for (byte[] blob : blobs) {
            ByteBuffer b = ByteBuffer.wrap(blob).order(ByteOrder.nativeOrder());
            int length = b.getInt();
            if (length >= 0) {
                byte[] bytes = new byte[length];
                b.get(bytes);
                failures.append(failures.isEmpty() ? "" : "; ").append(new String(bytes, StandardCharsets.UTF_8));
            } else {
                results.add(decode.apply(b));
            }
        }
        if (!failures.isEmpty()) {
            throw new RemusException(what.get() + " failed: " + failures);
        }
        return results;
    }

    private static byte[] failure(String failure) {
        byte[] bytes = failure.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + bytes.length).order(ByteOrder.nativeOrder()).putInt(bytes.length).put(bytes)
                .array();
    }
}
