package io.remus.bench.structure;

import io.remus.bench.engines.FlagNames;
import io.remus.core.error.BadArgumentException;

import java.util.Locale;

/** The structures {@link DsBenchmark} drives. */
public enum StructureKind {
    /** {@link io.remus.ds.set.LazyListSet}, with the lock kind of the configuration. */
    LAZY_LIST,
    /** {@link io.remus.ds.set.LockFreeListSet}. */
    LOCK_FREE_LIST,
    /** {@link io.remus.ds.map.RemoteHashMap}, 8-byte keys and values of the configured size. */
    HASH_MAP,
    /** {@link io.remus.ds.set.LockFreeSkipListSet}, with its default levels. */
    SKIP_LIST;

    /**
     * @param name {@code lazy-list}, {@code lock-free-list}, {@code hash-map} or {@code skip-list}, any case
     * @return the kind
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static StructureKind parse(String name) {
        return FlagNames.parse(values(), StructureKind::flagName, "structure", name);
    }

    /** {@return the name as the tool's flag spells it} */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
