package io.remus.bench.perftest;

import io.remus.verbs.DeviceInfo;
import io.remus.verbs.NativeLibraryMissingException;
import io.remus.verbs.VerbsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fabric rule of {@link FabricChoice}: an explicit request is honoured without asking the host; a
 * flag of one fabric asks for it; the host's default is verbs when it lists a device, else the simulator
 * with the reason, whichever way the verbs layer reports its failure to load (played through the
 * device-listing seam).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FabricChoiceTest {
    private static final String MISSING = "cannot load libibverbs.so.1 (override with -Dremus.libibverbs=/path/to/"
            + "libibverbs.so.1; on Debian/Ubuntu: apt-get install libibverbs1 ibverbs-providers)";
    private static final Supplier<FabricChoice> ONE_DEVICE =
            () -> FabricChoice.detect(() -> List.of(new DeviceInfo("rxe0", 1, 1, 0)));

    private static Supplier<List<DeviceInfo>> throwing(Throwable t) {
        return () -> {
            if (t instanceof RuntimeException e) {
                throw e;
            }
            throw (Error) t;
        };
    }

    private static void assertFallsBackNaming(Throwable failure, String reason) {
        FabricChoice c = FabricChoice.detect(throwing(failure));
        assertEquals(FabricKind.SIM, c.kind());
        assertTrue(c.fellBack());
        assertEquals("default: no RDMA stack (" + reason + ")", c.reason());
    }

    @Test
    void shouldFallBackNamingTheLibraryWhenTheTypedErrorIsThrown() {
        assertFallsBackNaming(new NativeLibraryMissingException(MISSING, new IllegalArgumentException("x")), MISSING);
    }

    @Test
    void shouldFallBackNamingTheLibraryWhenAStaticInitializerFailedWithTheTypedError() {
        assertFallsBackNaming(new ExceptionInInitializerError(new NativeLibraryMissingException(MISSING, null)), MISSING);
    }

    @Test
    void shouldFallBackWhenTheBindingClassCannotBeInitializedAgain() {
        String again = "Could not initialize class io.remus.verbs.ffi.IbVerbs$ibv_get_device_list$";
        assertFallsBackNaming(new NoClassDefFoundError(again), again);
    }

    @Test
    void shouldFallBackWhenASymbolIsMissing() {
        assertFallsBackNaming(new UnsatisfiedLinkError("unresolved symbol: ibv_get_device_list"),
                "unresolved symbol: ibv_get_device_list");
    }

    @Test
    void shouldFallBackWhenListingFails() {
        assertFallsBackNaming(new VerbsException("ibv_get_device_list failed"), "ibv_get_device_list failed");
    }

    @Test
    void shouldChooseVerbsWhenTheHostListsADevice() {
        FabricChoice c = FabricChoice.detect(() -> List.of(new DeviceInfo("mlx5_0", 7, 1, 0)));
        assertEquals(FabricKind.VERBS, c.kind());
        assertFalse(c.fellBack());
        assertTrue(c.reason().contains("mlx5_0"), c.reason());
    }

    @Test
    void shouldFallBackWhenTheHostListsNoDevice() {
        FabricChoice c = FabricChoice.detect(List::of);
        assertEquals(FabricKind.SIM, c.kind());
        assertTrue(c.fellBack());
        assertEquals("no RDMA device found", c.why());
    }

    @Test
    void shouldChooseVerbsWhenADeviceExistsAndSimOtherwise() {
        FabricChoice withDevice = FabricChoice.resolve(null, 1);
        assertEquals(FabricKind.VERBS, withDevice.kind());
        assertTrue(withDevice.reason().contains("1 RDMA device"), withDevice.reason());
        FabricChoice without = FabricChoice.resolve(null, 0);
        assertEquals(FabricKind.SIM, without.kind());
        assertTrue(without.reason().contains("no RDMA devices"), without.reason());
        assertEquals(FabricKind.SIM, FabricChoice.resolve(null, -1).kind());
        assertEquals(FabricKind.VERBS, FabricChoice.resolve(FabricKind.VERBS, 0).kind());
    }

    @Test
    void shouldChooseVerbsWhenAVerbsFlagIsGivenAndTheHostHasADevice() {
        FabricChoice c = FabricChoice.choose(null, List.of("-d rxe0"), List.of(), ONE_DEVICE);
        assertEquals(FabricKind.VERBS, c.kind());
        assertFalse(c.fellBack());
        assertTrue(c.reason().startsWith("-d rxe0 given"), c.reason());
    }

    @Test
    void shouldNotAskTheHostWhenTheFabricIsGiven() {
        Supplier<FabricChoice> never = () -> {
            throw new AssertionError("the host was asked");
        };
        assertEquals(FabricKind.SIM, FabricChoice.choose(FabricKind.SIM, List.of(), List.of(), never).kind());
        assertEquals(FabricKind.VERBS, FabricChoice.choose(FabricKind.VERBS, List.of("-d x"), List.of(), never).kind());
        assertEquals(FabricKind.SIM, FabricChoice.choose(null, List.of(), List.of("--sim-latency-ns 5"), never).kind());
    }

    @Test
    void shouldChooseSimWhenHostHasNoDevicesAndVerbsWhenItHasOne() {
        assertEquals(FabricKind.SIM, FabricChoice.resolve(null, 0).kind());
        assertEquals(FabricKind.VERBS, FabricChoice.resolve(null, 2).kind());
        assertEquals(FabricKind.SIM, FabricChoice.resolve(FabricKind.SIM, 2).kind());
        assertEquals(FabricKind.SIM, FabricChoice.resolve(null, -1).kind());
    }
}
