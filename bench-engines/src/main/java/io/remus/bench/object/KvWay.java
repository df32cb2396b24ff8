package io.remus.bench.object;

import io.remus.bench.engines.FlagNames;
import io.remus.core.error.BadArgumentException;

/**
 * How {@link KvExperiment} implements its key-value store of word-sized values, each way on its own
 * copy of the keys, key {@code k} homed on node {@code k % nodes}.
 */
public enum KvWay {
    /**
     * One {@link io.remus.ds.map.RemoteHashMap} per node, homed there, accessed with one-sided RDMA only:
     * a read is the map's get (2 round trips), an update its put over a present key (3 round trips).
     */
    ONE_SIDED("one-sided"),
    /**
     * One {@link io.remus.ds.delegate.Trustee} per node, serving on its own thread, owning a plain local
     * table of its node's keys; a read and an update are one {@link io.remus.ds.delegate.Trust#apply} each
     * (from another node 1 round trip for the client; from the trustee's node no RDMA).
     */
    DELEGATED("delegated"),
    /**
     * An ALock-protected table: per node an array of value words in that node's memory, one ALock per key;
     * a read is acquire, READ, release, an update acquire, WRITE, release.
     */
    ALOCK("alock");

    private final String flagName;

    KvWay(String flagName) {
        this.flagName = flagName;
    }

    /** {@return the name as the tool's flag spells it} */
    public String flagName() {
        return flagName;
    }

    /**
     * @param name a {@link #flagName()}, any case
     * @return its way
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static KvWay parse(String name) {
        return FlagNames.parse(values(), KvWay::flagName, "way", name);
    }
}
