package io.remus.tools.bench.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Quarantined, not in CI: SEND tests with fewer receives posted than SENDs can arrive (-r 4 and
 * -r 8). Each hung once on rxe in a clean-clone CI run of 2026-11-23 (one guest, single-threaded
 * TCG): send-lat over every size with inline sends (commit 6c850fb: the client waited 60 s for the
 * server's SEND reply while the server waited 60 s for a ping) and send-bw with -t 64 -r 8 (commit
 * d8ae1e8: no SEND completion and no SEND arriving for 60 s), with no error completion on either
 * side. Both had passed in five earlier guest runs; the SEND tests with 512 receives pass. The cause is not known yet: a SEND that never completes without an error fits
 * an endless RNR retry (RNR retry 7) on a side with no receive posted, which the receive accounting
 * of {@link io.remus.tools.bench.SendPingPong} should rule out. Run it with
 * {@code SOFTROCE_TEST_TAG=quarantine SOFTROCE_TEST_CLASSES='.*SendFewReceivesQuarantineTest'
 * softroce/run-tests}; move them back into {@link VerbsSendBenchDeviceTest} once the cause is fixed.
 */
@Tag("quarantine")
@EnabledIfEnvironmentVariable(named = "REMUS_TEST_DEVICE", matches = ".+",
        disabledReason = "no RDMA device: set REMUS_TEST_DEVICE=<name>, see softroce/README.md")
class SendFewReceivesQuarantineTest {
    @Test
    void shouldRunEverySizeOfSendLatencyWhenAllSizesAreAskedWithInlineSends() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "send-lat", "-n", "10", "--warmup", "2", "-a", "-I", "32", "-r", "4");
        assertTrue(r[1].contains("the client ran 23 size(s)"), r[1]);
    }

    @Test
    void shouldKeepStreamingWhenTheReceiveDepthIsBelowTheSendDepth() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "send-bw", "-n", "1000", "-t", "64", "-r", "8", "-s", "1024");
        assertTrue(r[0].contains("\"bytes\":1024,\"iterations\":1000"), r[0]);
    }
}
