package io.remus.tools.devices;

import io.remus.bench.devices.DeviceReport;
import io.remus.bench.devices.PortReport;
import io.remus.bench.devices.GidEntry;
import io.remus.verbs.NativeLibraryMissingException;
import io.remus.verbs.PortAttributes;

import java.io.PrintWriter;
import java.util.List;

/** Prints {@link DeviceReport}s short, like a condensed {@code ibv_devinfo}. */
public final class DeviceFormat {
    /** The line printed where a host has no RDMA devices. */
    public static final String NO_DEVICES = "no RDMA devices";

    /** How the line printed where a host has no RDMA stack begins; the reason follows. */
    public static final String NO_STACK = "no RDMA stack: ";

    private DeviceFormat() {
    }

    /**
     * @param missing why libibverbs cannot be used
     * @return one line: {@value #NO_STACK} and the reason (which names the library and the package)
     */
    public static String noStack(NativeLibraryMissingException missing) {
        return NO_STACK + missing.getMessage();
    }

    /**
     * Prints {@link #noStack} as the whole report.
     *
     * @param missing why libibverbs cannot be used
     * @param out     where the text goes
     */
    public static void writeNoStack(NativeLibraryMissingException missing, PrintWriter out) {
        out.println(noStack(missing));
        out.flush();
    }

    /**
     * @param reports the devices, possibly none
     * @param out     where the text goes
     */
    public static void write(List<DeviceReport> reports, PrintWriter out) {
        if (reports.isEmpty()) {
            out.println(NO_DEVICES);
            out.flush();
            return;
        }
        for (DeviceReport r : reports) {
            out.printf("%s  guid %016x  fw %s  vendor 0x%x part %d  ports %d%n", r.info().name(), r.info().guid(),
                    r.attributes().firmwareVersion().isEmpty() ? "-" : r.attributes().firmwareVersion(),
                    r.attributes().vendorId(), r.attributes().vendorPartId(), r.attributes().physicalPortCount());
            out.println("  atomics    " + r.atomicCapability());
            out.println("  max inline " + (r.maxInlineData() < 0 ? "unknown (probe failed)"
                    : r.maxInlineData() + " B (largest a test QP accepted)"));
            out.printf("  max QP WR %d, SGE %d, outstanding reads/atomics %d in / %d out%n",
                    r.attributes().maxQueuePairWorkRequests(), r.attributes().maxScatterGather(),
                    r.attributes().maxQueuePairReadAtomic(), r.attributes().maxQueuePairInitiatorReadAtomic());
            for (PortReport p : r.ports()) {
                PortAttributes a = p.attributes();
                out.printf("  port %d  %s  %s  MTU %d (max %d)  LID %d%n", a.port(), p.stateName(),
                        a.isEthernet() ? "Ethernet (RoCE)" : "InfiniBand", a.activeMtu().bytes(), a.maxMtu().bytes(),
                        a.lid());
                for (GidEntry g : p.gids()) {
                    out.printf("    GID[%d] %s%s%n", g.index(), g.gid(), g.type().isEmpty() ? "" : "  " + g.type());
                }
            }
        }
        out.flush();
    }
}
