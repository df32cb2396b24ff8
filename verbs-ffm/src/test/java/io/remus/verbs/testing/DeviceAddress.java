package io.remus.verbs.testing;

import io.remus.verbs.Context;
import io.remus.verbs.Gid;
import io.remus.verbs.PortAttributes;

/** The IPv4 address a test device carries (its first IPv4-mapped GID on port 1), for rdma_cm. */
public final class DeviceAddress {
    private DeviceAddress() {
    }

    /** @param device an RDMA device @return its IPv4 address literal */
    public static String ipv4(String device) {
        try (Context context = Context.open(device)) {
            PortAttributes port = context.queryPort(1);
            for (int i = 0; i < port.gidTableLength(); i++) {
                Gid gid = context.queryGid(1, i);
                if (gid.isIpv4Mapped()) {
                    return gid.ipv4Literal();
                }
            }
            throw new AssertionError(device + " has no IPv4-mapped GID on port 1");
        }
    }
}
