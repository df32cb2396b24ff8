package io.remus.verbs;

import java.util.function.IntFunction;

/**
 * The GID a RoCE queue pair uses when none is asked for, as perftest chooses it
 * ({@code get_best_gid_index}): an IPv4-mapped GID before any other, and of those a RoCE v2 one
 * (routable, UDP-encapsulated) before RoCE v1. A ConnectX port lists each address twice, v1 then
 * v2; Soft-RoCE only as v2. Without an IPv4-mapped GID, index 0.
 */
final class GidChoice {
    /** The sysfs name of RoCE v2 ({@code gid_attrs/types/N}). */
    static final String ROCE_V2 = "RoCE v2";

    private GidChoice() {
    }

    /**
     * @param tableLength the port's GID table length
     * @param gid         the GID at an index
     * @param type        the GID type at an index ({@link Context#gidType}; "" when unknown)
     * @return the index to use
     */
    static int choose(int tableLength, IntFunction<Gid> gid, IntFunction<String> type) {
        int firstIpv4 = -1;
        for (int i = 0; i < tableLength; i++) {
            if (gid.apply(i).isIpv4Mapped()) {
                if (ROCE_V2.equals(type.apply(i))) {
                    return i;
                }
                if (firstIpv4 < 0) {
                    firstIpv4 = i;
                }
            }
        }
        return Math.max(firstIpv4, 0);
    }
}
