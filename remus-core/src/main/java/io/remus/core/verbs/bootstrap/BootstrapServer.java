package io.remus.core.verbs.bootstrap;

import io.remus.core.RemusException;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;

/**
 * A process's bootstrap endpoint: a TCP listener whose one daemon thread serves each connection's
 * single request with a {@link BootstrapHandler} and closes it. A malformed request is answered
 * with an {@link BootstrapMessage.ErrorReply} naming the problem; a handler failure likewise.
 * Control path only.
 */
public final class BootstrapServer implements AutoCloseable {
    private static final int SOCKET_TIMEOUT_MILLIS = 10_000;

    private final ServerSocket socket;
    private final BootstrapHandler handler;
    private final Thread thread;

    /**
     * Binds {@code address} and starts serving.
     *
     * @param address where to listen (port 0 picks one)
     * @param handler what serves requests
     * @throws RemusException when the address cannot be bound
     */
    public BootstrapServer(InetSocketAddress address, BootstrapHandler handler) {
        this.handler = handler;
        try {
            socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(address);
        } catch (IOException e) {
            throw new RemusException("cannot listen for bootstrap requests on " + address + ": " + e.getMessage(), e);
        }
        thread = Thread.ofPlatform().daemon().name("remus-bootstrap-" + socket.getLocalPort()).start(this::serve);
    }

    /** @return the bound port */
    public int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                s.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
                s.setTcpNoDelay(true);
                BootstrapMessage reply;
                try {
                    reply = handler.handle(BootstrapCodec.read(s.getInputStream()));
                } catch (RuntimeException e) {
                    reply = new BootstrapMessage.ErrorReply(String.valueOf(e.getMessage()));
                }
                OutputStream out = s.getOutputStream();
                out.write(BootstrapCodec.encode(reply));
                out.flush();
            } catch (SocketException closedOrReset) {
                if (socket.isClosed()) {
                    return;
                }
            } catch (IOException ignoredBrokenClient) {
                // one failed exchange does not stop the service
            }
        }
    }

    /** Stops listening and waits (bounded) for the service thread. Idempotent. */
    @Override
    public void close() {
        try {
            socket.close();
            thread.join(SOCKET_TIMEOUT_MILLIS);
        } catch (IOException e) {
            throw new RemusException("closing the bootstrap listener failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
