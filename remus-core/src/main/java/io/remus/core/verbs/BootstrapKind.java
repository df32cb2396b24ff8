package io.remus.core.verbs;

/** How the processes of a verbs cluster connect queue pairs and learn each other's regions. */
public enum BootstrapKind {
    /**
     * The default: every node with an address listens with the RDMA connection manager
     * ({@code rdma_cm}); each queue pair lane is one rdma_cm connection, and peers read a node's
     * published regions from its region table over such a connection.
     */
    RDMA_CM,
    /** The fallback: a small TCP protocol exchanges queue pair endpoints and region lists. */
    TCP
}
