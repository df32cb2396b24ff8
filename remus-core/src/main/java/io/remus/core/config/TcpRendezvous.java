package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;

import io.remus.core.net.ExchangeDeadline;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Address exchange through rank 0, for jobs without a shared directory: rank 0 listens on
 * {@code root}'s port (on every interface), every other rank connects (retrying while rank 0 is still starting) and sends one
 * line {@code RANK host:port}; once all {@code size - 1} ranks have, rank 0 answers each with one
 * line holding every rank's address, comma-separated, by rank. The root address must be reachable
 * by every rank: under Slurm the first host of the node list, under Open MPI the first host given
 * to {@code mpirun --host}.
 *
 * <p>The caller's timeout bounds the whole exchange, at every rank, as one deadline: rank 0
 * serves every connection at once without blocking on any (one thread, non-blocking sockets), so
 * a connection that stays silent or sends its line a byte at a time delays no other rank, and
 * none keeps rank 0 past the deadline; the other ranks bound connecting, every read of the answer
 * and the pauses between attempts by the same deadline, so rank 0 trickling its answer cannot
 * keep them either. A connection that closes without sending a byte is not a rank and is dropped.
 *
 * <p>Errors are typed and name the rank: a rank outside {@code 0..size-1} or a duplicate one (rank
 * 0 answers {@code ERROR ...} to the offender and fails too), a malformed or overlong line, and,
 * on timeout, the ranks rank 0 has not heard from and how many connections sent no complete line
 * (at rank 0) or rank 0 itself (at the others). An interrupted rank 0 stops with a
 * {@link RemoteTimeoutException} saying so.
 */
public final class TcpRendezvous {
    private static final long RETRY_MILLIS = 50;
    /** The longest line a rank may send rank 0: its rank, a space and {@code host:port}. */
    private static final int MAX_LINE_BYTES = 1024;

    private TcpRendezvous() {
    }

