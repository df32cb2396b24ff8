package io.remus.ds.index;

import io.remus.ds.replicate.StateMachine;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
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
 * <p>Confined to the replica's thread (the one that calls {@link io.remus.ds.replicate.LogReplica#applyCommitted}).
 * No RDMA operation: {@link #apply} works on this node's memory and the Java heap.
 */
public final class IndexStateMachine implements StateMachine {
    private final Map<Key, byte[]> map = new HashMap<>();
    private final Map<Long, Session> sessions = new HashMap<>();
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
