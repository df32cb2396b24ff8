package io.remus.memcached;

import io.remus.core.error.BadArgumentException;
import io.remus.ds.replicate.StateMachine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One shard of a replicated memcached store as a deterministic state machine over a replicated log (state
 * machine replication: Schneider, "Implementing fault-tolerant services using the state machine approach: a
 * tutorial", ACM Computing Surveys 22(4), 1990; the log is Mu's: Aguilera et al., "Microsecond Consensus for
 * Microsecond Applications", OSDI 2020). Its state is an {@link ItemTable} (memcached's item semantics) and a
 * session table; each log entry is one memcached command laid out by {@link #encode}.
 *
 * <p><b>Determinism.</b> The state after an entry depends only on the state before it and the entry's bytes:
 * <ul>
 *   <li>Time: the leader stamps each entry with its clock reading (unix seconds); the table's clock is that
 *       stamp while the entry applies, never the replica's own clock, so every replica expires the same items
 *       at the same entry. An entry stamped earlier than one already applied uses the later time (a new leader's
 *       clock behind the old one's does not bring expired items back).</li>
 *   <li>CAS unique values come from the table's own counter, which advances once per changed item, so every
 *       replica hands out the same ones.</li>
 * </ul>
 *
 * <p><b>Exactly once</b> (the client table of Schneider 1990 and of Raft: Ongaro, "Consensus: Bridging Theory and
 * Practice", PhD thesis, Stanford 2014, §6.3). Each entry carries its client's id and a sequence number that the
 * client raises by one per command and keeps when it retries. The machine remembers, per client, the last
 * sequence applied and its reply; an entry whose sequence is not above the client's last one changes nothing
 * (a retry's second copy in the log), and {@link #reply} answers the retry from the table. A client has one
 * command outstanding at a time.
 *
 * <p><b>Snapshots</b> (the memory-based snapshots of Ongaro's thesis, ch. 5). {@link #snapshot} writes the whole
 * state as one image: the latest entry time, the item table (CAS counter, then each item's key, flags, absolute
 * expiry, CAS value and data) and the session table (each client's last sequence, its entry's index and its
 * result); {@link #restore} rebuilds the state from one, so a replica further behind than its log's ring is
 * brought back from a leader member's image ({@code io.remus.ds.replicate.LogLeader#reattach}). An image is about
 * 40 bytes per item plus its key and data, and about 40 per client plus a got item's data; both are O(state), CPU
 * only.
 *
 * <p>Not thread-safe: its replica's compute thread applies, and reads happen on that thread between applies. Every
 * apply is O(1) expected except a flush, which visits every item. No RDMA operation.
 */
public final class ReplicatedItemMachine implements StateMachine {
    /** Bytes of an entry before its key: client, sequence, time, op, mode, key length, flags, exptime, cas/delta. */
    public static final int HEADER_BYTES = 48;

    static final int OP_GET = 1;
    static final int OP_STORE = 2;
    static final int OP_DELETE = 3;
    static final int OP_INCR = 4;
    static final int OP_DECR = 5;
    static final int OP_TOUCH = 6;
    static final int OP_FLUSH = 7;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The first word of every image of {@link #snapshot}. */
    private static final int IMAGE_MAGIC = 0x52494d31;

    private final int maxItemBytes;
    private final int shard;
    private final int shards;
    private ItemTable table;
    private final Map<Long, Session> sessions = new HashMap<>();
    private long now;
    private long applied;
    private long duplicates;

    /**
     * A machine with no items and no sessions.
     *
     * @param maxItemBytes the largest value stored, positive
     * @param shard        this machine's shard, 0..{@code shards - 1} (CAS unique values differ across shards)
     * @param shards       the store's shard count, positive
     * @throws BadArgumentException naming the value, as {@link ItemTable#ItemTable}
     */
    public ReplicatedItemMachine(int maxItemBytes, int shard, int shards) {
        this.table = new ItemTable(() -> now, maxItemBytes, shard, shards);
        this.maxItemBytes = maxItemBytes;
        this.shard = shard;
        this.shards = shards;
    }

    /**
     * One command as a log entry.
     *
     * @param client   the client's id
     * @param sequence the client's sequence number of this command, positive
     * @param time     the leader's clock reading, unix seconds
     * @param command  the command
     * @return the entry's bytes, {@value #HEADER_BYTES} plus key plus value
     * @throws BadArgumentException naming the value, for a sequence not positive or a key of a bad length
     */
    public static byte[] encode(long client, long sequence, long time, Command command) {
        Objects.requireNonNull(command, "command");
        if (sequence <= 0) {
            throw new BadArgumentException("sequence must be positive, got " + sequence);
        }
        byte[] key = command.key();
        if (command.op() != OP_FLUSH && (key.length < 1 || key.length > MemcachedEngine.MAX_KEY_BYTES)) {
            throw new BadArgumentException("key length must be 1.." + MemcachedEngine.MAX_KEY_BYTES + ", got "
                    + key.length);
        }
        byte[] value = command.value();
        byte[] out = new byte[HEADER_BYTES + key.length + value.length];
        MemorySegment s = MemorySegment.ofArray(out);
        s.set(LONG, 0, client);
        s.set(LONG, 8, sequence);
        s.set(LONG, 16, time);
        s.set(ValueLayout.JAVA_BYTE, 24, (byte) command.op());
        s.set(ValueLayout.JAVA_BYTE, 25, (byte) (command.mode() == null ? 0 : command.mode().ordinal()));
        s.set(SHORT, 26, (short) key.length);
        s.set(INT, 28, command.flags());
        s.set(LONG, 32, command.exptime());
        s.set(LONG, 40, command.casOrDelta());
        System.arraycopy(key, 0, out, HEADER_BYTES, key.length);
        System.arraycopy(value, 0, out, HEADER_BYTES + key.length, value.length);
        return out;
    }

    /**
     * The command an entry of {@link #encode} carries, for a transport that ships entries' bytes; null when the
     * bytes are too short for their header and key or name an unknown storage mode.
     */
    static Command decode(MemorySegment entry) {
        if (entry.byteSize() < HEADER_BYTES) {
            return null;
        }
        int op = entry.get(ValueLayout.JAVA_BYTE, 24);
        int mode = entry.get(ValueLayout.JAVA_BYTE, 25);
        int keyLength = Short.toUnsignedInt(entry.get(SHORT, 26));
        if (HEADER_BYTES + (long) keyLength > entry.byteSize() || mode < 0 || mode >= StoreMode.values().length) {
            return null;
        }
        byte[] key = entry.asSlice(HEADER_BYTES, keyLength).toArray(ValueLayout.JAVA_BYTE);
        byte[] value = entry.asSlice(HEADER_BYTES + keyLength).toArray(ValueLayout.JAVA_BYTE);
        return new Command(op, op == OP_STORE ? StoreMode.values()[mode] : null, key, entry.get(INT, 28),
                entry.get(LONG, 32), value, entry.get(LONG, 40));
    }

    @Override
    public void apply(long index, MemorySegment entry) {
        applied++;
        if (entry.byteSize() < HEADER_BYTES) {
            return;
        }
        long client = entry.get(LONG, 0);
        long sequence = entry.get(LONG, 8);
        Session session = sessions.get(client);
        if (session != null && sequence <= session.sequence) {
            duplicates++;
            return;
        }
        now = Math.max(now, entry.get(LONG, 16));
        int op = entry.get(ValueLayout.JAVA_BYTE, 24);
        int mode = entry.get(ValueLayout.JAVA_BYTE, 25);
        int keyLength = Short.toUnsignedInt(entry.get(SHORT, 26));
        int flags = entry.get(INT, 28);
        long exptime = entry.get(LONG, 32);
        long casOrDelta = entry.get(LONG, 40);
        if (HEADER_BYTES + (long) keyLength > entry.byteSize()) {
            return;
        }
        byte[] key = entry.asSlice(HEADER_BYTES, keyLength).toArray(ValueLayout.JAVA_BYTE);
        byte[] value = entry.asSlice(HEADER_BYTES + keyLength).toArray(ValueLayout.JAVA_BYTE);
        Object result = switch (op) {
            case OP_GET -> copy(table.get(key));
            case OP_STORE -> mode < 0 || mode >= StoreMode.values().length ? null
                    : table.store(StoreMode.values()[mode], key, flags, exptime, value, casOrDelta);
            case OP_DELETE -> table.delete(key);
            case OP_INCR, OP_DECR -> table.arithmetic(key, op == OP_INCR, casOrDelta);
            case OP_TOUCH -> table.touch(key, exptime);
            case OP_FLUSH -> {
                table.flushAll(exptime);
                yield Boolean.TRUE;
            }
            default -> null;
        };
        sessions.put(client, new Session(sequence, result, index));
    }

    /**
     * An image of the whole state, as the class comment lays it out. O(items + clients), CPU only.
     *
     * @return the image's bytes, a heap segment
     */
    @Override
    public MemorySegment snapshot() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(IMAGE_MAGIC);
            out.writeLong(now);
            table.writeTo(out);
            out.writeInt(sessions.size());
            for (Map.Entry<Long, Session> e : sessions.entrySet()) {
                Session s = e.getValue();
                out.writeLong(e.getKey());
                out.writeLong(s.sequence);
                out.writeLong(s.index);
                writeResult(out, s.result);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return MemorySegment.ofArray(bytes.toByteArray());
    }

    /**
     * Replaces the whole state with the one an image of {@link #snapshot} describes; {@link #applied()} becomes
     * {@code covers}. O(image), CPU only.
     *
     * @param image  an image of {@link #snapshot}
     * @param covers how many entries the image's state includes
     * @throws BadArgumentException naming the value, for an image that is not one of {@link #snapshot} (the state
     *                              is then left as it was)
     */
    @Override
    public void restore(MemorySegment image, long covers) {
        Objects.requireNonNull(image, "image");
        if (covers < 0) {
            throw new BadArgumentException("snapshot image covering " + covers + " entries");
        }
        byte[] copy = image.toArray(ValueLayout.JAVA_BYTE);
        ItemTable restored = new ItemTable(() -> now, maxItemBytes, shard, shards);
        Map<Long, Session> read = new HashMap<>();
        long time;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(copy))) {
            int magic = in.readInt();
            if (magic != IMAGE_MAGIC) {
                throw new BadArgumentException("snapshot image of " + copy.length + " bytes starts with "
                        + Integer.toHexString(magic) + ", not a replicated item machine's " + Integer.toHexString(IMAGE_MAGIC));
            }
            time = in.readLong();
            restored.readFrom(in);
            int clients = in.readInt();
            if (clients < 0) {
                throw new BadArgumentException("snapshot image of " + clients + " clients");
            }
            for (int i = 0; i < clients; i++) {
                long client = in.readLong();
                long sequence = in.readLong();
                long index = in.readLong();
                read.put(client, new Session(sequence, readResult(in), index));
            }
            if (in.available() != 0) {
                throw new BadArgumentException("snapshot image of " + copy.length + " bytes has " + in.available()
                        + " bytes after its state");
            }
        } catch (IOException e) {
            throw new BadArgumentException("snapshot image of " + copy.length + " bytes ends early: " + e);
        }
        table = restored;
        now = time;
        sessions.clear();
        sessions.putAll(read);
        applied = covers;
    }

    private static void writeResult(DataOutputStream out, Object result) throws IOException {
        switch (result) {
            case null -> out.writeByte(0);
            case Item i -> {
                out.writeByte(1);
                out.writeInt(i.flags());
                out.writeLong(i.cas());
                out.writeInt(i.value().length);
                out.write(i.value());
            }
            case StoreResult r -> {
                out.writeByte(2);
                out.writeByte(r.ordinal());
            }
            case Boolean b -> {
                out.writeByte(3);
                out.writeBoolean(b);
            }
            case ArithmeticResult a -> {
                out.writeByte(4);
                out.writeByte(a.status().ordinal());
                out.writeLong(a.value());
            }
            default -> throw new IllegalStateException("session result of type " + result.getClass().getName());
        }
    }

    private static Object readResult(DataInputStream in) throws IOException {
        int kind = in.readUnsignedByte();
        return switch (kind) {
            case 0 -> null;
            case 1 -> {
                int flags = in.readInt();
                long cas = in.readLong();
                int length = in.readInt();
                if (length < 0) {
                    throw new BadArgumentException("snapshot image with an item of " + length + " bytes");
                }
                byte[] value = new byte[length];
                in.readFully(value);
                yield new Item(value, flags, cas);
            }
            case 2 -> StoreResult.values()[checkOrdinal(in.readUnsignedByte(), StoreResult.values().length)];
            case 3 -> in.readBoolean();
            case 4 -> {
                int status = checkOrdinal(in.readUnsignedByte(), ArithmeticResult.Status.values().length);
                yield new ArithmeticResult(ArithmeticResult.Status.values()[status], in.readLong());
            }
            default -> throw new BadArgumentException("snapshot image with a session result of kind " + kind);
        };
    }

    private static int checkOrdinal(int ordinal, int count) {
        if (ordinal >= count) {
            throw new BadArgumentException("snapshot image with result " + ordinal + " of 0.." + (count - 1));
        }
        return ordinal;
    }

    /**
     * The reply of a client's command, when the machine applied it.
     *
     * @param client   the client's id
     * @param sequence the command's sequence number
     * @return the command's result ({@link Item} or null for a get, {@link StoreResult}, {@link Boolean} for delete,
     *         touch and flush, {@link ArithmeticResult}), wrapped; null when the client's last applied command is
     *         an earlier one (not applied yet); {@link Reply#stale()} when it is a later one (the reply is gone)
     */
    public Reply reply(long client, long sequence) {
        Session s = sessions.get(client);
        if (s == null || s.sequence < sequence) {
            return null;
        }
        if (s.sequence > sequence) {
            return new Reply(null, true, -1);
        }
        Object r = s.result instanceof Item i ? copy(i) : s.result;
        return new Reply(r, false, s.index);
    }

    /** {@return entries applied, duplicates included} */
    public long applied() {
        return applied;
    }

    /** {@return entries applied as duplicates of a command already applied: they changed nothing} */
    public long duplicates() {
        return duplicates;
    }

    /** {@return the time, unix seconds, of the latest entry applied} */
    public long now() {
        return now;
    }

    /** {@return items in the table, expired ones not yet dropped included} */
    public int size() {
        return table.size();
    }

    private static Item copy(Item item) {
        return item == null ? null : new Item(item.value().clone(), item.flags(), item.cas());
    }

    /**
     * One memcached command before it is stamped: the fields {@link MemcachedEngine}'s calls take.
     *
     * @param op         one of the machine's operations
     * @param mode       the storage command, or null
     * @param key        the key (empty for a flush)
     * @param flags      the client's flags
     * @param exptime    memcached's expiration time (the delay of a flush)
     * @param value      the data (empty when none)
     * @param casOrDelta the cas unique value of a cas, the delta of incr and decr, else 0
     */
    public record Command(int op, StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long casOrDelta) {
        /**
         * A command.
         *
         * @param op         one of the machine's operations
         * @param mode       the storage command, or null
         * @param key        the key (empty for a flush)
         * @param flags      the client's flags
         * @param exptime    memcached's expiration time (the delay of a flush)
         * @param value      the data (empty when none)
         * @param casOrDelta the cas unique value of a cas, the delta of incr and decr, else 0
         */
        public Command {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        /**
         * {@return a get}
         *
         * @param key the key
         */
        public static Command get(byte[] key) {
            return new Command(OP_GET, null, key, 0, 0, new byte[0], 0);
        }

        /**
         * {@return a storage command}
         *
         * @param mode    the command
         * @param key     the key
         * @param flags   the flags
         * @param exptime memcached's expiration time
         * @param value   the data
         * @param cas     the unique value of a cas
         */
        public static Command store(StoreMode mode, byte[] key, int flags, long exptime, byte[] value, long cas) {
            return new Command(OP_STORE, Objects.requireNonNull(mode, "mode"), key, flags, exptime, value, cas);
        }

        /**
         * {@return a delete}
         *
         * @param key the key
         */
        public static Command delete(byte[] key) {
            return new Command(OP_DELETE, null, key, 0, 0, new byte[0], 0);
        }

        /**
         * {@return an incr or decr}
         *
         * @param key       the key
         * @param increment incr or decr
         * @param delta     the unsigned amount
         */
        public static Command arithmetic(byte[] key, boolean increment, long delta) {
            return new Command(increment ? OP_INCR : OP_DECR, null, key, 0, 0, new byte[0], delta);
        }

        /**
         * {@return a touch}
         *
         * @param key     the key
         * @param exptime memcached's expiration time
         */
        public static Command touch(byte[] key, long exptime) {
            return new Command(OP_TOUCH, null, key, 0, exptime, new byte[0], 0);
        }

        /**
         * {@return a flush_all}
         *
         * @param delay memcached's expiration time of the flush
         */
        public static Command flushAll(long delay) {
            return new Command(OP_FLUSH, null, new byte[0], 0, delay, new byte[0], 0);
        }
    }

    /**
     * A command's outcome as the session table keeps it.
     *
     * @param result the result (see {@link #reply})
     * @param stale  whether the client moved past this sequence, so its reply is gone
     * @param index  the log index of the entry that applied it, -1 when stale
     */
    public record Reply(Object result, boolean stale, long index) {
    }

    /** A client's last applied command. */
    private record Session(long sequence, Object result, long index) {
    }
}