    /**
     * Exchanges every rank's address through rank 0 over TCP.
     *
     * @param root    where rank 0 listens
     * @param rank    this process's rank, {@code 0..size-1}
     * @param size    how many ranks, {@code 1..}{@link ClusterConfig#MAX_NODES}
     * @param address this rank's {@code host:port}
     * @param timeout how long the whole exchange may take, at this rank (see {@link Timeouts#require});
     *                nothing here waits past it
     * @return every rank's {@code host:port}, by rank
     * @throws BadArgumentException   naming the value for a bad rank, size, address or timeout, a
     *                                duplicate or out-of-range rank, or a malformed message
     * @throws RemoteTimeoutException naming the ranks (or rank 0) not heard from in time
     */
    public static List<String> exchange(InetSocketAddress root, int rank, int size, String address, Duration timeout) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(address, "address");
        String own = Rendezvous.checkArguments(rank, size, address, timeout);
        ExchangeDeadline deadline = ExchangeDeadline.after(timeout, "timeout");
        return rank == 0 ? serve(root, size, own, deadline) : join(root, rank, size, own, deadline);
    }

    /** One connection to rank 0: the bytes of its line so far, and its rank once the line is complete. */
    private static final class Peer {
        final SocketChannel channel;
        final ByteArrayOutputStream line = new ByteArrayOutputStream();
        int rank = -1;
        ByteBuffer answer;

        Peer(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private static List<String> serve(InetSocketAddress root, int size, String own, ExchangeDeadline deadline) {
        String[] addresses = new String[size];
        addresses[0] = own;
        List<Peer> open = new ArrayList<>();
        try (Selector selector = Selector.open(); ServerSocketChannel server = ServerSocketChannel.open()) {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(root.getPort()));
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
            int heard = 1;
            while (heard < size) {
                await(selector, root, deadline, () -> missing(root, size, addresses, open, deadline));
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey key = it.next();
                    it.remove();
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept(server, selector, open);
                    } else if (key.isReadable() && readLine((Peer) key.attachment(), size, addresses, open)) {
                        key.interestOps(0);
                        heard++;
                    }
                }
            }
            deliver(selector, root, size, addresses, open, deadline);
            return List.copyOf(Arrays.asList(addresses));
        } catch (IOException e) {
            throw new BadArgumentException("rank 0: TCP rendezvous at " + root + " failed: " + e);
        } finally {
            for (Peer p : open) {
                closeQuietly(p.channel);
            }
        }
    }

    private static void accept(ServerSocketChannel server, Selector selector, List<Peer> open) throws IOException {
        SocketChannel c;
        while ((c = server.accept()) != null) {
            Peer p = new Peer(c);
            open.add(p);
            c.configureBlocking(false);
            c.register(selector, SelectionKey.OP_READ, p);
        }
    }

    /**
     * Reads what {@code p} has sent, without waiting; once its line is complete (a line end, or the
     * connection closed after some bytes), checks it and records its rank. A connection closed
     * before its first byte (a port probe, or a rank whose attempt failed and is retried) is dropped.
     *
     * @return whether {@code p}'s line is now complete and recorded
     */
    private static boolean readLine(Peer p, int size, String[] addresses, List<Peer> open) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_LINE_BYTES + 1 - p.line.size());
        int n;
        try {
            n = p.channel.read(buffer);
        } catch (IOException reset) {
            n = -1;
        }
        if (n < 0 && p.line.size() == 0) {
            open.remove(p);
            closeQuietly(p.channel);
            return false;
        }
        buffer.flip();
        boolean ended = false;
        while (!ended && buffer.hasRemaining()) {
            byte b = buffer.get();
            ended = b == '\n';
            if (!ended) {
                p.line.write(b);
            }
        }
        if (!ended && p.line.size() > MAX_LINE_BYTES) {
            refuse(p, "a rendezvous line longer than " + MAX_LINE_BYTES + " bytes (expected 'RANK host:port')");
        }
        if (!ended && n >= 0) {
            return false;
        }
        String line = p.line.toString(StandardCharsets.UTF_8);
        line = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
        p.rank = peerRank(line, size, p, addresses);
        addresses[p.rank] = line.substring(line.indexOf(' ') + 1).strip();
        return true;
    }

    /** Writes the answer to every rank, all at once and none waiting on another, by the deadline. */
    private static void deliver(Selector selector, InetSocketAddress root, int size, String[] addresses, List<Peer> open,
                                ExchangeDeadline deadline) throws IOException {
        byte[] answer = (String.join(",", addresses) + "\n").getBytes(StandardCharsets.UTF_8);
        int pending = 0;
        for (Peer p : open) {
            if (p.rank > 0) {
                p.answer = ByteBuffer.wrap(answer);
                p.channel.keyFor(selector).interestOps(SelectionKey.OP_WRITE);
                pending++;
            }
        }
        while (pending > 0) {
            await(selector, root, deadline, () -> {
                List<Integer> unanswered = new ArrayList<>();
                for (Peer p : open) {
                    if (p.answer != null && p.answer.hasRemaining()) {
                        unanswered.add(p.rank);
                    }
                }
                return new RemoteTimeoutException("rank 0: TCP rendezvous at " + root + " could not answer rank(s) "
                        + unanswered.stream().sorted().toList() + " of " + size + " within " + deadline.timeout());
            });
            for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                SelectionKey key = it.next();
                it.remove();
                Peer p = (Peer) key.attachment();
                if (key.isValid() && key.isWritable() && p != null && p.answer != null) {
                    try {
                        p.channel.write(p.answer);
                    } catch (IOException e) {
                        throw new BadArgumentException("rank 0: TCP rendezvous at " + root + " could not answer rank "
                                + p.rank + ": " + e);
                    }
                    if (!p.answer.hasRemaining()) {
                        key.interestOps(0);
                        pending--;
                    }
                }
            }
        }
    }

    /**
     * Waits for {@code selector} until the deadline at most; past it, throws what {@code timedOut}
     * makes.
     *
     * @throws RemoteTimeoutException when the deadline has passed, or when the thread is
     *                                interrupted (a selector would otherwise return at once, again and again)
     */
    private static void await(Selector selector, InetSocketAddress root, ExchangeDeadline deadline,
                              Supplier<RemoteTimeoutException> timedOut) throws IOException {
        if (Thread.currentThread().isInterrupted()) {
            throw new RemoteTimeoutException("rank 0: interrupted while serving the TCP rendezvous at " + root);
        }
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
            throw timedOut.get();
        }
        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999)));
    }

    private static RemoteTimeoutException missing(InetSocketAddress root, int size, String[] addresses, List<Peer> open,
                                                  ExchangeDeadline deadline) {
        List<Integer> missing = new ArrayList<>();
        for (int r = 1; r < size; r++) {
            if (addresses[r] == null) {
                missing.add(r);
            }
        }
        long unfinished = open.stream().filter(p -> p.rank < 0).count();
        return new RemoteTimeoutException("rank 0: TCP rendezvous at " + root + " still misses rank(s) " + missing
                + " of " + size + " after " + deadline.timeout()
                + (unfinished == 0 ? "" : " (" + unfinished + " connection(s) sent no complete line)"));
    }

    private static int peerRank(String line, int size, Peer p, String[] addresses) {
        String problem;
        int r = -1;
        int space = line.indexOf(' ');
        if (space < 0) {
            problem = "a malformed rendezvous line '" + line + "' (expected 'RANK host:port')";
        } else {
            try {
                r = Integer.parseInt(line.substring(0, space));
                problem = r < 1 || r >= size ? "rank " + r + " is outside the job's size " + size
                        : addresses[r] != null ? "rank " + r + " registered twice (a duplicate rank)" : null;
                if (problem == null) {
                    NodeAddress.parse(line.substring(space + 1), r);
                }
            } catch (NumberFormatException e) {
                problem = "a malformed rendezvous line '" + line + "' (expected 'RANK host:port')";
            } catch (BadArgumentException e) {
                problem = "rank " + r + " sent a bad address: " + e.getMessage();
            }
        }
        if (problem != null) {
            refuse(p, problem);
        }
        return r;
    }

    /**
     * Answers {@code ERROR problem} to {@code p} (without waiting: the line fits a fresh
     * connection's send buffer, and a peer that is gone misses it) and fails.
     *
     * @throws BadArgumentException naming the problem, always
     */
    private static void refuse(Peer p, String problem) {
        try {
            p.channel.write(ByteBuffer.wrap(("ERROR " + problem + "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (IOException gone) {
            // the offender left; rank 0 fails all the same
        }
        closeQuietly(p.channel);
        throw new BadArgumentException("rank 0: TCP rendezvous received " + problem);
    }

    private static List<String> join(InetSocketAddress root, int rank, int size, String own, ExchangeDeadline deadline) {
        byte[] line = (rank + " " + own + "\n").getBytes(StandardCharsets.UTF_8);
        while (true) {
            if (deadline.passed()) {
                throw new RemoteTimeoutException("rank " + rank + ": rank 0's TCP rendezvous at " + root
                        + " did not answer within " + deadline.timeout());
            }
            try (Socket s = new Socket()) {
                s.connect(root, deadline.remainingMillis());
                s.getOutputStream().write(line);
                s.getOutputStream().flush();
                return answer(readAnswer(deadline.input(s), rank, size), rank, size, root);
            } catch (SocketTimeoutException e) {
                throw new RemoteTimeoutException("rank " + rank + ": rank 0's TCP rendezvous at " + root
                        + " did not answer within " + deadline.timeout() + " (it waits for every rank)");
            } catch (IOException e) {
                try {
                    TimeUnit.NANOSECONDS.sleep(Math.min(TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS),
                            Math.max(0, deadline.remainingNanos())));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new RemoteTimeoutException("rank " + rank + ": interrupted while reaching rank 0 at " + root);
                }
            }
        }
    }

    /**
     * @param in the connection's input, each read bounded by the exchange's deadline
     * @return rank 0's line without its line end, or null when it closed before sending a byte
     * @throws SocketTimeoutException when the deadline passes first
     */
    private static String readAnswer(InputStream in, int rank, int size) throws IOException {
        long max = (long) size * MAX_LINE_BYTES;
        InputStream buffered = new BufferedInputStream(in);
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = buffered.read()) >= 0 && b != '\n') {
            if (line.size() >= max) {
                throw new BadArgumentException("rank " + rank + ": rank 0 answered a line longer than " + max
                        + " bytes for a job of " + size);
            }
            line.write(b);
        }
        if (b < 0 && line.size() == 0) {
            return null;
        }
        String text = line.toString(StandardCharsets.UTF_8);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    private static List<String> answer(String line, int rank, int size, InetSocketAddress root) {
        if (line == null) {
            throw new BadArgumentException("rank " + rank + ": rank 0's TCP rendezvous at " + root + " closed without an answer");
        }
        if (line.startsWith("ERROR ")) {
            throw new BadArgumentException("rank " + rank + ": rank 0 refused it: " + line.substring(6));
        }
        List<String> addresses = List.of(line.strip().split(","));
        if (addresses.size() != size) {
            throw new BadArgumentException("rank " + rank + ": rank 0 answered " + addresses.size() + " addresses for a job of "
                    + size);
        }
        for (int r = 0; r < size; r++) {
            NodeAddress.parse(addresses.get(r), r);
        }
        return addresses;
    }

    private static void closeQuietly(SocketChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing a finished exchange's connection; nothing depends on it
        }
    }
}
