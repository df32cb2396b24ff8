package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.BenchTest;
import io.remus.verbs.DeviceAttributes;

/**
 * The inline size perftest chooses when {@code -I} is not given, so that {@code remus bench} without
 * {@code -I} runs what perftest without {@code -I} runs. perftest (its {@code ctx_set_max_inline} and
 * {@code ib_dev_name}; the device list as of perftest 25.x) sends inline only in the latency tests that send: {@code ib_write_lat}
 * up to 220 bytes and {@code ib_send_lat} up to 236 on an RC connection, less on some devices
 * (Broadcom NetXtreme and Alibaba eRDMA 96, QLogic FastLinQ 128, Intel E810 48 and later Intel 101,
 * Huawei HNS and Amazon EFA 32). It recognises a device by its {@code vendor_part_id} (Chelsio and
 * Intel by their {@code vendor_id}); a device it does not recognise, Soft-RoCE among them, gets 0
 * ("Device not recognized to implement inline feature"). Older perftests recognise fewer of the
 * newest devices: pass {@code -I} to both tools to compare on one.
 */
public final class PerftestInline {
    private static final int WRITE_LAT_BYTES = 220;
    private static final int SEND_LAT_BYTES = 236;
    private static final int CHELSIO = 0x1425;
    private static final int INTEL = 0x8086;
    private static final int INTEL_E810 = 14289;

    private PerftestInline() {
    }

    /**
     * What perftest chose and why, for a report's notes.
     *
     * @param bytes  the largest message sent inline; 0: none
     * @param reason why, in a few words
     */
    public record Choice(int bytes, String reason) {
    }

    /**
     * @param test the benchmark
     * @return whether perftest's choice depends on the device (only the latency tests that send inline)
     */
    public static boolean dependsOnDevice(BenchTest test) {
        return test == BenchTest.WRITE_LAT || test == BenchTest.SEND_LAT;
    }

    /**
     * @param test       the test
     * @param inlineSize {@code -I}, or null when not given
     * @param device     {@code -d}, or null for the first device
     * @return {@code -I}, or, without it, what perftest chooses for this test on this device (write-lat and
     *         send-lat ask the device)
     */
    public static Choice forFlags(BenchTest test, Integer inlineSize, String device) {
        if (inlineSize != null) {
            return new Choice(inlineSize, "-I " + inlineSize);
        }
        return choose(test, dependsOnDevice(test) ? VerbsSide.queryDevice(device) : null);
    }

    /**
     * @param test       the benchmark
     * @param attributes the device's attributes, or null when {@link #dependsOnDevice} is false
     * @return perftest's inline size for this test on this device
     */
    public static Choice choose(BenchTest test, DeviceAttributes attributes) {
        if (!dependsOnDevice(test)) {
            return new Choice(0, "perftest sends nothing inline in " + test.commandName() + " unless -I says so");
        }
        return choose(test, attributes.vendorId(), attributes.vendorPartId());
    }

    /**
     * @param test         the benchmark
     * @param vendorId     the device's {@code vendor_id}
     * @param vendorPartId the device's {@code vendor_part_id}
     * @return perftest's inline size for this test on that device
     */
    public static Choice choose(BenchTest test, int vendorId, int vendorPartId) {
        if (!dependsOnDevice(test)) {
            return choose(test, null);
        }
        String device = "vendor 0x" + Integer.toHexString(vendorId) + ", part " + vendorPartId;
        int bytes = deviceLimit(vendorId, vendorPartId, test == BenchTest.WRITE_LAT ? WRITE_LAT_BYTES : SEND_LAT_BYTES);
        if (bytes == 0) {
            return new Choice(0, "perftest's default on a device it does not recognise (" + device + ")");
        }
        return new Choice(bytes, "perftest's default for " + test.commandName() + " on this device (" + device + ")");
    }

    /** @return the inline size perftest uses on that device, {@code normal} where it has no device-specific one; 0: unknown device */
    private static int deviceLimit(int vendorId, int part, int normal) {
        if (vendorId == CHELSIO) {
            int generation = part >>> 12;
            return generation == 4 || generation == 5 || generation == 6 || generation == 10 || generation == 11 ? normal : 0;
        }
        if (vendorId == INTEL) {
            return part == INTEL_E810 ? 48 : 101;
        }
        return switch (part) {
            // ConnectX-3 to ConnectX-8, Connect-IB, the mlx5 VF, BlueField 1 to 3
            case 4099, 4100, 4103, 4104, 4113, 4115, 4116, 4117, 4118, 4119, 4120, 4121, 4122, 4123, 4124, 4125, 4126,
                 4127, 4129, 4131, 41682, 41683, 41686, 41692 -> normal;
            // ConnectX and ConnectX-2
            case 25408, 25418, 25428, 25448, 26418, 26428, 26438, 26448, 26458, 26468, 26478 -> normal;
            // Emulex Skyhawk, QLogic (Marvell) AH and AHP
            case 1824, 32880, 32881, 32882, 32883, 32912, 33136, 33168 -> normal;
            // QLogic FastLinQ (E4)
            case 5684, 5700, 5716, 5718, 5734 -> 128;
            // Broadcom NetXtreme
            case 5638, 5652, 5824, 5825, 5827, 5839, 5846, 5847, 5848, 5849, 5855, 5858, 5859, 5861, 5867, 5869, 5871,
                 5872, 5873, 5968, 5984, 6169, 55296, 55298, 55300 -> 96;
            // Alibaba eRDMA
            case 4223 -> 96;
            // Amazon EFA
            case 61344, 61345, 61346 -> 32;
            // Huawei HNS
            case 41506, 41507, 41508, 41509, 41510, 41512, 41519 -> 32;
            default -> 0;
        };
    }
}
