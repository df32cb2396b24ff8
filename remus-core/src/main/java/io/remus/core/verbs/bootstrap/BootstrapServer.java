package io.remus.core.verbs.bootstrap;

import io.remus.core.error.RemusException;
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
 * with a {@link BootstrapHandler} and closes it. An exchange that fails never fails silently: a
 * malformed request, a handler that throws or returns no reply, and a reply that cannot be encoded
 * are answered with an {@link BootstrapMessage.ErrorReply} naming the problem (the peer's
 * {@link BootstrapClient} throws it as a {@link BootstrapProtocolException}, not a timeout), and
 * every failed exchange, including a peer gone or cut off at the deadline, is reported to
 * {@link BootstrapHandler#exchangeFailed}. Control path only.
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
        String peer = String.valueOf(s.getRemoteSocketAddress());
        BootstrapMessage request = null;
        try {
            cutOff = reaper.schedule(() -> closeQuietly(s), deadline.remainingNanos(), TimeUnit.NANOSECONDS);
            s.setTcpNoDelay(true);
            try {
                request = BootstrapCodec.read(deadline.input(s));
            } catch (RuntimeException e) {
                fail(s, "malformed bootstrap request from " + peer + ": " + describe(e), e);
                return;
            }
            BootstrapMessage reply = null;
            RuntimeException handlerFailure = null;
            handlerLock.lock();
            try {
                reply = handler.handle(request);
            } catch (RuntimeException e) {
                handlerFailure = e;
            } finally {
                handlerLock.unlock();
            }
            if (handlerFailure != null) {
                fail(s, "the handler failed on " + request + " from " + peer + ": " + describe(handlerFailure), handlerFailure);
                return;
            }
            byte[] frame;
            try {
                frame = encodeReply(reply);
            } catch (RuntimeException e) {
                fail(s, "the handler's reply to " + request + " from " + peer + " cannot be sent: " + describe(e), e);
                return;
            }
            write(s, frame);
        } catch (IOException | RuntimeException e) {
            report("bootstrap exchange with " + peer + (request == null ? "" : " about " + request) + " failed"
                    + (deadline.remainingNanos() <= 0 ? " (cut off at the " + exchangeTimeout + " exchange deadline)" : "")
                    + ": " + describe(e), e);
        } finally {
            if (cutOff != null) {
                cutOff.cancel(false);
            }
            open.remove(s);
            closeQuietly(s);
            slots.release();
        }
    }

    /** The most characters of a problem an {@link BootstrapMessage.ErrorReply} carries. */
    static final int MAX_ERROR_TEXT = 1024;

    private static byte[] encodeReply(BootstrapMessage reply) {
        if (!(reply instanceof BootstrapMessage.RegionsReply || reply instanceof BootstrapMessage.ConnectReply
                || reply instanceof BootstrapMessage.ErrorReply)) {
            throw new BootstrapProtocolException("a handler must reply with a RegionsReply, ConnectReply or ErrorReply, got "
                    + reply);
        }
        return BootstrapCodec.encode(reply);
    }

    /** Reports {@code problem} and tells the peer, which may be gone already (then that is reported too). */
    private void fail(Socket s, String problem, Throwable cause) {
        report(problem, cause);
        String text = problem.length() <= MAX_ERROR_TEXT ? problem : problem.substring(0, MAX_ERROR_TEXT) + "...";
        try {
            write(s, BootstrapCodec.encode(new BootstrapMessage.ErrorReply(text)));
        } catch (IOException | RuntimeException e) {
            report("could not send the error reply to " + s.getRemoteSocketAddress() + ": " + describe(e), e);
        }
    }

    private void report(String problem, Throwable cause) {
        try {
            handler.exchangeFailed(problem, cause);
        } catch (RuntimeException ignored) {
            // a failing report must not stop the service; the exchange is over either way
        }
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static void write(Socket s, byte[] frame) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(frame);
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
