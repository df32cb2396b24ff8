package io.remus.memcached;

import io.remus.core.error.BadArgumentException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A memcached text-protocol server on one TCP port, for a program to embed: one selector thread accepts, reads,
 * runs every command on its {@link MemcachedEngine} and writes, so an idle connection costs a socket and a few
 * objects, never a thread. The commands are memcached's: {@code get} and {@code gets} with one or more keys,
 * {@code set}, {@code add}, {@code replace}, {@code append}, {@code prepend}, {@code cas}, {@code delete},
 * {@code incr}, {@code decr}, {@code touch}, {@code flush_all}, {@code version}, {@code verbosity}, {@code stats},
 * {@code quit}, each with {@code noreply} where memcached takes it; anything else is answered {@code ERROR}.
 *
 * <h2>Bounds per connection</h2>
 * The input buffer is allocated at a connection's first read and holds the longest line
 * ({@value ServerConfig#MAX_LINE_BYTES} bytes, as memcached) and one data block (the engine's item size plus 2):
 * a line longer than that closes the connection, as memcached does; a larger data block is answered
 * {@code SERVER_ERROR object too large for cache} and discarded as it arrives. Responses wait in the output
 * queue; once more than {@link ServerConfig#maxPendingOutput()} bytes wait, the server stops reading the
 * connection's commands until the client has read them. Past {@link ServerConfig#maxConnections()} open
 * connections a new one is answered {@code SERVER_ERROR Too many open connections} and closed; when the process
 * runs out of file descriptors, accepting pauses for {@value #ACCEPT_PAUSE_MILLIS} ms at a time while the open
 * connections are served.
 *
 * <p>Commands run one at a time on the selector thread and block on the engine (a delegated command: one
 * trustee round trip), so every connection of the server waits while one runs.
 */
public final class MemcachedServer implements AutoCloseable {
    private final ServerConfig config;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final ServerStats stats;
    private final LongSupplier clock;
    private final Thread thread;
    private volatile boolean closing;
    /** When accepting may resume after a failed accept (System.nanoTime), 0 while it is not paused. */
    private long acceptPausedUntil;
    /** How long accepting pauses after an accept failed (no file descriptors left), in milliseconds. */
    static final int ACCEPT_PAUSE_MILLIS = 10;

    private MemcachedServer(ServerConfig config, Selector selector, ServerSocketChannel listener, LongSupplier clock,
                            Supplier<MemcachedEngine> engine, CompletableFuture<Void> up) {
        this.config = config;
        this.selector = selector;
        this.listener = listener;
        this.clock = clock;
        this.stats = new ServerStats(clock.getAsLong());
        this.thread = Thread.ofPlatform().name("remus-memcached-" + port()).unstarted(() -> run(engine, up));
    }

    /**
     * Binds the port and starts the server's thread, which opens its engine with {@code engine} (on that thread,
     * which alone uses it) and serves until {@link #close()}. Blocking until the engine is open (at most 60
     * seconds).
     *
     * @param config what to listen on
     * @param engine opens the engine, called once on the server's thread
     * @param clock  the unix time in seconds {@code stats} reports
     * @return the running server
     * @throws UncheckedIOException  when the port cannot be bound
     * @throws IllegalStateException when the engine did not open
     */
    public static MemcachedServer start(ServerConfig config, Supplier<MemcachedEngine> engine, LongSupplier clock) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(clock, "clock");
        Selector selector = null;
        ServerSocketChannel listener = null;
        try {
            selector = Selector.open();
            listener = ServerSocketChannel.open();
            listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            listener.bind(new InetSocketAddress(config.host(), config.port()), 1024);
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            closeQuietly(listener);
            closeQuietly(selector);
            throw new UncheckedIOException(new IOException("cannot listen on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage(), e));
        }
        CompletableFuture<Void> up = new CompletableFuture<>();
        MemcachedServer server = new MemcachedServer(config, selector, listener, clock, engine, up);
        server.thread.start();
        try {
            up.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            server.close();
            throw new IllegalStateException("the memcached server's engine did not open: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
            throw new IllegalStateException("interrupted while the memcached server started", e);
        }
        return server;
    }

    /** {@return the port the server listens on} */
    public int port() {
        try {
            return ((InetSocketAddress) listener.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return how many connections are open now} */
    public long connections() {
        return stats.currConnections.get();
    }

    /** {@return the configuration} */
    public ServerConfig config() {
        return config;
    }

    private void run(Supplier<MemcachedEngine> engineSupplier, CompletableFuture<Void> up) {
        MemcachedEngine engine;
        try {
            engine = engineSupplier.get();
            if (engine == null) {
                throw new BadArgumentException("the engine supplier returned null");
            }
        } catch (RuntimeException | Error e) {
            up.completeExceptionally(e);
            return;
        }
        up.complete(null);
        try (engine) {
            while (!closing) {
                selector.select(acceptPausedUntil == 0 ? 1000 : ACCEPT_PAUSE_MILLIS);
                if (acceptPausedUntil != 0 && System.nanoTime() - acceptPausedUntil >= 0) {
                    acceptPausedUntil = 0;
                    listener.keyFor(selector).interestOps(SelectionKey.OP_ACCEPT);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept(engine);
                    } else {
                        Connection c = (Connection) key.attachment();
                        try {
                            if (key.isWritable()) {
                                c.flush();
                            }
                            if (key.isValid() && key.isReadable()) {
                                c.read();
                            }
                        } catch (IOException e) {
                            c.close();
                        } catch (RuntimeException e) {
                            c.fail(e);
                        }
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closing) {
                throw new UncheckedIOException("the memcached server on port " + port() + " failed", e instanceof IOException io ? io : new IOException(e));
            }
        } finally {
            for (SelectionKey key : selector.keys()) {
                if (key.attachment() instanceof Connection c) {
                    c.close();
                }
            }
            closeQuietly(listener);
            closeQuietly(selector);
        }
    }

    /**
     * Accepts every waiting connection. When accepting fails (out of file descriptors), accepting pauses for
     * {@value #ACCEPT_PAUSE_MILLIS} ms, as memcached pauses it, and the open connections are served on.
     */
    private void accept(MemcachedEngine engine) {
        while (true) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                acceptPausedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACCEPT_PAUSE_MILLIS) | 1;
                listener.keyFor(selector).interestOps(0);
                return;
            }
            if (channel == null) {
                return;
            }
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (stats.currConnections.get() >= config.maxConnections()) {
                    stats.rejectedConnections.incrementAndGet();
                    channel.write(ByteBuffer.wrap("SERVER_ERROR Too many open connections\r\n".getBytes(StandardCharsets.US_ASCII)));
                    channel.close();
                    continue;
                }
                Connection c = new Connection(channel, new ProtocolSession(engine, stats, clock),
                        ProtocolSession.inputCapacity(engine));
                c.key = channel.register(selector, SelectionKey.OP_READ, c);
                stats.currConnections.incrementAndGet();
                stats.totalConnections.incrementAndGet();
            } catch (IOException e) {
                closeQuietly(channel);
            }
        }
    }

    /** One client's connection: its buffers and protocol state. */
    private final class Connection {
        private final SocketChannel channel;
        private final ProtocolSession session;
        private final int capacity;
        private final ArrayDeque<ByteBuffer> output = new ArrayDeque<>();
        private final ByteArrayOutputStream responses = new ByteArrayOutputStream();
        private ByteBuffer input;
        private long pending;
        private boolean closeAfterFlush;
        private boolean closed;
        SelectionKey key;

        Connection(SocketChannel channel, ProtocolSession session, int capacity) {
            this.channel = channel;
            this.session = session;
            this.capacity = capacity;
        }

        void read() throws IOException {
            if (input == null) {
                input = ByteBuffer.allocate(capacity);
            }
            int n = channel.read(input);
            if (n < 0) {
                close();
                return;
            }
            process();
        }

        private void process() throws IOException {
            input.flip();
            boolean open = session.process(input, responses);
            input.compact();
            if (responses.size() > 0) {
                ByteBuffer b = ByteBuffer.wrap(responses.toByteArray());
                responses.reset();
                pending += b.remaining();
                output.add(b);
            }
            if (!open) {
                closeAfterFlush = true;
            }
            flush();
        }

        void flush() throws IOException {
            while (!output.isEmpty()) {
                ByteBuffer b = output.peek();
                pending -= channel.write(b);
                if (b.hasRemaining()) {
                    break;
                }
                output.poll();
            }
            if (closed) {
                return;
            }
            if (output.isEmpty() && closeAfterFlush) {
                close();
                return;
            }
            int ops = output.isEmpty() ? 0 : SelectionKey.OP_WRITE;
            if (pending <= config.maxPendingOutput()) {
                ops |= SelectionKey.OP_READ;
            }
            key.interestOps(ops);
        }

        void fail(RuntimeException e) {
            try {
                channel.write(ByteBuffer.wrap(("SERVER_ERROR " + oneLine(e) + "\r\n").getBytes(StandardCharsets.US_ASCII)));
            } catch (IOException ignored) {
                // the connection closes anyway
            }
            close();
        }

        void close() {
            if (closed) {
                return;
            }
            closed = true;
            stats.currConnections.decrementAndGet();
            if (key != null) {
                key.cancel();
            }
            closeQuietly(channel);
            output.clear();
            input = null;
        }
    }

    private static String oneLine(RuntimeException e) {
        String m = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return m.replaceAll("[\\r\\n]+", " ");
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // closing on the way out
        }
    }

    /**
     * Stops the server: closes the port and every connection, and the engine on the server's thread. Blocking
     * up to 10 seconds for the thread. Idempotent.
     */
    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        if (Thread.currentThread() != thread && thread.isAlive()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
