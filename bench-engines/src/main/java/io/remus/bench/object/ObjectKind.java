package io.remus.bench.object;

import io.remus.bench.engines.FlagNames;
import io.remus.core.error.BadArgumentException;

import java.util.Locale;

/**
 * The objects {@link ObjectBenchmark} runs, each with its operation mix: half updates, half reads
 * (or half puts, half takes), chosen at random per operation.
 */
public enum ObjectKind {
    /** A counter: fetch-and-add of 1, or read. Wait-free: {@link io.remus.ds.object.RemoteCounter}. */
    COUNTER("counter"),
    /** A max register: writeMax of a value that grows per thread, or read. Wait-free: {@link io.remus.ds.object.RemoteMaxRegister}. */
    MAX("max"),
    /** A register of {@code valueBytes}: write, or read. Wait-free: {@link io.remus.ds.object.RemoteRegister}. */
    REGISTER("register"),
    /**
     * A shared state table, one row of {@code valueBytes} per thread: the owner writes its row, or takes a
     * snapshot of all rows. Wait-free: {@link io.remus.ds.object.SharedStateTable}; locked: the whole table
     * under one lock, so a row write READs and WRITEs every row.
     */
    SST("sst"),
    /** A bounded queue of {@code elements} words: enqueue, or dequeue. Wait-free: {@link io.remus.ds.object.WaitFreeQueue}. */
    QUEUE("queue"),
    /** A bounded stack of {@code elements} words: push, or pop. Wait-free: {@link io.remus.ds.object.WaitFreeStack}. */
    STACK("stack");

    private final String flagName;

    ObjectKind(String flagName) {
        this.flagName = flagName;
    }

    /** {@return the name as the tool's flag spells it} */
    public String flagName() {
        return flagName;
    }

    /**
     * @param name a {@link #flagName()}, any case
     * @return its kind
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static ObjectKind parse(String name) {
        return FlagNames.parse(values(), ObjectKind::flagName, "object", name);
    }

    /** {@return the name in lower case, for labels} */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
