package io.remus.core.shm;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.fabric.Fabric;
import io.remus.core.fabric.FabricNode;
import io.remus.core.fabric.RemoteRegion;
import io.remus.core.memory.RemotePtr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A fabric over shared memory: the nodes of one cluster, in one or several processes of one host,
 * keep their registered memory in files of one directory (e.g. under {@code /dev/shm}), and every
 * queue pair executes its READs, WRITEs, compare-and-swaps and fetch-and-adds directly on the
 * target's file as its own process maps it. No RDMA device, no privileges and no native code are
 * needed. See the package description for the semantics, the directory's files and their life.
 *
 * <p>Every process of the cluster opens its own {@code ShmFabric} on the same directory and opens
 * its own node(s) on it; {@link #publishedRegions(int)} reads any node's publications from the
 * directory. Thread-safe.
 */
public final class ShmFabric implements Fabric {
    private final Path dir;
    private final long clusterId;
    private final ConcurrentHashMap<Integer, ShmNode> nodes = new ConcurrentHashMap<>();

    private ShmFabric(Path dir, long clusterId) {
        this.dir = dir;
        this.clusterId = clusterId;
    }

    /**
     * Opens the cluster whose files live in {@code dir}: creates the directory when missing, and the
     * cluster's id when no process has yet.
     *
     * @param dir the cluster's directory, the same path in every process of the cluster; on a
     *            memory-backed file system ({@code /dev/shm}) its files are memory, on a disk they are
     *            paged through the page cache
     * @return the fabric; its nodes are opened with {@link #open(int)}
     * @throws NullPointerException when {@code dir} is null
     * @throws RemusException       naming the directory when it cannot be created or read
     */
    public static ShmFabric open(Path dir) {
        Objects.requireNonNull(dir, "dir");
        Path abs = dir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(abs);
        } catch (IOException e) {
            throw new RemusException("cannot create the shared-memory directory " + abs + ": " + e, e);
        }
        return new ShmFabric(abs, clusterId(abs));
    }

    /** Reads the id in {@code dir/cluster}, first writing a random one when the file does not exist. */
    private static long clusterId(Path dir) {
        Path file = dir.resolve(ShmFiles.CLUSTER);
        try {
            if (!Files.exists(file)) {
                Path tmp = Files.createTempFile(dir, ShmFiles.CLUSTER + "-", ShmFiles.TMP_SUFFIX);
                try {
                    Files.writeString(tmp, HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + "\n",
                            StandardCharsets.US_ASCII);
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException anotherProcessWasFirst) {
                    // read theirs below
                } finally {
                    Files.deleteIfExists(tmp);
                }
            }
            String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return HexFormat.fromHexDigitsToLong(text);
        } catch (IOException | IllegalArgumentException e) {
            throw new RemusException("cannot read or write the cluster id " + file + ": " + e, e);
        }
    }

    /** {@return the cluster's directory, absolute} */
    public Path directory() {
        return dir;
    }

    /** {@return the cluster's id: random, chosen by the first process that opened the directory, the same in every process} */
    public long clusterId() {
        return clusterId;
    }

    @Override
    public String name() {
        return "shm";
    }

    /**
     * Opens node {@code nodeId} in this process: creates its directory {@code node-N} and its node file, with a
     * new incarnation ({@link FabricNode#incarnation()}). When the directory already has the node and that node
     * is over (its process closed it, or died), this opens its next incarnation: the former one's node file is
     * marked closed, so peers that reach it get {@code RETRY_EXCEEDED} and, after a queue pair
     * {@linkplain io.remus.core.fabric.QueuePair#reset reset}, reach the new one; its files are removed.
     *
     * @throws BadArgumentException when the id is out of range, the node is open on this fabric, or the
     *                              directory already has the node open in a process that still runs (a
     *                              duplicate node id)
     */
    @Override
    public synchronized FabricNode open(int nodeId) {
        RemotePtr.requireNodeId(nodeId);
        if (nodes.containsKey(nodeId)) {
            throw new BadArgumentException("node " + nodeId + " is already open on this fabric");
        }
        ShmNode node = ShmNode.create(this, nodeId);
        nodes.put(nodeId, node);
        return node;
    }

    /**
     * The regions node {@code nodeId} published, from this process's node or from the node's
     * {@code published} file.
     *
     * @param nodeId any node id
     * @return its published regions in publication order; empty when the node has not opened,
     *         published nothing or closed
     * @throws RemusException when the node's publications cannot be read
     */
    @Override
    public List<RemoteRegion> publishedRegions(int nodeId) {
        ShmNode local = nodes.get(nodeId);
        if (local != null) {
            return local.published();
        }
        if (nodeId < 0 || nodeId > RemotePtr.MAX_NODE_ID) {
            return List.of();
        }
        Path file = ShmFiles.nodeDir(dir, nodeId).resolve(ShmFiles.PUBLISHED);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        } catch (NoSuchFileException notYet) {
            return List.of();
        } catch (IOException e) {
            throw new RemusException("cannot read the publications of node " + nodeId + " in " + file + ": " + e, e);
        }
        List<RemoteRegion> regions = new ArrayList<>(lines.size());
        for (String line : lines) {
            String[] f = line.strip().split(" ");
            if (f.length != 3) {
                throw new RemusException("malformed publication '" + line + "' in " + file);
            }
            try {
                regions.add(new RemoteRegion(nodeId, Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseUnsignedInt(f[0])));
            } catch (NumberFormatException | BadArgumentException e) {
                throw new RemusException("malformed publication '" + line + "' in " + file + ": " + e.getMessage(), e);
            }
        }
        return List.copyOf(regions);
    }

    /**
     * Closes every node this fabric opened (see the package description for what stays in the
     * directory). Idempotent.
     */
    @Override
    public synchronized void close() {
        for (ShmNode node : List.copyOf(nodes.values())) {
            node.close();
        }
    }

    /**
     * Removes a cluster's files: its id, and every node's directory with its node file, region files,
     * publications and receive queue, whether the node closed or its process died; then {@code dir} itself when
     * nothing else is in it. Files of other names are left alone. Call it when no process of the
     * cluster runs any more: a process still running keeps the memory it mapped, but peers can no
     * longer find it.
     *
     * @param dir the cluster's directory
     * @return how many files and directories were removed; 0 when {@code dir} does not exist
     * @throws NullPointerException when {@code dir} is null
     * @throws RemusException       naming the file that could not be removed
     */
    public static int removeFiles(Path dir) {
        Objects.requireNonNull(dir, "dir");
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> top = Files.newDirectoryStream(dir)) {
            for (Path p : top) {
                String name = p.getFileName().toString();
                if (name.startsWith(ShmFiles.NODE_PREFIX) && Files.isDirectory(p)) {
                    removed += removeNodeDir(p);
                } else if (name.equals(ShmFiles.CLUSTER) || name.startsWith(ShmFiles.CLUSTER + "-") && name.endsWith(ShmFiles.TMP_SUFFIX)) {
                    removed += Files.deleteIfExists(p) ? 1 : 0;
                }
            }
        } catch (IOException e) {
            throw new RemusException("cannot remove the shared-memory files in " + dir + ": " + e, e);
        }
        try (DirectoryStream<Path> rest = Files.newDirectoryStream(dir)) {
            if (!rest.iterator().hasNext()) {
                Files.delete(dir);
                removed++;
            }
        } catch (IOException e) {
            throw new RemusException("cannot remove " + dir + ": " + e, e);
        }
        return removed;
    }

    /** Removes a node directory's files, then the directory unless it holds files of other names. */
    static int removeNodeDirectory(Path nodeDir) throws IOException {
        return removeNodeDir(nodeDir);
    }

    private static int removeNodeDir(Path nodeDir) throws IOException {
        int removed = 0;
        boolean foreign = false;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(nodeDir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.equals(ShmFiles.NODE) || name.equals(ShmFiles.PUBLISHED) || name.equals(ShmReceiveQueue.FILE)
                        || name.startsWith(ShmFiles.REGION_PREFIX) || name.endsWith(ShmFiles.TMP_SUFFIX)) {
                    removed += Files.deleteIfExists(f) ? 1 : 0;
                } else {
                    foreign = true;
                }
            }
        }
        if (!foreign) {
            Files.delete(nodeDir);
            removed++;
        }
        return removed;
    }

    /** {@return the caller-owned registration with remote key {@code rkey} of node {@code nodeId} of this process, or null} */
    ShmRegion callerOwnedRegion(int nodeId, int rkey) {
        ShmNode node = nodes.get(nodeId);
        return node == null ? null : node.callerOwned(rkey);
    }

    void forget(ShmNode node) {
        nodes.remove(node.nodeId(), node);
    }
}
