package io.remus.verbs.ffi.jextract;

import io.remus.verbs.ffi.conformance.RawLayerScanner;
import io.remus.verbs.ffi.conformance.right.LibC;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jextract/includes.txt} must list exactly what the raw layer declares. */
class IncludeListTest {

    @Test
    void shouldListExactlyTheRawLayerWhenComparingIncludesTxt() throws IOException {
        List<String> expected = IncludeList.ofRawLayer();
        Path generated = IncludeList.checkedInFile().getParent().getParent()
                .resolve("verbs-ffm").resolve("target").resolve("jextract").resolve("includes.txt");
        Files.createDirectories(generated.getParent());
        Files.writeString(generated, String.join("\n", expected) + "\n");
        Path checkedIn = IncludeList.checkedInFile();
        assertTrue(Files.exists(checkedIn), () -> checkedIn + " is missing; copy " + generated);
        List<String> actual = IncludeList.parse(Files.readString(checkedIn));

        List<String> toAdd = new ArrayList<>(expected);
        toAdd.removeAll(actual);
        List<String> toRemove = new ArrayList<>(actual);
        toRemove.removeAll(expected);

        assertTrue(toAdd.isEmpty() && toRemove.isEmpty(), () -> checkedIn + " differs from the raw layer.\n"
                + "Add:\n  " + String.join("\n  ", toAdd) + "\nRemove:\n  " + String.join("\n  ", toRemove)
                + "\nRefresh it with: cp " + generated + " " + checkedIn);
    }

    @Test
    void shouldLeaveOutFunctionPointersAndLibcWhenListingIncludes() {
        List<String> lines = IncludeList.of(RawLayerScanner.scan(LibC.class));

        assertEquals(List.of(
                "--include-union ibv_gid",
                "--include-struct ibv_mw_bind_info",
                "--include-struct ibv_send_wr",
                "--include-function ibv_query_gid",
                "--include-function ibv_reg_mr",
                "--include-function rdma_create_event_channel",
                "--include-constant IBV_ACCESS_REMOTE_ATOMIC",
                "--include-constant IBV_WR_RDMA_WRITE",
                "--include-constant RAI_PASSIVE",
                "--include-constant RDMA_PS_TCP",
                "--include-constant RDMA_UDP_QKEY"), lines);
    }
}
