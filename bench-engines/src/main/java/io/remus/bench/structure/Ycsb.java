package io.remus.bench.structure;

import io.remus.core.error.BadArgumentException;

import java.util.Arrays;

/**
 * YCSB's core workloads that {@link DsBenchmark} runs on the hash map (B. F. Cooper et al., "Benchmarking
 * Cloud Serving Systems with YCSB", SoCC 2010, and YCSB's workloads/workload[a-f] files): the operation mix
 * and the request distribution. E (scans) is left out: the hash map has no order.
 */
public enum Ycsb {
    /** Update heavy: 50 % reads, 50 % updates, zipfian. */
    A(50, 50, 0, 0, false),
    /** Read mostly: 95 % reads, 5 % updates, zipfian. */
    B(95, 5, 0, 0, false),
    /** Read only: 100 % reads, zipfian. */
    C(100, 0, 0, 0, false),
    /**
     * Read latest: 95 % reads, 5 % inserts of new keys, reads skewed (zipfian rank) towards the latest
     * acknowledged inserts of the whole cluster, every worker's of every process (see {@link DsBenchmark}).
     */
    D(95, 0, 5, 0, true),
    /** Read-modify-write: 50 % reads, 50 % read-modify-writes, zipfian. */
    F(50, 0, 0, 50, false);

    private final int read;
    private final int update;
    private final int insert;
    private final int rmw;
    private final boolean latest;

    Ycsb(int read, int update, int insert, int rmw, boolean latest) {
        this.read = read;
        this.update = update;
        this.insert = insert;
        this.rmw = rmw;
        this.latest = latest;
    }

    /**
     * @param name {@code A}, {@code B}, {@code C}, {@code D} or {@code F}, any case
     * @return the workload
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static Ycsb parse(String name) {
        for (Ycsb y : values()) {
            if (y.name().equalsIgnoreCase(name)) {
                return y;
            }
        }
        throw new BadArgumentException("unknown YCSB workload '" + name + "', expected one of "
                + Arrays.toString(values()));
    }

    /** {@return percent of reads} */
    public int readPercent() {
        return read;
    }

    /** {@return percent of updates} */
    public int updatePercent() {
        return update;
    }

    /** {@return percent of inserts of new keys} */
    public int insertPercent() {
        return insert;
    }

    /** {@return percent of read-modify-writes} */
    public int rmwPercent() {
        return rmw;
    }

    /**
     * {@return the operation of a draw {@code percent} in {@code 0..99}: a read below {@link #readPercent()}, then
     *          an update, an insert and a read-modify-write, each for as many percent as the workload gives it}
     *
     * @param percent a uniform draw in {@code 0..99} ({@link KeyChooser#percent()})
     */
    public OpType operation(int percent) {
        if (percent < read) {
            return OpType.LOOKUP;
        }
        if (percent < read + update) {
            return OpType.UPDATE;
        }
        if (percent < read + update + insert) {
            return OpType.INSERT;
        }
        return OpType.RMW;
    }

    /** {@return whether reads prefer the cluster's latest acknowledged inserts (D) rather than zipfian over the loaded keys} */
    public boolean readsLatest() {
        return latest;
    }
}
