package io.remus.verbs;

import io.remus.verbs.ffi.IbVerbs;

import java.util.Objects;

/**
 * The state of one port ({@code ibv_query_port}), copied out.
 *
 * @param port           the port number (from 1)
 * @param state          the {@code enum ibv_port_state} code (4: active)
 * @param maxMtu         the largest MTU the port supports
 * @param activeMtu      the MTU in use
 * @param gidTableLength how many GIDs the port has
 * @param lid            the port's LID (0 on RoCE)
 * @param maxMessageSize the largest message, in bytes
 * @param linkLayer      1 InfiniBand, 2 Ethernet (RoCE: address handles need the GRH)
 */
public record PortAttributes(int port, int state, Mtu maxMtu, Mtu activeMtu, int gidTableLength, int lid,
                             long maxMessageSize, int linkLayer) {
    /** Checks that no component is null. */
    public PortAttributes {
        Objects.requireNonNull(maxMtu, "maxMtu");
        Objects.requireNonNull(activeMtu, "activeMtu");
    }

    /** {@return whether the port is active (can carry traffic)} */
    public boolean isActive() {
        return state == IbVerbs.IBV_PORT_ACTIVE;
    }

    /** {@return whether the link layer is Ethernet (RoCE)} */
    public boolean isEthernet() {
        return linkLayer == IbVerbs.IBV_LINK_LAYER_ETHERNET;
    }
}
