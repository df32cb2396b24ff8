package io.remus.bench.reclaim;

import io.remus.bench.engines.FlagNames;
import io.remus.core.error.BadArgumentException;

import java.util.Locale;

/** The reclaimers {@link ReclaimBenchmark} compares. */
public enum ReclaimerKind {
    /** {@link io.remus.ds.reclaim.NeverReclaimer}: keeps every retired block (the cost floor, and the garbage ceiling). */
    NEVER,
    /** {@link io.remus.ds.reclaim.BarrierReclaimer}: frees after a cluster-wide barrier (Remus parity). */
    BARRIER,
    /** {@link io.remus.ds.reclaim.EpochReclaimer}: epochs with leases. */
    EPOCH;

    /**
     * @param name {@code never}, {@code barrier} or {@code epoch}, any case
     * @return the kind
     * @throws BadArgumentException naming the value and the accepted ones
     */
    public static ReclaimerKind parse(String name) {
        return FlagNames.parse(values(), ReclaimerKind::flagName, "reclaimer", name);
    }

    /** {@return the name as the tool's flag spells it} */
    public String flagName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
