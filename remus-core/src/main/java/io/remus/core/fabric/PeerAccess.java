package io.remus.core.fabric;

/**
 * What one peer's requests may do to a node's registered memory: the per-peer switch of
 * {@link FabricNode#setPeerAccess}. Mu (Aguilera, Ben-David, Guerraoui, Marathe, Xygkis, Zablotchi,
 * "Microsecond Consensus for Microsecond Applications", OSDI 2020) gives one leader at a time write access
 * to each replica's log and keeps reads open for every peer: a follower holds the leader
 * {@link #READ_WRITE} and everyone else {@link #READ_ONLY}.
 */
public enum PeerAccess {
    /** READs and SENDs only: the peer's WRITEs, WRITE_WITH_IMMEDIATEs and atomics are refused (see {@link FabricNode#setPeerAccess}). */
    READ_ONLY,
    /** READs, WRITEs, WRITE_WITH_IMMEDIATEs and atomics: every peer's access until it is switched. */
    READ_WRITE
}
