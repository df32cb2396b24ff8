package io.remus.core.verbs.bootstrap;

import io.remus.core.RemoteTimeoutException;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends one bootstrap request to a peer process and reads its reply, retrying the connection
 * (the peer may still be starting) until a deadline. Control path only.
 */
public final class BootstrapClient {
    private static final int SOCKET_TIMEOUT_MILLIS = 10_000;
    private static final long RETRY_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private BootstrapClient() {
    }

    /**
     * @param peer    the peer's bootstrap address
     * @param request the request
     * @param timeout how long to keep trying to reach the peer
     * @return the reply (never an {@link BootstrapMessage.ErrorReply}: that is thrown)
     * @throws RemoteTimeoutException      when the peer could not be reached in time
     * @throws BootstrapProtocolException  when the reply is malformed or an error
     */
    public static BootstrapMessage exchange(InetSocketAddress peer, BootstrapMessage request, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] frame = BootstrapCodec.encode(request);
        IOException last;
        do {
            try (Socket s = new Socket()) {
                InetSocketAddress target = peer.isUnresolved() ? new InetSocketAddress(peer.getHostString(), peer.getPort()) : peer;
                s.connect(target, SOCKET_TIMEOUT_MILLIS);
                s.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
                s.setTcpNoDelay(true);
                OutputStream out = s.getOutputStream();
                out.write(frame);
                out.flush();
                BootstrapMessage reply = BootstrapCodec.read(s.getInputStream());
                if (reply instanceof BootstrapMessage.ErrorReply error) {
                    throw new BootstrapProtocolException("peer " + peer + " refused " + request + ": " + error.message());
                }
                return reply;
            } catch (IOException e) {
                last = e;
                LockSupport.parkNanos(RETRY_PAUSE_NANOS);
            }
        } while (System.nanoTime() - deadline < 0);
        throw new RemoteTimeoutException("bootstrap peer " + peer + " did not answer within " + timeout + ": " + last);
    }
}
