package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

import java.util.Set;

/** What a memory region allows ({@code enum ibv_access_flags}). */
public enum Access {
    /** The local NIC may write it (receives, READ and atomic results). */
    LOCAL_WRITE(IbVerbs.IBV_ACCESS_LOCAL_WRITE),
    /** Peers may RDMA WRITE into it (needs {@link #LOCAL_WRITE}). */
    REMOTE_WRITE(IbVerbs.IBV_ACCESS_REMOTE_WRITE),
    /** Peers may RDMA READ it. */
    REMOTE_READ(IbVerbs.IBV_ACCESS_REMOTE_READ),
    /** Peers may run atomics on it (needs {@link #LOCAL_WRITE}). */
    REMOTE_ATOMIC(IbVerbs.IBV_ACCESS_REMOTE_ATOMIC);

    private final int flag;

    Access(int flag) {
        this.flag = flag;
    }

    /** {@return the {@code IBV_ACCESS_*} bit} */
    public int flag() {
        return flag;
    }

    /** {@return every access: local write, remote read, write and atomics} */
    public static Set<Access> all() {
        return Set.of(values());
    }

    /**
     * @param access a set of accesses
     * @return their {@code IBV_ACCESS_*} bits
     */
    static int flags(Set<Access> access) {
        int flags = 0;
        for (Access a : access) {
            flags |= a.flag;
        }
        return flags;
    }
}
