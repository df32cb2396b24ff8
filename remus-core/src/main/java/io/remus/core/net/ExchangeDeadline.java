package io.remus.core.net;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Objects;

/**
 * The instant by which one whole exchange over a socket must be over, and a socket input stream
 * that keeps to it: before each read the socket's timeout is set to the time left, so a peer that
 * sends a byte now and then cannot stretch the exchange past the deadline.
 */
public final class ExchangeDeadline {
    private final long deadlineNanos;
    private final Duration timeout;

    private ExchangeDeadline(long deadlineNanos, Duration timeout) {
        this.deadlineNanos = deadlineNanos;
        this.timeout = timeout;
    }

    /**
     * @param timeout how long from now; positive
     * @param name    the parameter's name, for the message
     * @return the deadline {@code timeout} from now (timeouts beyond about 146 years saturate there)
     * @throws NullPointerException     if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is zero or negative
     */
    public static ExchangeDeadline after(Duration timeout, String name) {
        Objects.requireNonNull(timeout, name);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + timeout);
        }
        long nanos = timeout.compareTo(Duration.ofNanos(Long.MAX_VALUE / 2)) > 0 ? Long.MAX_VALUE / 2 : timeout.toNanos();
        return new ExchangeDeadline(System.nanoTime() + nanos, timeout);
    }

    /** {@return the timeout this deadline was made from} */
    public Duration timeout() {
        return timeout;
    }

    /** {@return nanoseconds left, 0 or negative once passed} */
    public long remainingNanos() {
        return deadlineNanos - System.nanoTime();
    }

    /** {@return whether the deadline has passed} */
    public boolean passed() {
        return remainingNanos() <= 0;
    }

    /**
     * {@return the milliseconds left as a socket timeout (at least 1, at most {@link Integer#MAX_VALUE})}
     * @throws SocketTimeoutException if the deadline has passed
     */
    public int remainingMillis() throws SocketTimeoutException {
        long nanos = remainingNanos();
        if (nanos <= 0) {
            throw new SocketTimeoutException("exchange deadline of " + timeout + " passed");
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (nanos + 999_999) / 1_000_000));
    }

    /**
     * @param socket a connected socket
     * @return its input stream, each read bounded by the time left
     * @throws IOException if the stream cannot be had
     */
    public InputStream input(Socket socket) throws IOException {
        return new FilterInputStream(socket.getInputStream()) {
            @Override
            public int read() throws IOException {
                socket.setSoTimeout(remainingMillis());
                return super.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                socket.setSoTimeout(remainingMillis());
                return super.read(b, off, len);
            }
        };
    }
}
