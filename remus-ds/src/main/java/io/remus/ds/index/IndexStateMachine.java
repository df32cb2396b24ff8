package io.remus.ds.index;

import io.remus.core.error.BadArgumentException;
import io.remus.ds.replicate.StateMachine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One replica's copy of a shard: a map of byte-string keys to byte-string values, changed only by committed log
 * entries ({@link IndexFormat}: PUT, GET, DELETE), and a table of client sessions that makes every command take
 * effect exactly once. Deterministic: the state after an entry depends only on the state before it and the
 * entry, so replicas that apply the same log hold equal maps and tables.
 *
 * <p><b>Exactly once.</b> Each entry carries its client's id and a sequence number that the client raises by one
 * per operation (a retry keeps it). The table holds, per client id, the last sequence applied and that
 * command's result. An entry whose sequence is not above its client's last is a duplicate (a client's retry of a
 * command that had already been logged): it is counted ({@link #duplicates()}) and changes nothing; a server
 * answers a retry of the last command from the table. This is the client-table of state-machine replication
 * (Schneider, "Implementing Fault-Tolerant Services Using the State Machine Approach", ACM Computing Surveys
 * 1990; Ongaro, "Consensus: Bridging Theory and Practice", 2014, section 6.3). The table keeps one entry per client
 * id for good: sessions do not expire.
 *
 * <p><b>Snapshots.</b> {@link #snapshot} writes the whole state as one image and {@link #restore} rebuilds it
 * from one (the memory-based snapshots of Ongaro's thesis, ch. 5), so that a replica further behind than its
 * log's ring is caught up from an image ({@link io.remus.ds.replicate.LogLeader#reattach}). The state is the map,
 * the session table (each client's last sequence <em>and</em> that command's result, since a retry is answered
 * from the table) and the three counts {@link #applied}, {@link #duplicates} and {@link #malformed}: each is a
 * function of the entries applied, equal on every replica that applied them, and their sum is the number of
 * entries applied, which {@link #restore} checks against the entries the image covers. {@link #lastIndex} is
 * not in the image: it is the covered count less one. The counts of requests, appends and answers a server
 * keeps ({@link IndexShardServer}) are statistics of one replica and are in no image. The image is
 * deterministic: equal states give equal bytes (keys sorted as unsigned bytes, sessions by unsigned client id),
 * so replicas that applied the same entries give byte-identical images. Little-endian throughout:
 *
 * <pre>
 *   0  int   magic     0x31584449 (the bytes "IDX1")
 *   4  int   version   1
 *   8  long  applied   commands applied
 *  16  long  duplicates
 *  24  long  malformed
 *  32  int   keys      K, the map's size
 *  36  int   clients   C, the session table's size
 *  40  K records, keys in strictly increasing unsigned order:
 *        int keyLength (1..{@value IndexFormat#MAX_KEY_BYTES}), int valueLength
 *        (1..{@link IndexFormat#MAX_VALUE_BYTES}), the key's bytes, the value's bytes
 *      C records, client ids in strictly increasing unsigned order:
 *        long clientId (not 0), long sequence (at least 1), byte status ({@link IndexStatus#FOUND} or
 *        {@link IndexStatus#ABSENT}), int resultLength (0 for no value, else 1..{@link IndexFormat#MAX_VALUE_BYTES};
 *        0 with ABSENT), the result's bytes
 *      nothing after the last record
 * </pre>
 *
 * <p>An image is {@value #IMAGE_HEADER_BYTES} bytes plus {@code 8 + key + value} per key and {@code 21 + result}
 * per client; it grows with the keys and the clients and can outgrow a replica's snapshot region
 * ({@link io.remus.ds.replicate.LogReplica#takeSnapshot} then refuses it and keeps the region's older image;
 * {@link IndexShardServer} counts the refusal and serves on).
 *
 * <p>Confined to the replica's thread (the one that calls {@link io.remus.ds.replicate.LogReplica#applyCommitted}).
 * No RDMA operation: {@link #apply}, {@link #snapshot} and {@link #restore} work on this node's memory and the Java
 * heap.
 */
public final class IndexStateMachine implements StateMachine {
    /** The first word of an image: the bytes "IDX1", little-endian. */
    public static final int IMAGE_MAGIC = 0x31584449;
    /** The image format's version. */
    public static final int IMAGE_VERSION = 1;
    /** The bytes of an image's header, before the key records. */
    public static final int IMAGE_HEADER_BYTES = 40;
    private static final int KEY_RECORD_BYTES = 8;
    private static final int SESSION_RECORD_BYTES = 21;

    private Map<Key, byte[]> map = new HashMap<>();
    private Map<Long, Session> sessions = new HashMap<>();
    private long applied;
    private long duplicates;
    private long malformed;
    private long lastIndex = -1;

    /** Creates an empty machine. */
    public IndexStateMachine() {
    }

    /**
     * Applies one committed entry: a PUT, GET or DELETE of a client, once per (client id, sequence). Wait-free,
     * no RDMA operation; copies the key and a PUT's value.
     *
     * @param index the entry's position in the log
     * @param entry the entry's bytes, as {@link IndexFormat} lays out a request
     */
    @Override
    public void apply(long index, MemorySegment entry) {
        lastIndex = index;
        if (IndexFormat.problem(entry, entry.byteSize()) != null) {
            malformed++;
            return;
        }
        long client = IndexFormat.clientId(entry);
        long sequence = IndexFormat.sequence(entry);
        Session s = sessions.get(client);
        if (s != null && sequence <= s.sequence) {
            duplicates++;
            return;
        }
        if (s == null) {
            s = new Session();
            sessions.put(client, s);
        }
        Key key = new Key(IndexFormat.key(entry));
        byte[] found;
        byte[] result = null;
        switch (IndexFormat.op(entry)) {
            case IndexFormat.PUT -> found = map.put(key, IndexFormat.value(entry));
            case IndexFormat.GET -> {
                found = map.get(key);
                result = found;
            }
            default -> found = map.remove(key);
        }
        s.sequence = sequence;
        s.status = found != null ? IndexStatus.FOUND : IndexStatus.ABSENT;
        s.value = result;
        applied++;
    }

    /** {@return commands applied (duplicates and malformed entries not counted)} */
    public long applied() {
        return applied;
    }

    /** {@return entries that repeated a client's already applied sequence, and so changed nothing} */
    public long duplicates() {
        return duplicates;
    }

    /** {@return entries that were not well formed, and so changed nothing (none while servers check requests)} */
    public long malformed() {
        return malformed;
    }

    /** {@return the index of the last entry applied, -1 before the first} */
    public long lastIndex() {
        return lastIndex;
    }

    /** {@return how many keys hold a value} */
    public int size() {
        return map.size();
    }

    /** {@return how many client ids the session table holds} */
    public int clients() {
        return sessions.size();
    }

    /**
     * {@return the last sequence applied for {@code clientId}, 0 when none was}
     *
     * @param clientId a client id
     */
    public long lastSequence(long clientId) {
        Session s = sessions.get(clientId);
        return s == null ? 0 : s.sequence;
    }

    /**
     * {@return a copy of this replica's value of {@code key}, or null: this replica's state, not a linearizable read
     *          (a follower may be behind; read through {@link RemusIndex#get})}
     *
     * @param key a key
     */
    public byte[] localValue(byte[] key) {
        IndexFormat.requireKey(key);
        byte[] v = map.get(new Key(key));
        return v == null ? null : v.clone();
    }

    /**
     * {@return the whole state as text, keys and values in hex, sorted: the map, then each client's last sequence
     *          and result; equal on replicas that applied the same entries}
     */
    public String describe() {
        TreeMap<String, String> out = new TreeMap<>();
        HexFormat hex = HexFormat.of();
        map.forEach((k, v) -> out.put("k:" + hex.formatHex(k.bytes), hex.formatHex(v)));
        sessions.forEach((c, s) -> out.put("c:" + Long.toUnsignedString(c), s.sequence + " " + s.status + " "
                + (s.value == null ? "-" : hex.formatHex(s.value))));
        return out.toString();
    }

    /**
     * Writes the reply to a command of {@code clientId} with {@code sequence} from the session table: its result
     * when it was the client's last command applied, {@link IndexStatus#STALE} when the client has applied a later
     * one.
     *
     * @return the reply's length, or -1 when the command is not applied yet
     */
    int replyFromTable(long clientId, long sequence, int leader, MemorySegment reply) {
        Session s = sessions.get(clientId);
        if (s == null || sequence > s.sequence) {
            return -1;
        }
        if (sequence < s.sequence) {
            return IndexFormat.writeReply(reply, IndexStatus.STALE, leader, null);
        }
        return IndexFormat.writeReply(reply, s.status, leader, s.value);
    }

    /**
     * An image of the whole state, as the class comment lays it out: deterministic, so equal states give equal
     * bytes. Copies every key, value and stored result once; no RDMA operation.
     *
     * @return the image, on the Java heap
     * @throws BadArgumentException when the image would exceed the largest heap array (2 GiB less 8 bytes)
     */
    @Override
    public MemorySegment snapshot() {
        List<Map.Entry<Key, byte[]>> keys = new ArrayList<>(map.entrySet());
        keys.sort((a, b) -> Arrays.compareUnsigned(a.getKey().bytes, b.getKey().bytes));
        List<Map.Entry<Long, Session>> clients = new ArrayList<>(sessions.entrySet());
        clients.sort((a, b) -> Long.compareUnsigned(a.getKey(), b.getKey()));
        long bytes = IMAGE_HEADER_BYTES;
        for (Map.Entry<Key, byte[]> e : keys) {
            bytes += KEY_RECORD_BYTES + e.getKey().bytes.length + e.getValue().length;
        }
        for (Map.Entry<Long, Session> e : clients) {
            bytes += SESSION_RECORD_BYTES + (e.getValue().value == null ? 0 : e.getValue().value.length);
        }
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new BadArgumentException("an image of " + bytes + " bytes (" + keys.size() + " keys, " + clients.size()
                    + " clients) exceeds the largest heap array");
        }
        MemorySegment image = MemorySegment.ofArray(new byte[(int) bytes]);
        image.set(IndexFormat.LE_INT, 0, IMAGE_MAGIC);
        image.set(IndexFormat.LE_INT, 4, IMAGE_VERSION);
        image.set(IndexFormat.LE_LONG, 8, applied);
        image.set(IndexFormat.LE_LONG, 16, duplicates);
        image.set(IndexFormat.LE_LONG, 24, malformed);
        image.set(IndexFormat.LE_INT, 32, keys.size());
        image.set(IndexFormat.LE_INT, 36, clients.size());
        long at = IMAGE_HEADER_BYTES;
        for (Map.Entry<Key, byte[]> e : keys) {
            byte[] k = e.getKey().bytes;
            byte[] v = e.getValue();
            image.set(IndexFormat.LE_INT, at, k.length);
            image.set(IndexFormat.LE_INT, at + 4, v.length);
            MemorySegment.copy(k, 0, image, ValueLayout.JAVA_BYTE, at + KEY_RECORD_BYTES, k.length);
            MemorySegment.copy(v, 0, image, ValueLayout.JAVA_BYTE, at + KEY_RECORD_BYTES + k.length, v.length);
            at += KEY_RECORD_BYTES + k.length + v.length;
        }
        for (Map.Entry<Long, Session> e : clients) {
            Session s = e.getValue();
            int n = s.value == null ? 0 : s.value.length;
            image.set(IndexFormat.LE_LONG, at, e.getKey());
            image.set(IndexFormat.LE_LONG, at + 8, s.sequence);
            image.set(ValueLayout.JAVA_BYTE, at + 16, s.status.code());
            image.set(IndexFormat.LE_INT, at + 17, n);
            if (n > 0) {
                MemorySegment.copy(s.value, 0, image, ValueLayout.JAVA_BYTE, at + SESSION_RECORD_BYTES, n);
            }
            at += SESSION_RECORD_BYTES + n;
        }
        return image;
    }

    /**
     * Replaces the whole state with the one {@code image} holds. The image is read and checked whole first
     * (magic, version, every count and length in range, keys and client ids strictly increasing, no byte
     * missing or left over, the three counts summing to {@code covers}); a bad image throws and changes nothing.
     * Afterwards {@link #lastIndex} is {@code covers - 1}. Copies every key, value and result once; no RDMA
     * operation.
     *
     * @param image  an image of {@link #snapshot}
     * @param covers how many entries the image's state includes
     * @throws BadArgumentException naming the offset and the value that is wrong, for a bad image or a negative
     *                              {@code covers}; the state is left as it was
     */
    @Override
    public void restore(MemorySegment image, long covers) {
        if (image == null) {
            throw new BadArgumentException("snapshot image is null");
        }
        if (covers < 0) {
            throw new BadArgumentException("snapshot image covering " + covers + " entries");
        }
        ImageReader in = new ImageReader(image);
        in.need(IMAGE_HEADER_BYTES, "header");
        int magic = in.int32();
        if (magic != IMAGE_MAGIC) {
            throw in.bad(0, "magic 0x" + Integer.toHexString(magic) + ", not 0x" + Integer.toHexString(IMAGE_MAGIC));
        }
        int version = in.int32();
        if (version != IMAGE_VERSION) {
            throw in.bad(4, "version " + version + "; this machine reads version " + IMAGE_VERSION);
        }
        long newApplied = in.int64();
        long newDuplicates = in.int64();
        long newMalformed = in.int64();
        if (newApplied < 0 || newDuplicates < 0 || newMalformed < 0
                || newApplied + newDuplicates + newMalformed != covers) {
            throw in.bad(8, "counts applied " + newApplied + ", duplicates " + newDuplicates + ", malformed "
                    + newMalformed + " do not sum to the " + covers + " entries the image covers");
        }
        int keyCount = in.int32();
        int clientCount = in.int32();
        if (keyCount < 0 || (long) keyCount * (KEY_RECORD_BYTES + 2) > in.left()) {
            throw in.bad(32, "key count " + keyCount + " for " + in.left() + " bytes of records");
        }
        if (clientCount < 0 || clientCount > newApplied
                || (long) clientCount * SESSION_RECORD_BYTES > in.left() - (long) keyCount * (KEY_RECORD_BYTES + 2)) {
            throw in.bad(36, "client count " + clientCount + " for " + newApplied + " commands applied and "
                    + in.left() + " bytes of records");
        }
        Map<Key, byte[]> newMap = HashMap.newHashMap(keyCount);
        byte[] previous = null;
        for (int i = 0; i < keyCount; i++) {
            long at = in.at;
            in.need(KEY_RECORD_BYTES, "key record " + i);
            int k = in.int32();
            int v = in.int32();
            if (k < 1 || k > IndexFormat.MAX_KEY_BYTES || v < 1 || v > IndexFormat.MAX_VALUE_BYTES) {
                throw in.bad(at, "key record " + i + " of a " + k + "-byte key and a " + v + "-byte value; keys take 1.."
                        + IndexFormat.MAX_KEY_BYTES + " bytes, values 1.." + IndexFormat.MAX_VALUE_BYTES);
            }
            byte[] key = in.bytes(k, "key " + i);
            if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
                throw in.bad(at, "key " + i + " (" + HexFormat.of().formatHex(key) + ") not after the key before it");
            }
            newMap.put(new Key(key), in.bytes(v, "value of key " + i));
            previous = key;
        }
        Map<Long, Session> newSessions = HashMap.newHashMap(clientCount);
        long previousClient = 0;
        for (int i = 0; i < clientCount; i++) {
            long at = in.at;
            in.need(SESSION_RECORD_BYTES, "session record " + i);
            long client = in.int64();
            long sequence = in.int64();
            byte code = in.int8();
            int n = in.int32();
            IndexStatus status = IndexStatus.of(code);
            if (client == 0 || (i > 0 && Long.compareUnsigned(previousClient, client) >= 0)) {
                throw in.bad(at, "session record " + i + " of client " + Long.toUnsignedString(client)
                        + ": ids are not 0 and strictly increasing");
            }
            if (sequence < 1 || (status != IndexStatus.FOUND && status != IndexStatus.ABSENT) || n < 0
                    || n > IndexFormat.MAX_VALUE_BYTES || (status == IndexStatus.ABSENT && n != 0)) {
                throw in.bad(at, "session record " + i + " of client " + Long.toUnsignedString(client) + ": sequence "
                        + sequence + ", status " + code + ", result of " + n + " bytes (a sequence starts at 1, the"
                        + " status is FOUND or ABSENT, a result takes 0.." + IndexFormat.MAX_VALUE_BYTES
                        + " bytes, none with ABSENT)");
            }
            Session s = new Session();
            s.sequence = sequence;
            s.status = status;
            s.value = n == 0 ? null : in.bytes(n, "result of client " + Long.toUnsignedString(client));
            newSessions.put(client, s);
            previousClient = client;
        }
        if (in.left() != 0) {
            throw in.bad(in.at, in.left() + " bytes after the last record");
        }
        map = newMap;
        sessions = newSessions;
        applied = newApplied;
        duplicates = newDuplicates;
        malformed = newMalformed;
        lastIndex = covers - 1;
    }

    /** Reads an image front to back, every read checked against its length. */
    private static final class ImageReader {
        private final MemorySegment image;
        private final long size;
        long at;

        ImageReader(MemorySegment image) {
            this.image = image;
            this.size = image.byteSize();
        }

        long left() {
            return size - at;
        }

        void need(long n, String what) {
            if (n > size - at) {
                throw bad(at, "truncated: " + what + " needs " + n + " bytes, " + (size - at) + " are left");
            }
        }

        byte int8() {
            return image.get(ValueLayout.JAVA_BYTE, at++);
        }

        int int32() {
            int v = image.get(IndexFormat.LE_INT, at);
            at += 4;
            return v;
        }

        long int64() {
            long v = image.get(IndexFormat.LE_LONG, at);
            at += 8;
            return v;
        }

        byte[] bytes(int n, String what) {
            need(n, what);
            byte[] b = new byte[n];
            MemorySegment.copy(image, ValueLayout.JAVA_BYTE, at, b, 0, n);
            at += n;
            return b;
        }

        BadArgumentException bad(long offset, String what) {
            return new BadArgumentException("snapshot image of " + size + " bytes, at offset " + offset + ": " + what);
        }
    }

    /** A client's session: its last applied sequence and that command's result. */
    private static final class Session {
        long sequence;
        IndexStatus status;
        byte[] value;
    }

    /** A key's bytes, compared by content. */
    private record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return HexFormat.of().formatHex(bytes);
        }
    }
}
