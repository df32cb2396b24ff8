package io.remus.verbs;

/** A path MTU ({@code enum ibv_mtu}). */
public enum Mtu {
    /** 256 bytes. */
    MTU_256(1, 256),
    /** 512 bytes. */
    MTU_512(2, 512),
    /** 1024 bytes (Soft-RoCE's active MTU). */
    MTU_1024(3, 1024),
    /** 2048 bytes. */
    MTU_2048(4, 2048),
    /** 4096 bytes. */
    MTU_4096(5, 4096);

    private final int code;
    private final int bytes;

    Mtu(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    /** {@return the {@code IBV_MTU_*} code} */
    public int code() {
        return code;
    }

    /** {@return the MTU in bytes} */
    public int bytes() {
        return bytes;
    }

    /**
     * Looks up the MTU of a code.
     *
     * @param code an {@code IBV_MTU_*} code
     * @return its MTU
     * @throws InvalidArgumentException if the code names no MTU
     */
    public static Mtu ofCode(int code) {
        for (Mtu m : values()) {
            if (m.code == code) {
                return m;
            }
        }
        throw new InvalidArgumentException("no ibv_mtu has code " + code);
    }
}
