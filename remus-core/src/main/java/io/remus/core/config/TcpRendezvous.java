package io.remus.core.config;

import io.remus.core.BadArgumentException;
import io.remus.core.RemoteTimeoutException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Address exchange through rank 0, for jobs without a shared directory: rank 0 listens on
 * {@code root}'s port (on every interface), every other rank connects (retrying while rank 0 is still starting) and sends one
 * line {@code RANK host:port}; once all {@code size - 1} ranks have, rank 0 answers each with one
 * line holding every rank's address, comma-separated, by rank. The root address must be reachable
 * by every rank: under Slurm the first host of the node list, under Open MPI the first host given
 * to {@code mpirun --host}.
 *
 * <p>Every step is bounded by the caller's timeout. Errors are typed and name the rank: a rank
 * outside {@code 0..size-1} or a duplicate one (rank 0 answers {@code ERROR ...} to the offender
 * and fails too), a malformed line, and, on timeout, the ranks rank 0 has not heard from (at rank
 * 0) or rank 0 itself (at the others).
 */
public final class TcpRendezvous {
    private static final long RETRY_MILLIS = 50;

    private TcpRendezvous() {
    }

    /**
     * @param root    where rank 0 listens
     * @param rank    this process's rank, {@code 0..size-1}
     * @param size    how many ranks, {@code 1..}{@link ClusterConfig#MAX_NODES}
     * @param address this rank's {@code host:port}
     * @param timeout how long the whole exchange may take (see {@link Timeouts#require})
     * @return every rank's {@code host:port}, by rank
     * @throws BadArgumentException   naming the value for a bad rank, size, address or timeout, a
     *                                duplicate or out-of-range rank, or a malformed message
     * @throws RemoteTimeoutException naming the ranks (or rank 0) not heard from in time
     */
    public static List<String> exchange(InetSocketAddress root, int rank, int size, String address, Duration timeout) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(address, "address");
        String own = Rendezvous.checkArguments(rank, size, address, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        return rank == 0 ? serve(root, size, own, deadline, timeout) : join(root, rank, size, own, deadline, timeout);
    }

    private static List<String> serve(InetSocketAddress root, int size, String own, long deadline, Duration timeout) {
        String[] addresses = new String[size];
        addresses[0] = own;
        Socket[] peers = new Socket[size];
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(root.getPort()));
            int heard = 1;
            while (heard < size) {
                int left = remainingMillis(deadline);
                if (left <= 0) {
                    List<Integer> missing = new ArrayList<>();
                    for (int r = 1; r < size; r++) {
                        if (addresses[r] == null) {
                            missing.add(r);
                        }
                    }
                    throw new RemoteTimeoutException("rank 0: TCP rendezvous at " + root + " still misses rank(s) " + missing
                            + " of " + size + " after " + timeout);
                }
                server.setSoTimeout(left);
                Socket s;
                try {
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                }
                s.setSoTimeout(Math.max(1, remainingMillis(deadline)));
                String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
                int r = peerRank(line, size, s, addresses);
                addresses[r] = line.substring(line.indexOf(' ') + 1).strip();
                peers[r] = s;
                heard++;
            }
            byte[] answer = (String.join(",", addresses) + "\n").getBytes(StandardCharsets.UTF_8);
            for (int r = 1; r < size; r++) {
                peers[r].getOutputStream().write(answer);
                peers[r].getOutputStream().flush();
            }
            return List.copyOf(Arrays.asList(addresses));
        } catch (SocketTimeoutException e) {
            throw new RemoteTimeoutException("rank 0: a rank connected to the TCP rendezvous at " + root
                    + " but sent no line within " + timeout);
        } catch (IOException e) {
            throw new BadArgumentException("rank 0: TCP rendezvous at " + root + " failed: " + e);
        } finally {
            for (Socket s : peers) {
                closeQuietly(s);
            }
        }
    }

    private static int peerRank(String line, int size, Socket s, String[] addresses) throws IOException {
        String problem;
        int r = -1;
        int space = line == null ? -1 : line.indexOf(' ');
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
            OutputStream out = s.getOutputStream();
            out.write(("ERROR " + problem + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            closeQuietly(s);
            throw new BadArgumentException("rank 0: TCP rendezvous received " + problem);
        }
        return r;
    }

    private static List<String> join(InetSocketAddress root, int rank, int size, String own, long deadline, Duration timeout) {
        while (true) {
            int left = remainingMillis(deadline);
            if (left <= 0) {
                throw new RemoteTimeoutException("rank " + rank + ": rank 0's TCP rendezvous at " + root
                        + " did not answer within " + timeout);
            }
            try (Socket s = new Socket()) {
                s.connect(root, left);
                s.setSoTimeout(Math.max(1, remainingMillis(deadline)));
                s.getOutputStream().write((rank + " " + own + "\n").getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
                String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
                return answer(line, rank, size, root);
            } catch (SocketTimeoutException e) {
                throw new RemoteTimeoutException("rank " + rank + ": rank 0's TCP rendezvous at " + root
                        + " did not answer within " + timeout + " (it waits for every rank)");
            } catch (IOException e) {
                try {
                    TimeUnit.MILLISECONDS.sleep(Math.min(RETRY_MILLIS, Math.max(1, remainingMillis(deadline))));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new RemoteTimeoutException("rank " + rank + ": interrupted while reaching rank 0 at " + root);
                }
            }
        }
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

    private static int remainingMillis(long deadline) {
        long nanos = deadline - System.nanoTime();
        return nanos <= 0 ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(nanos)));
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closing a finished exchange's socket; nothing depends on it
            }
        }
    }
}
