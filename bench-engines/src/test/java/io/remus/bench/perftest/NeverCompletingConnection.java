package io.remus.bench.perftest;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A connection whose peer never answers: posts are accepted, nothing ever completes. */
final class NeverCompletingConnection implements BenchConnection {
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer = arena.allocate(4096, 4096);
    int posted;

    @Override
    public MemorySegment buffer() {
        return buffer;
    }

    @Override
    public long bufferBytes() {
        return buffer.byteSize();
    }

    @Override
    public int completionCapacity() {
        return 16;
    }

    @Override
    public int queuePairs() {
        return 1;
    }

    @Override
    public void read(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
        posted++;
    }

    @Override
    public void write(int qp, long localOffset, long remoteOffset, int bytes, long wrId, boolean signaled) {
        posted++;
    }

    @Override
    public void atomic(int qp, AtomicType type, long localOffset, long remoteOffset, long compareOrAdd, long swap,
                       long wrId, boolean signaled) {
        posted++;
    }

    @Override
    public int poll(long[] wrIds) {
        return 0;
    }

    @Override
    public void close() {
        arena.close();
    }
}
