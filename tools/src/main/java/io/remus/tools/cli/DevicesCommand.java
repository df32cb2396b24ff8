package io.remus.tools.cli;

import io.remus.tools.devices.DeviceFormat;
import io.remus.bench.devices.DeviceProbe;
import io.remus.bench.devices.DeviceReport;
import io.remus.verbs.Device;
import io.remus.verbs.DeviceInfo;
import io.remus.verbs.NativeLibraryMissingException;
import io.remus.verbs.VerbsException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code remus devices}: the RDMA devices of this host, like a short {@code ibv_devinfo}: ports,
 * state, MTU, GIDs, atomic capability and max inline size. A host without devices gets the line
 * {@value DeviceFormat#NO_DEVICES}, one without an RDMA stack (libibverbs missing or unusable) a
 * line {@value DeviceFormat#NO_STACK} followed by the reason; both exit with status 0. A device
 * asked for by {@code -d} that is not there is an error.
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "RDMA devices: ports, state, MTU, GIDs, atomic capability, max inline.")
public final class DevicesCommand implements Callable<Integer> {
    private final Supplier<List<DeviceInfo>> lister;

    @Spec
    CommandSpec spec;

    @Mixin
    DeviceOption deviceOption;

    /** Lists the devices of this host through libibverbs. */
    public DevicesCommand() {
        this(Device::list);
    }

    /** @param lister where the device list comes from (tests give their own) */
    public DevicesCommand(Supplier<List<DeviceInfo>> lister) {
        this.lister = lister;
    }

    @Override
    public Integer call() {
        List<DeviceInfo> devices;
        try {
            devices = lister.get();
        } catch (NativeLibraryMissingException e) {
            if (deviceOption.device != null) {
                throw new VerbsException("no RDMA device called '" + deviceOption.device + "': " + DeviceFormat.noStack(e), e);
            }
            DeviceFormat.writeNoStack(e, spec.commandLine().getOut());
            return 0;
        }
        List<DeviceReport> reports = DeviceProbe.probe(devices, deviceOption.device);
        DeviceFormat.write(reports, spec.commandLine().getOut());
        return 0;
    }
}
