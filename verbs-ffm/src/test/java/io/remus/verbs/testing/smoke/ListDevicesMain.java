package io.remus.verbs.testing.smoke;

import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;

import java.util.List;

/**
 * A child-process program: prints {@code device: NAME} for every RDMA device and exits 0 if
 * the device named by its one argument is among them, 3 if not.
 */
public final class ListDevicesMain {
    /** Exit status when the expected device is missing. */
    public static final int MISSING = 3;

    private ListDevicesMain() {
    }

    /**
     * @param args the expected device name
     */
    public static void main(String[] args) {
        List<String> names = Device.list().stream().map(DeviceInfo::name).toList();
        names.forEach(name -> System.out.println("device: " + name));
        System.out.println("pid " + ProcessHandle.current().pid() + " sees " + names.size() + " device(s)");
        System.exit(args.length == 1 && names.contains(args[0]) ? 0 : MISSING);
    }
}
