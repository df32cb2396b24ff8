package io.remus.core.verbs.bootstrap;

import io.remus.core.RemusException;
import io.remus.core.net.ExchangeDeadline;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A process's bootstrap endpoint: a TCP listener that serves each connection's single request
 * with a {@link BootstrapHandler} and closes it. A malformed request is answered with an
 * {@link BootstrapMessage.ErrorReply} naming the problem; a handler failure likewise. Control
 * path only.
 *
 * <p>Connections are served concurrently, by at most {@value #MAX_CONCURRENT_EXCHANGES} threads:
 * a peer that connects and says nothing, or sends its request a byte at a time, holds one of
 * them and delays nobody else. Each exchange (reading the request, handling it, writing the
 * reply) is bounded as a whole by the exchange timeout: past it the connection is closed,
 * however the peer trickles. The handler itself is called by one thread at a time.
 */
public final class BootstrapServer implements AutoCloseable {
    /** The exchange timeout of {@link #BootstrapServer(InetSocketAddress, BootstrapHandler)}. */
    public static final Duration DEFAULT_EXCHANGE_TIMEOUT = Duration.ofSeconds(10);
    /** The most connections served at once; further peers wait in the listen backlog. */
    public static final int MAX_CONCURRENT_EXCHANGES = 32;

    private static final long ACCEPT_POLL_MILLIS = 100;
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final ServerSocket socket;
    private final BootstrapHandler handler;
    private final Duration exchangeTimeout;
    private final ReentrantLock handlerLock = new ReentrantLock();
    private final Semaphore slots = new Semaphore(MAX_CONCURRENT_EXCHANGES);
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService workers;
    private final ScheduledExecutorService reaper;
    private final Thread acceptor;

    /**
     * Binds {@code address} and starts serving, each exchange bounded by
     * {@link #DEFAULT_EXCHANGE_TIMEOUT}.
     *
     * @param address where to listen (port 0 picks one)
     * @param handler what serves requests
     * @throws RemusException when the address cannot be bound
     */
    public BootstrapServer(InetSocketAddress address, BootstrapHandler handler) {
        this(address, handler, DEFAULT_EXCHANGE_TIMEOUT);
    }

    /**
     * Binds {@code address} and starts serving.
     *
     * @param address         where to listen (port 0 picks one)
     * @param handler         what serves requests
     * @param exchangeTimeout how long one connection may take, from accept to the reply written;
     *                        positive
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if {@code exchangeTimeout} is not positive
     * @throws RemusException           when the address cannot be bound
     */
    public BootstrapServer(InetSocketAddress address, BootstrapHandler handler, Duration exchangeTimeout) {
        Objects.requireNonNull(address, "address");
        this.handler = Objects.requireNonNull(handler, "handler");
        ExchangeDeadline.after(exchangeTimeout, "exchangeTimeout");
        this.exchangeTimeout = exchangeTimeout;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(address);
        } catch (IOException e) {
            throw new RemusException("cannot listen for bootstrap requests on " + address + ": " + e.getMessage(), e);
        }
        String name = "remus-bootstrap-" + socket.getLocalPort();
        workers = Executors.newFixedThreadPool(MAX_CONCURRENT_EXCHANGES,
                Thread.ofPlatform().daemon().name(name + "-exchange-", 0).factory());
        reaper = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name(name + "-deadline").factory());
        acceptor = Thread.ofPlatform().daemon().name(name).start(this::acceptLoop);
    }

    /** {@return the bound port} */
    public int port() {
        return socket.getLocalPort();
    }

    /** {@return how long one exchange may take} */
    public Duration exchangeTimeout() {
        return exchangeTimeout;
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                if (!slots.tryAcquire(ACCEPT_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException closedOrFailed) {
                slots.release();
                if (socket.isClosed()) {
                    return;
                }
                continue;
            }
            open.add(s);
            try {
                workers.execute(() -> serve(s));
            } catch (RuntimeException rejectedWhileClosing) {
                open.remove(s);
                closeQuietly(s);
                slots.release();
            }
        }
    }

    private void serve(Socket s) {
        ExchangeDeadline deadline = ExchangeDeadline.after(exchangeTimeout, "exchangeTimeout");
        ScheduledFuture<?> cutOff = null;
        try {
            cutOff = reaper.schedule(() -> closeQuietly(s), deadline.remainingNanos(), TimeUnit.NANOSECONDS);
            s.setTcpNoDelay(true);
            BootstrapMessage request = BootstrapCodec.read(deadline.input(s));
            BootstrapMessage reply;
            handlerLock.lock();
            try {
                reply = handler.handle(request);
            } catch (RuntimeException e) {
                reply = new BootstrapMessage.ErrorReply(String.valueOf(e.getMessage()));
            } finally {
                handlerLock.unlock();
            }
            write(s, reply);
        } catch (BootstrapProtocolException e) {
            try {
                write(s, new BootstrapMessage.ErrorReply(String.valueOf(e.getMessage())));
            } catch (IOException ignoredBrokenClient) {
                // the peer is gone or past its deadline; nothing more to tell it
            }
        } catch (IOException | RuntimeException ignoredBrokenClient) {
            // one failed exchange does not stop the service
        } finally {
            if (cutOff != null) {
                cutOff.cancel(false);
            }
            open.remove(s);
            closeQuietly(s);
            slots.release();
        }
    }

    private static void write(Socket s, BootstrapMessage reply) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(BootstrapCodec.encode(reply));
        out.flush();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing to end an exchange; the socket is unusable either way
        }
    }

    /**
     * Stops listening, cuts off exchanges in progress (their connections are closed, as are those
     * accepted but not yet served) and waits (at most 10 s) for the service threads. Idempotent.
     */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new RemusException("closing the bootstrap listener failed", e);
        } finally {
            workers.shutdownNow();
            reaper.shutdownNow();
            try {
                long end = System.nanoTime() + CLOSE_TIMEOUT.toNanos();
                acceptor.join(CLOSE_TIMEOUT);
                for (Socket s : open) {
                    closeQuietly(s);
                }
                workers.awaitTermination(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
