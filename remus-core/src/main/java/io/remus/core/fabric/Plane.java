package io.remus.core.fabric;

import io.remus.core.error.BadArgumentException;

/**
 * The planes a node's queue pairs belong to: a small number each queue pair carries from the moment it
 * connects, by which a target node switches one kind of a peer's traffic apart from its other kinds
 * ({@link FabricNode#setPeerAccess(int, int, PeerAccess)}). Mu (Aguilera, Ben-David, Guerraoui, Marathe,
 * Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications", OSDI 2020) keeps replication on
 * queue pairs of its own, so that a replica that revokes a deposed leader's replication WRITEs still takes
 * its other requests (RPC, READs of other objects).
 *
 * <p>Planes are numbered {@code 0} to {@code COUNT - 1}; {@link #DEFAULT} is every queue pair's unless it
 * was connected on another, and {@link #REPLICATION} is the replicated log's.
 */
public final class Plane {
    /** The plane of every queue pair not connected on another: compute threads, RPC, region-table reads. */
    public static final int DEFAULT = 0;
    /** The plane of a replicated log's WRITEs into its replicas. */
    public static final int REPLICATION = 1;
    /** How many planes there are (the rdma_cm connect request carries planes {@code 0..15}). */
    public static final int COUNT = 16;

    private Plane() {
    }

    /**
     * Checks a plane.
     *
     * @param plane the plane
     * @return {@code plane}
     * @throws BadArgumentException naming it when it is outside {@code 0..COUNT - 1}
     */
    public static int require(int plane) {
        if (plane < 0 || plane >= COUNT) {
            throw new BadArgumentException("a plane must be 0.." + (COUNT - 1) + ", got " + plane);
        }
        return plane;
    }
}
