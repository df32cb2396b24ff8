package io.remus.core.config;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteTimeoutException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Address exchange through a shared directory, for launchers that give each process its rank and
 * the job's size but not its peers' addresses (Open MPI, PMI): every rank writes its
 * {@code host:port} to the file {@code rank-N} in the directory (written under a temporary name,
 * then hard-linked to {@code rank-N}, which is atomic and fails when the name exists, so a reader
 * never sees half a file and two processes claiming one rank cannot both succeed), then waits until all {@code size} files
 * exist and reads them. The directory must be visible to every process at the same path (one
 * host's file system, or a network file system across hosts) and hold no files of an earlier
 * run: use a fresh directory per job.
 *
 * <p>Errors are typed and name the rank: a rank outside {@code 0..size-1}, a {@code rank-N} file
 * already present when this rank writes its own (a duplicate rank, or a stale directory), a file
 * of a rank outside the size, a malformed address, and, after the caller's timeout, the ranks
 * whose files are still missing.
 */
public final class Rendezvous {
    private static final String PREFIX = "rank-";
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private Rendezvous() {
    }

    /**
     * The checks both rendezvous forms make before any I/O: the timeout, the size, the rank within
     * it, and the address as {@code host:port}.
     *
     * @return the address without surrounding white space
     * @throws BadArgumentException naming the bad value
     */
    static String checkArguments(int rank, int size, String address, Duration timeout) {
        Timeouts.require(timeout, "rendezvous timeout");
        if (size < 1 || size > ClusterConfig.MAX_NODES) {
            throw new BadArgumentException("rendezvous size must be 1.." + ClusterConfig.MAX_NODES + ", got " + size);
        }
        if (rank < 0 || rank >= size) {
            throw new BadArgumentException("rank " + rank + " is outside the job's size " + size + " (ranks 0.." + (size - 1) + ")");
        }
        String own = address.strip();
        if (own.indexOf(':') < 0) {
            throw new BadArgumentException("rank " + rank + ": the rendezvous address must be host:port, got '" + address + "'");
        }
        NodeAddress.parse(own, rank);
        return own;
    }

    /**
     * Publishes this rank's address and waits for every other rank's.
     *
     * @param dir     the shared directory (created when missing)
     * @param rank    this process's rank, {@code 0..size-1}
     * @param size    how many ranks, {@code 1..}{@link ClusterConfig#MAX_NODES}
     * @param address this rank's {@code host:port}
     * @param timeout how long to wait for the others (see {@link Timeouts#require})
     * @return every rank's {@code host:port}, by rank
     * @throws BadArgumentException   naming the value for a bad rank, size, address or timeout, a
     *                                duplicate or out-of-range rank file, or an unusable directory
     * @throws RemoteTimeoutException naming the ranks whose files did not appear in time
     */
    public static List<String> exchange(Path dir, int rank, int size, String address, Duration timeout) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(address, "address");
        String own = checkArguments(rank, size, address, timeout);
        publish(dir, rank, own);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Integer> missing = missing(dir, size);
            if (missing.isEmpty()) {
                break;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RemoteTimeoutException("rank " + rank + ": rendezvous in " + dir + " still misses rank(s) "
                        + missing + " of " + size + " after " + timeout);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        List<String> addresses = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            Path file = dir.resolve(PREFIX + r);
            String entry;
            try {
                entry = Files.readString(file, StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new BadArgumentException("cannot read " + file + ": " + e.getMessage());
            }
            try {
                NodeAddress.parse(entry, r);
            } catch (BadArgumentException e) {
                throw new BadArgumentException("rank " + r + " published a bad address in " + file + ": " + e.getMessage());
            }
            addresses.add(entry);
        }
        return List.copyOf(addresses);
    }

    private static void publish(Path dir, int rank, String address) {
        Path target = dir.resolve(PREFIX + rank);
        try {
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, "." + PREFIX + rank + "-", ".tmp");
            try {
                Files.writeString(temp, address + "\n", StandardCharsets.UTF_8);
                Files.createLink(target, temp);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (FileAlreadyExistsException e) {
            throw new BadArgumentException("rank " + rank + " is already registered in " + dir
                    + ": a duplicate rank, or a directory left by an earlier run");
        } catch (IOException e) {
            throw new BadArgumentException("cannot publish rank " + rank + " in rendezvous directory " + dir + ": " + e);
        }
    }

    private static List<Integer> missing(Path dir, int size) {
        boolean[] seen = new boolean[size];
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, PREFIX + "*")) {
            for (Path f : files) {
                String n = f.getFileName().toString().substring(PREFIX.length());
                int r;
                try {
                    r = Integer.parseInt(n);
                } catch (NumberFormatException e) {
                    throw new BadArgumentException("rendezvous directory " + dir + " holds a file that names no rank: " + f);
                }
                if (r < 0 || r >= size) {
                    throw new BadArgumentException("rendezvous directory " + dir + " holds rank " + r
                            + ", outside the job's size " + size + " (a rank outside the size, or a directory left by an earlier run)");
                }
                seen[r] = true;
            }
        } catch (NoSuchFileException e) {
            throw new BadArgumentException("rendezvous directory " + dir + " disappeared");
        } catch (IOException e) {
            throw new BadArgumentException("cannot list rendezvous directory " + dir + ": " + e);
        }
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (!seen[r]) {
                missing.add(r);
            }
        }
        return missing;
    }
}
