package io.remus.bench.devices;

import io.remus.verbs.PortAttributes;

import java.util.List;

/**
 * One port of a device: its attributes and populated GIDs.
 *
 * @param attributes what {@code ibv_query_port} reported
 * @param gids       the non-zero GIDs, by index
 */
public record PortReport(PortAttributes attributes, List<GidEntry> gids) {
    /** Copies the GID list. */
    public PortReport {
        gids = List.copyOf(gids);
    }

    /** @return the port state's name as {@code ibv_devinfo} prints it, e.g. {@code PORT_ACTIVE} */
    public String stateName() {
        return switch (attributes.state()) {
            case 0 -> "PORT_NOP";
            case 1 -> "PORT_DOWN";
            case 2 -> "PORT_INIT";
            case 3 -> "PORT_ARMED";
            case 4 -> "PORT_ACTIVE";
            case 5 -> "PORT_ACTIVE_DEFER";
            default -> "PORT_STATE_" + attributes.state();
        };
    }
}
