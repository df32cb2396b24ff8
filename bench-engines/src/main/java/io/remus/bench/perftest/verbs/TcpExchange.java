package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchFailedException;
import io.remus.bench.perftest.BenchTimeoutException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The out-of-band TCP connection of a verbs benchmark without {@code -R}, as perftest's default:
 * the server accepts one client, both send their QP endpoints and buffer, and the socket stays open
 * so that the server notices when the client leaves. Every wait has a deadline: accepting and
 * connecting the caller's {@code wait}, and each of {@link #swap} and {@link #barrier} the same
 * {@code wait} as a whole (a peer that trickles bytes cannot stretch it, as a per-read timeout would let it).
 */
final class TcpExchange implements AutoCloseable {
    private static final int MAGIC = 0x52454d55;
    private static final long RETRY_PAUSE_MS = 100;

    private final Socket socket;
    private final Duration wait;
    private final DeadlineInput deadlineInput;
    private final DataInputStream in;
    private final DataOutputStream out;

    private TcpExchange(Socket socket, Duration wait) throws IOException {
        this.socket = socket;
        this.wait = wait;
        this.deadlineInput = new DeadlineInput(socket.getInputStream());
        this.in = new DataInputStream(deadlineInput);
        this.out = new DataOutputStream(socket.getOutputStream());
    }

    /** The socket's input with one deadline over many reads: each read gets what is left of it as its timeout. */
    private final class DeadlineInput extends FilterInputStream {
        private long deadline;

        DeadlineInput(InputStream in) {
            super(in);
        }

        void startExchange() {
            deadline = System.nanoTime() + wait.toNanos();
        }

        @Override
        public int read() throws IOException {
            arm();
            return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            arm();
            return super.read(b, off, len);
        }

        private void arm() throws IOException {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("exchange deadline passed");
            }
            socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000)));
        }
    }

    /**
     * Waits for one client on {@code port}.
     *
     * @throws BenchTimeoutException when none comes within {@code wait}
     */
    static TcpExchange accept(int port, Duration wait) {
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(port));
            listener.setSoTimeout(timeoutMillis(wait));
            Socket s = listener.accept();
            s.setTcpNoDelay(true);
            return new TcpExchange(s, wait);
        } catch (SocketTimeoutException e) {
            throw new BenchTimeoutException("no client connected to TCP port " + port + " within " + wait.toMillis() + " ms");
        } catch (IOException e) {
            throw new BenchFailedException("cannot listen on TCP port " + port + ": " + e.getMessage());
        }
    }

    /**
     * Connects to the server, retrying while nobody listens yet.
     *
     * @throws BenchTimeoutException when no server answers within {@code wait}
     */
    static TcpExchange connect(String host, int port, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        IOException last;
        while (true) {
            Socket s = new Socket();
            try {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                s.connect(new InetSocketAddress(host, port), (int) Math.min(Integer.MAX_VALUE, left));
                s.setTcpNoDelay(true);
                return new TcpExchange(s, wait);
            } catch (ConnectException | SocketTimeoutException e) {
                last = e;
                closeQuietly(s);
            } catch (IOException e) {
                closeQuietly(s);
                throw new BenchFailedException("cannot connect to " + host + ":" + port + ": " + e.getMessage());
            }
            if (System.nanoTime() + RETRY_PAUSE_MS * 1_000_000 - deadline >= 0) {
                throw new BenchTimeoutException("no server at " + host + ":" + port + " within " + wait.toMillis()
                        + " ms (" + last.getMessage() + ")");
            }
            try {
                Thread.sleep(RETRY_PAUSE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BenchFailedException("interrupted while connecting to " + host + ":" + port);
            }
        }
    }

    private static final int MAX_BLOCKS = 64;
    private static final int MAX_BLOCK_BYTES = 1 << 16;

    /**
     * Sends this side's description and reads the peer's. The peer's whole message is read
     * (within bounds) before it is checked, so that neither side closes the connection on
     * unread data: a reset would hide the reason from the peer.
     *
     * @param signature a digest of the test and flags; both sides must agree
     * @param mine      this side's blocks (QP endpoints, buffer)
     * @return the peer's blocks, of the same lengths
     * @throws BenchFailedException when the peer runs another test or flags, or leaves
     * @throws BenchTimeoutException when the peer's whole message has not come within the exchange's wait
     */
    byte[][] swap(int signature, byte[][] mine) {
        deadlineInput.startExchange();
        try {
            out.writeInt(MAGIC);
            out.writeInt(signature);
            out.writeInt(mine.length);
            for (byte[] block : mine) {
                out.writeInt(block.length);
                out.write(block);
            }
            out.flush();
            if (in.readInt() != MAGIC) {
                throw new BenchFailedException("the peer is not a remus bench");
            }
            int theirSignature = in.readInt();
            int n = in.readInt();
            if (n < 0 || n > MAX_BLOCKS) {
                throw new BenchFailedException("the peer announced " + n + " blocks (at most " + MAX_BLOCKS + ")");
            }
            byte[][] theirs = new byte[n][];
            for (int i = 0; i < n; i++) {
                int length = in.readInt();
                if (length < 0 || length > MAX_BLOCK_BYTES) {
                    throw new BenchFailedException("the peer's block " + i + " has " + length + " bytes (at most "
                            + MAX_BLOCK_BYTES + ")");
                }
                theirs[i] = in.readNBytes(length);
                if (theirs[i].length != length) {
                    throw new BenchFailedException("the peer left during the exchange");
                }
            }
            if (theirSignature != signature) {
                throw new BenchFailedException("the peer runs another test or other flags (-s, -a, -q, -n, -D must match)");
            }
            if (n != mine.length) {
                throw new BenchFailedException("the peer sent " + n + " blocks, expected " + mine.length);
            }
            for (int i = 0; i < n; i++) {
                if (theirs[i].length != mine[i].length) {
                    throw new BenchFailedException("the peer's block " + i + " has " + theirs[i].length
                            + " bytes, expected " + mine[i].length);
                }
            }
            return theirs;
        } catch (SocketTimeoutException e) {
            throw new BenchTimeoutException("the peer did not complete the connection exchange within "
                    + wait.toMillis() + " ms");
        } catch (IOException e) {
            throw new BenchFailedException("connection exchange failed: " + e.getMessage());
        }
    }

    /** Sends one byte and waits for the peer's: both sides' QPs are ready. */
    void barrier() {
        deadlineInput.startExchange();
        try {
            out.write(1);
            out.flush();
            if (in.read() != 1) {
                throw new BenchFailedException("the peer left before its queue pairs were ready");
            }
        } catch (SocketTimeoutException e) {
            throw new BenchTimeoutException("the peer's queue pairs were not ready within " + wait.toMillis() + " ms");
        } catch (IOException e) {
            throw new BenchFailedException("connection exchange failed: " + e.getMessage());
        }
    }

    /** @return whether the peer closed the connection (waits at most a millisecond) */
    boolean peerLeft() {
        try {
            socket.setSoTimeout(1);
            InputStream raw = socket.getInputStream();
            return raw.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** @return the connected socket, for tests that play a misbehaving peer; closing it closes this exchange */
    Socket socketForTests() {
        return socket;
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static int timeoutMillis(Duration wait) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, wait.toMillis()));
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do: the socket is being dropped
        }
    }
}
