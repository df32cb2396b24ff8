package io.remus.bench.perftest;

/**
 * Where a benchmark's operations go: a fabric with a server side and a client side, each a
 * {@link BenchConnection}. The simulator has both sides in this JVM; verbs has one per process.
 */
public interface BenchTransport extends AutoCloseable {
    /** @return one line saying what this transport is and where the server side runs */
    String description();

    /** @return the fabric's short name for reports, e.g. {@code sim} */
    String fabricName();

    /**
     * Opens the client side: QPs to the server whose buffer the client's operations target.
     *
     * @return the client's connection, owned by the caller's thread
     */
    BenchConnection client();

    /**
     * Opens the server side in this process, for tests whose server is active (the ping-pong of
     * write-lat); the simulator only.
     *
     * @return the server's connection, owned by one thread
     * @throws UnsupportedOperationException when the server is another process
     */
    BenchConnection inProcessServer();

    /**
     * @return whether {@link #inProcessServer()} works; when not, the server is another process that
     *         answers write-lat's ping-pong itself
     */
    default boolean hasInProcessServer() {
        return true;
    }

    /**
     * Called by the client before each message size, with nothing in flight: a transport whose
     * server is another process tells it which size comes and waits until it is ready.
     *
     * @param index the size's index in {@link BenchSettings#sizes()}
     */
    default void beginSize(int index) {
    }

    /** Frees both sides. Idempotent. */
    @Override
    void close();
}
