package io.remus.example;

import io.remus.core.ComputeThread;
import io.remus.core.memory.RemotePtr;
import io.remus.core.sim.SimFabric;
import io.remus.core.verbs.VerbsFabric;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's example in a user's module on the module path: the Remus jars are named modules,
 * resolved through their descriptors, and native access is granted to {@code io.remus.verbs} by
 * name ({@code --enable-native-access=io.remus.verbs}, set in this module's POM), not to
 * {@code ALL-UNNAMED}.
 */
class ReadmeExampleOnModulePathTest {

    @Test
    void shouldRunTheReadmeExampleWhenOnTheModulePath() {
        ReadmeExample.Outcome outcome = ReadmeExample.run();

        assertEquals(41, outcome.before());
        assertEquals(42, outcome.now());
        assertEquals(1, RemotePtr.node(outcome.counter()));
        assertEquals(42, outcome.fromRoot());
    }

    @Test
    void shouldResolveEveryRemusModuleByNameWhenOnTheModulePath() {
        Module example = ReadmeExample.class.getModule();
        Module core = ComputeThread.class.getModule();
        Module verbs = verbsModule();

        assertEquals("io.remus.example", example.getName());
        assertTrue(core.isNamed(), "remus-core is on the class path: " + core);
        assertEquals("io.remus.core", core.getName());
        assertEquals(core, SimFabric.class.getModule());
        assertTrue(example.canRead(core));
        assertTrue(core.canRead(verbs));
    }

    @Test
    void shouldExportTheUsersPackagesAndNotTheBootstrapWireFormatWhenResolved() {
        Module core = ComputeThread.class.getModule();

        for (String api : new String[] {"io.remus.core", "io.remus.core.config", "io.remus.core.error",
                "io.remus.core.memory", "io.remus.core.fabric", "io.remus.core.sim", "io.remus.core.verbs"}) {
            assertTrue(core.isExported(api), api + " is not exported");
        }
        assertFalse(core.isExported("io.remus.core.verbs.bootstrap"));
        assertFalse(verbsModule().isExported("io.remus.verbs.ffi"));
    }

    @Test
    void shouldGrantNativeAccessToTheVerbsModuleAloneWhenLaunchedAsTheReadmeSays() {
        assertTrue(verbsModule().isNativeAccessEnabled(), "io.remus.verbs has no native access");
        assertFalse(ComputeThread.class.getModule().isNativeAccessEnabled(), "io.remus.core has native access");
        assertFalse(ReadmeExample.class.getClassLoader().getUnnamedModule().isNativeAccessEnabled(),
                "the class path (ALL-UNNAMED) has native access");
    }

    @Test
    void shouldMakeTheDowncallsInTheVerbsModuleWhenAVerbsFabricIsOpened() {
        // Opening a device makes restricted calls (the library lookup, then ibv_get_device_list) whether or
        // not this host has libibverbs or the device, and fails for want of one or the other with a
        // RemusException (its cause a NativeLibraryMissingException where libibverbs is missing). A
        // restricted call refused for want of native access is an IllegalCallerException instead.
        // From JDK 24 the POM runs this with --illegal-native-access=deny, so that a restricted call from a
        // module without native access throws IllegalCallerException instead of warning.
        Throwable e = assertThrows(Throwable.class, () -> VerbsFabric.open("remus-no-such-device"));

        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            assertFalse(cause instanceof IllegalCallerException, "a restricted call was refused: " + cause);
        }
    }

    private static Module verbsModule() {
        return ModuleLayer.boot().findModule("io.remus.verbs")
                .orElseThrow(() -> new AssertionError("io.remus.verbs is not in the boot layer"));
    }
}
