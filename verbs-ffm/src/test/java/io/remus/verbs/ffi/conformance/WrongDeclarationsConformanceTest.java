package io.remus.verbs.ffi.conformance;

import io.remus.verbs.ffi.conformance.missing.MissingVerbs;
import io.remus.verbs.ffi.conformance.wrong.WrongVerbs;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves that the conformance check can fail: deliberately wrong declarations (packages
 * {@code wrong} and {@code missing}) must each be reported, by name.
 */
class WrongDeclarationsConformanceTest {

    @Test
    void shouldReportEachMismatchByNameWhenDeclarationsAreWrong() {
        List<String> mismatches = ConformanceChecker.check(RawLayerScanner.scan(WrongVerbs.class));

        Set<String> expected = new TreeSet<>(List.of(
                "ibv_sge.lkey: java offset 8 size 4, C offset 12 size 4",
                "ibv_sge.length: java offset 12 size 4, C offset 8 size 4",
                "ibv_sge.lkey$OFFSET: java 8, C offsetof(struct ibv_sge, lkey) 12",
                "ibv_sge.lkye$OFFSET: names no member of the layout",
                "ibv_recv_wr: java size 28 alignment 8, C size 32 alignment 8",
                "ibv_recv_wr.next: C pointer of 8 bytes needs ADDRESS, Java has JAVA_LONG (8 bytes)",
                "WrongVerbs.IBV_FREE_DEVICE_LIST (ibv_free_device_list): prototype `void ibv_free_device_list("
                        + "struct ibv_device *list)` is not compatible with the header's declaration "
                        + "&ibv_free_device_list",
                "WrongVerbs.IBV_GET_DEVICE_NAME (ibv_get_device_name): return: C pointer of 8 bytes needs ADDRESS,"
                        + " Java has JAVA_LONG (8 bytes)",
                "WrongVerbs.IBV_QUERY_GID (ibv_query_gid): parameter 2 (uint8_t): C integer of 1 bytes needs "
                        + "JAVA_BYTE, Java has JAVA_INT (4 bytes)",
                "WrongVerbs.IBV_CLOSE_DEVICE (ibv_close_device): C has 1 parameters, descriptor has 0",
                "WrongVerbs.POST_RECV (ibv_context_ops.post_recv): prototype `int post_recv(struct ibv_qp *qp, "
                        + "struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)` is not compatible with the header's"
                        + " member ((struct ibv_context_ops *)0)->post_recv",
                "WrongVerbs.IBV_OPEN_DEVICE (ibv_open_device): the prototype declares ibv_open_devices, "
                        + "not ibv_open_device",
                "WrongVerbs.IBV_ACCESS_REMOTE_READ: java value 8, C value 4"));
        assertEquals(expected, new TreeSet<>(mismatches));
    }

    @Test
    void shouldShowGccErrorsByNameAndStillCheckTheRestWhenDeclarationsNameNothingInC() {
        List<String> mismatches = ConformanceChecker.check(RawLayerScanner.scan(MissingVerbs.class));

        String report = String.join("\n", mismatches);
        assertTrue(mismatches.getFirst().contains("does not compile against the installed headers"), report);
        assertTrue(report.contains("ibv_sge.nope:") && report.contains("no member named"), report);
        assertTrue(report.contains("MissingVerbs.IBV_NO_SUCH_FUNCTION (ibv_no_such_function):")
                && report.contains("ibv_no_such_function' undeclared"), report);
        assertTrue(report.contains("MissingVerbs.IBV_NO_SUCH_CONSTANT:")
                && report.contains("IBV_NO_SUCH_CONSTANT' undeclared"), report);
        assertTrue(mismatches.contains("ibv_sge.length$OFFSET: java 4, C offsetof(struct ibv_sge, length) 8"),
                report);
    }
}
