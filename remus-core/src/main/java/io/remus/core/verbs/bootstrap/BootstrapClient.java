package io.remus.core.verbs.bootstrap;

import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.net.ExchangeDeadline;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends one bootstrap request to a peer process and reads its reply, retrying the connection
 * (the peer may still be starting) until the caller's deadline. The deadline bounds everything:
 * connecting, sending, every read of the reply and the pauses between attempts. Control path only.
 */
public final class BootstrapClient {
    private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private BootstrapClient() {
    }

    /**
     * @param peer    the peer's bootstrap address
     * @param request the request
     * @param timeout how long the whole exchange may take, retries included; positive
     * @return the reply (never an {@link BootstrapMessage.ErrorReply}: that is thrown)
     * @throws NullPointerException        if an argument is null
     * @throws IllegalArgumentException    if {@code timeout} is not positive
     * @throws RemoteTimeoutException      when the peer did not answer within {@code timeout}
     *                                     (the message names the peer and the timeout)
     * @throws BootstrapProtocolException  when the reply is malformed or an error
     */
    public static BootstrapMessage exchange(InetSocketAddress peer, BootstrapMessage request, Duration timeout) {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(request, "request");
        ExchangeDeadline deadline = ExchangeDeadline.after(timeout, "timeout");
        byte[] frame = BootstrapCodec.encode(request);
        IOException last = null;
        while (!deadline.passed()) {
            try (Socket s = new Socket()) {
                InetSocketAddress target = peer.isUnresolved() ? new InetSocketAddress(peer.getHostString(), peer.getPort()) : peer;
                s.connect(target, deadline.remainingMillis());
                s.setTcpNoDelay(true);
                OutputStream out = s.getOutputStream();
                out.write(frame);
                out.flush();
                BootstrapMessage reply = BootstrapCodec.read(deadline.input(s));
                if (reply instanceof BootstrapMessage.ErrorReply error) {
                    throw new BootstrapProtocolException("peer " + peer + " refused " + request + ": " + error.message());
                }
                return reply;
            } catch (IOException e) {
                last = e;
                long pause = Math.min(RETRY_PAUSE_NANOS, deadline.remainingNanos());
                if (pause > 0) {
                    LockSupport.parkNanos(pause);
                }
            }
        }
        throw new RemoteTimeoutException("bootstrap peer " + peer + " did not answer " + request + " within "
                + timeout + (last == null ? "" : ": " + last));
    }
}
