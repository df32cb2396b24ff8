package io.remus.bench.devices;

import io.remus.verbs.CompletionQueue;
import io.remus.verbs.Context;
import io.remus.verbs.DeviceAttributes;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.Gid;
import io.remus.verbs.PortAttributes;
import io.remus.verbs.PreparedQueuePair;
import io.remus.verbs.ProtectionDomain;
import io.remus.verbs.VerbsException;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects a {@link DeviceReport} through the verbs API: opens the device, queries it, each port
 * and each GID, and finds the largest inline size by creating reliable-connected queue pairs.
 */
public final class DeviceProbe {
    private static final int[] INLINE_TRIES = {1024, 512, 256, 128, 64, 32, 0};

    private DeviceProbe() {
    }

    /**
     * @param info a device from {@link io.remus.verbs.Device#list()}
     * @return its report
     * @throws VerbsException if the device cannot be opened or queried
     */
    public static DeviceReport probe(DeviceInfo info) {
        try (Context context = Context.open(info.name())) {
            DeviceAttributes attributes = context.queryDevice();
            List<PortReport> ports = new ArrayList<>();
            for (int port = 1; port <= attributes.physicalPortCount(); port++) {
                ports.add(port(context, port));
            }
            return new DeviceReport(info, attributes, ports, maxInline(context));
        }
    }

    /**
     * @param devices this host's devices
     * @param name    the one device to probe, or null for every one
     * @return the reports of the devices probed, in the list's order
     * @throws VerbsException naming {@code name} and the devices there are when none has that name, or when a
     *                        device cannot be opened or queried
     */
    public static List<DeviceReport> probe(List<DeviceInfo> devices, String name) {
        List<DeviceReport> reports = new ArrayList<>();
        for (DeviceInfo info : devices) {
            if (name == null || name.equals(info.name())) {
                reports.add(probe(info));
            }
        }
        if (name != null && reports.isEmpty()) {
            throw new VerbsException("no RDMA device called '" + name + "' (this host has "
                    + (devices.isEmpty() ? "none" : devices.stream().map(DeviceInfo::name).toList()) + ")");
        }
        return reports;
    }

    private static PortReport port(Context context, int port) {
        PortAttributes attributes = context.queryPort(port);
        List<GidEntry> gids = new ArrayList<>();
        for (int i = 0; i < attributes.gidTableLength(); i++) {
            Gid gid;
            try {
                gid = context.queryGid(port, i);
            } catch (VerbsException e) {
                continue;
            }
            if (!gid.isZero()) {
                gids.add(new GidEntry(i, gid, context.gidType(port, i)));
            }
        }
        return new PortReport(attributes, gids);
    }

    private static int maxInline(Context context) {
        try (ProtectionDomain pd = context.allocateProtectionDomain();
             CompletionQueue cq = context.createCompletionQueue(4)) {
            for (int bytes : INLINE_TRIES) {
                try (PreparedQueuePair qp = pd.queuePair().completionQueue(cq).maxSendWorkRequests(1)
                        .maxReceiveWorkRequests(1).maxInlineData(bytes).build()) {
                    return bytes;
                } catch (VerbsException e) {
                    continue;
                }
            }
            return -1;
        } catch (VerbsException e) {
            return -1;
        }
    }
}
