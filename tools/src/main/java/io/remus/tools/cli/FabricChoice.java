package io.remus.tools.cli;

import io.remus.tools.bench.FabricKind;

/**
 * The fabric a command runs on and why.
 *
 * @param kind   the fabric
 * @param reason why it was chosen, for the report
 */
public record FabricChoice(FabricKind kind, String reason) {
    /**
     * Resolves {@code --fabric}: the requested fabric, or verbs when this host has an RDMA device
     * and the simulator otherwise.
     *
     * @param requested the flag's value, or null when not given
     * @param devices   how many RDMA devices this host has, or -1 when libibverbs cannot tell
     * @return the choice
     */
    public static FabricChoice resolve(FabricKind requested, int devices) {
        if (requested != null) {
            return new FabricChoice(requested, "--fabric " + requested.name().toLowerCase());
        }
        if (devices < 0) {
            return new FabricChoice(FabricKind.SIM, "default: libibverbs could not list RDMA devices");
        }
        if (devices > 0) {
            return new FabricChoice(FabricKind.VERBS, "default: this host has " + devices + " RDMA device(s)");
        }
        return new FabricChoice(FabricKind.SIM, "default: this host has no RDMA devices");
    }
}
