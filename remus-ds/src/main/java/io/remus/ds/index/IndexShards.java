package io.remus.ds.index;

import io.remus.core.NameDirectory;
import io.remus.core.error.BadArgumentException;
import io.remus.ds.replicate.ReplicaGroup;

import java.util.Arrays;
import java.util.Objects;

/**
 * How an index's keys are spread: shard {@code s} is one {@link ReplicaGroup} of {@code 2f + 1} nodes whose
 * replicated log is named {@code name + "-" + s}; a key belongs to shard
 * {@code FNV-1a-64(key) mod shards} (Fowler, Noll, Vo), the same on every node and run. The servers of shard
 * {@code s} serve RPC method {@link #methodId(int) METHOD_BASE + s}, so that one node may serve several shards
 * from one {@link io.remus.core.rpc.RpcEndpoint} (one server per shard, each with its own compute thread, since a
 * leader stages its slots in its compute thread's buffer; all on the endpoint's Java thread). Immutable; no RDMA operation.
 */
public final class IndexShards {
    /** The RPC method id of shard 0; shard {@code s} is served under {@code METHOD_BASE + s}. */
    public static final int METHOD_BASE = 0x1DE0_0000;

    private final String name;
    private final ReplicaGroup[] groups;

    private IndexShards(String name, ReplicaGroup[] groups) {
        this.name = name;
        this.groups = groups;
    }

    /**
     * An index of {@code groups.length} shards.
     *
     * @param name   the index's name: printable ASCII, short enough that {@code name + "-" + (shards - 1)} is a
     *               name of at most {@value NameDirectory#MAX_NAME_BYTES} characters
     * @param groups each shard's replica group, shard 0 first; a node may be in several
     * @return the shard map
     * @throws BadArgumentException naming the value, for no group, more than {@value IndexFormat#MAX_SHARDS}, a
     *                              null group, or a name that is empty, not printable ASCII or too long
     */
    public static IndexShards of(String name, ReplicaGroup... groups) {
        if (name == null || groups == null) {
            throw new BadArgumentException("an index needs a name and replica groups, got " + name + " and "
                    + Arrays.toString(groups));
        }
        if (groups.length < 1 || groups.length > IndexFormat.MAX_SHARDS) {
            throw new BadArgumentException("an index has 1.." + IndexFormat.MAX_SHARDS + " shards, got " + groups.length);
        }
        for (int s = 0; s < groups.length; s++) {
            if (groups[s] == null) {
                throw new BadArgumentException("the replica group of shard " + s + " is null");
            }
        }
        String longest = name + "-" + (groups.length - 1);
        if (name.isEmpty() || longest.length() > NameDirectory.MAX_NAME_BYTES
                || !longest.chars().allMatch(c -> c >= 0x21 && c <= 0x7E)) {
            throw new BadArgumentException("index name \"" + name + "\": its logs' names (\"" + longest + "\") must be 1.."
                    + NameDirectory.MAX_NAME_BYTES + " printable ASCII characters");
        }
        return new IndexShards(name, groups.clone());
    }

    /** {@return the index's name} */
    public String name() {
        return name;
    }

    /** {@return how many shards there are} */
    public int count() {
        return groups.length;
    }

    /**
     * {@return shard {@code shard}'s replica group}
     *
     * @param shard 0..{@link #count()} - 1
     * @throws BadArgumentException naming the shard when it is out of range
     */
    public ReplicaGroup group(int shard) {
        requireShard(shard);
        return groups[shard];
    }

    /**
     * {@return the name of shard {@code shard}'s replicated log on each of its members}
     *
     * @param shard 0..{@link #count()} - 1
     */
    public String logName(int shard) {
        requireShard(shard);
        return name + "-" + shard;
    }

    /**
     * {@return the RPC method id under which shard {@code shard}'s servers answer}
     *
     * @param shard 0..{@link #count()} - 1
     */
    public int methodId(int shard) {
        requireShard(shard);
        return METHOD_BASE + shard;
    }

    /**
     * {@return the shard that holds {@code key}: FNV-1a-64 of its bytes, modulo the shard count}
     *
     * @param key a key, as {@link IndexFormat#requireKey} accepts
     * @throws BadArgumentException for a null, empty or oversized key
     */
    public int shardOf(byte[] key) {
        IndexFormat.requireKey(key);
        return shardOf(key, groups.length);
    }

    /**
     * {@return the shard of {@code key} among {@code shards}: FNV-1a-64 of its bytes (Fowler, Noll, Vo), modulo
     * {@code shards}} The rule of every sharded store here: the index's shards and the memcached engines'.
     *
     * @param key    a key, any bytes
     * @param shards the shard count, positive
     * @throws NullPointerException for a null key
     * @throws BadArgumentException for a shard count below 1
     */
    public static int shardOf(byte[] key, int shards) {
        Objects.requireNonNull(key, "key");
        if (shards < 1) {
            throw new BadArgumentException("shards must be at least 1, got " + shards);
        }
        long h = 0xcbf29ce484222325L;
        for (byte b : key) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return (int) Long.remainderUnsigned(h, shards);
    }

    private void requireShard(int shard) {
        if (shard < 0 || shard >= groups.length) {
            throw new BadArgumentException("shard must be 0.." + (groups.length - 1) + ", got " + shard);
        }
    }

    @Override
    public String toString() {
        return name + Arrays.toString(groups);
    }
}
