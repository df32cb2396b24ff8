package io.remus.core.shm;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The files of a shared-memory cluster directory and the headers inside them.
 *
 * <pre>
 * DIR/cluster                 the cluster's id, written once by the first process that opens DIR
 * DIR/node-N/node             node N's state (a header of {@link #NODE_FILE_BYTES} bytes)
 * DIR/node-N/region-K         one registration of node N with rkey K: a header page, then its bytes
 * DIR/node-N/published        node N's published registrations, one "rkey address length" line each
 * DIR/node-N/receive          node N's receive queue ({@link ShmReceiveQueue}), once it made one
 * </pre>
 *
 * Node header and region header, 8-byte words:
 * <pre>
 *  0             8             16            24            32            40            48
 *  +-------------+-------------+-------------+-------------+-------------+-------------+
 *  | magic       | node id     | state       | pid         | incarnation |                node
 *  +-------------+-------------+-------------+-------------+-------------+-------------+-------------+
 *  | magic       | node id     | rkey        | address     | length      | state       | incarnation | region
 *  +-------------+-------------+-------------+-------------+-------------+-------------+-------------+
 *  region bytes start at {@link #PAGE}; a node file's access table starts at {@link #ACCESS_TABLE}
 * </pre>
 * A file appears under its final name only once complete (written under a {@code .tmp} name, then
 * renamed), and its state word changes only with volatile stores. The incarnation is drawn at random
 * (never 0) each time a process opens the node; a region file carries its node's, so a region file is
 * only ever taken for the incarnation that made it.
 */
final class ShmFiles {
    static final long PAGE = 4096;
    static final String CLUSTER = "cluster";
    static final String NODE_PREFIX = "node-";
    static final String NODE = "node";
    static final String PUBLISHED = "published";
    static final String REGION_PREFIX = "region-";
    static final String TMP_SUFFIX = ".tmp";

    static final long NODE_MAGIC = 0x52454D5553_4E4F44L;
    static final long REGION_MAGIC = 0x52454D5553_524547L;
    /**
     * Where a node file's access table starts: one word per peer node id and plane ({@link #accessSlot}: a peer's
     * {@code Plane.COUNT} words side by side), the sign bit set while the node holds that peer's plane
     * {@code READ_ONLY}, the low bits counting the peer's writes and atomics of that plane executing on the node.
     */
    static final long ACCESS_TABLE = PAGE;
    /** The node file: the header, then the access table (sparse: only its touched pages take memory). */
    static final long NODE_FILE_BYTES = ACCESS_TABLE
            + 8L * (io.remus.core.memory.RemotePtr.MAX_NODE_ID + 1) * io.remus.core.fabric.Plane.COUNT;
    /** An access slot's mark of a peer held {@code READ_ONLY}. */
    static final long READ_ONLY = Long.MIN_VALUE;

    static final long MAGIC = 0;
    static final long NODE_ID = 8;
    static final long NODE_STATE = 16;
    static final long NODE_PID = 24;
    static final long NODE_INCARNATION = 32;
    static final long REGION_RKEY = 16;
    static final long REGION_ADDRESS = 24;
    static final long REGION_LENGTH = 32;
    static final long REGION_STATE = 40;
    static final long REGION_INCARNATION = 48;

    /** Node state: open, its memory answers. */
    static final long OPEN = 1;
    /**
     * Node state: closed by its process, or ended by the process that opened the node's next incarnation; requests
     * to it complete with {@code RETRY_EXCEEDED}.
     */
    static final long CLOSED = 2;
    /** Region state: registered. */
    static final long REGISTERED = 1;
    /** Region state: deregistered; requests naming its rkey complete with {@code REMOTE_ACCESS_ERROR}. */
    static final long DEREGISTERED = 2;

    static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private static final java.security.SecureRandom INCARNATIONS = new java.security.SecureRandom();

    private ShmFiles() {
    }

    /** {@return a random node incarnation, never 0} */
    static long newIncarnation() {
        long n;
        do {
            n = INCARNATIONS.nextLong();
        } while (n == 0);
        return n;
    }

    /** {@return the offset in a node file of peer {@code peerNodeId}'s access slot of plane {@code plane}} */
    static long accessSlot(int peerNodeId, int plane) {
        return ACCESS_TABLE + 8L * ((long) peerNodeId * io.remus.core.fabric.Plane.COUNT + plane);
    }

    static Path nodeDir(Path dir, int nodeId) {
        return dir.resolve(NODE_PREFIX + nodeId);
    }

    static Path regionFile(Path dir, int nodeId, int rkey) {
        return nodeDir(dir, nodeId).resolve(REGION_PREFIX + Integer.toUnsignedString(rkey));
    }

    static Path temporary(Path file) {
        return file.resolveSibling(file.getFileName() + TMP_SUFFIX);
    }

    /**
     * Creates {@code file} of {@code bytes} zero bytes (sparse) and maps it read-write in {@code arena}.
     *
     * @throws RemusException naming the file when it cannot be created or mapped
     */
    static MemorySegment createAndMap(Path file, long bytes, Arena arena) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1), bytes - 1);
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
        } catch (IOException e) {
            throw new RemusException("cannot create shared memory file " + file + " of " + bytes + " bytes: " + e, e);
        }
    }

    /**
     * Maps an existing file read-write in {@code arena}, when it exists and holds at least {@code minimum} bytes.
     *
     * @return the whole file, or null when it does not exist or is shorter
     * @throws RemusException naming the file when it exists but cannot be mapped
     */
    static MemorySegment mapExisting(Path file, long minimum, Arena arena) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size < minimum) {
                return null;
            }
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        } catch (java.nio.file.NoSuchFileException gone) {
            return null;
        } catch (IOException e) {
            throw new RemusException("cannot map shared memory file " + file + ": " + e, e);
        }
    }

    /** Checks that a new registration of {@code bytes} fits the file system of {@code dir}. */
    static void requireSpace(Path dir, long bytes) {
        try {
            long usable = java.nio.file.Files.getFileStore(dir).getUsableSpace();
            if (usable > 0 && bytes > usable) {
                throw new BadArgumentException("cannot register " + bytes + " bytes of shared memory in " + dir + ": its file "
                        + "system has " + usable + " bytes free (check segment.size and the size of " + dir + ")");
            }
        } catch (IOException e) {
            throw new RemusException("cannot read the free space of " + dir + ": " + e, e);
        }
    }
}
