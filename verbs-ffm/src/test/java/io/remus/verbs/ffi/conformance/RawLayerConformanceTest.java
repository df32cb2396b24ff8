package io.remus.verbs.ffi.conformance;

import io.remus.verbs.ffi.ibv_sge;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The raw layer {@code io.remus.verbs.ffi} against the installed rdma-core and libc headers:
 * every struct size, member offset, function prototype and descriptor, and constant value.
 * Needs gcc, libibverbs-dev and librdmacm-dev (bin/install-deps); fails without them.
 */
class RawLayerConformanceTest {

    @Test
    void shouldMatchTheInstalledHeadersWhenCheckingTheRawLayer() {
        RawLayer layer = RawLayerScanner.scan(ibv_sge.class);

        List<String> mismatches = ConformanceChecker.check(layer);

        assertTrue(mismatches.isEmpty(), () -> layer.packageName() + " does not match the installed headers:\n" + String.join("\n", mismatches));
    }

    @Test
    void shouldDiscoverStructsFunctionsAndConstantsWhenScanningTheRawLayer() {
        RawLayer layer = RawLayerScanner.scan(ibv_sge.class);

        assertTrue(layer.structs().stream().anyMatch(s -> s.tag().equals("ibv_sge") && !s.isUnion()),
                () -> "structs: " + layer.structs());
        assertTrue(layer.functions().stream().anyMatch(f -> f.field().equals("IbVerbs.IBV_GET_DEVICE_LIST")
                && f.function().name().equals("ibv_get_device_list")), () -> "functions: " + layer.functions());
        assertTrue(layer.constants().stream().anyMatch(c -> c.label().equals("IbVerbs.IBV_ACCESS_LOCAL_WRITE")
                && c.value() == 1), () -> "constants: " + layer.constants());
    }

    @Test
    void shouldFindNothingWrongWhenDeclarationsAreRight() {
        RawLayer layer = RawLayerScanner.scan(io.remus.verbs.ffi.conformance.right.LibC.class);

        List<String> mismatches = ConformanceChecker.check(layer);

        assertEquals(List.of("ibv_gid", "ibv_mw_bind_info", "ibv_send_wr"),
                layer.structs().stream().map(StructDeclaration::tag).toList());
        assertEquals(6, layer.functions().size(), () -> "functions: " + layer.functions());
        assertEquals(9, layer.constants().size(), () -> "constants: " + layer.constants());
        assertTrue(mismatches.isEmpty(), () -> String.join("\n", mismatches));
    }
}
