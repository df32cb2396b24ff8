package io.remus.tools.cli;

import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * send-lat and send-bw (two-sided SEND/RECV) through the verbs transport on a real device: server
 * and client as two command runs in this JVM, each with its own context, QPs, receives and
 * buffer, as {@link VerbsBenchDeviceTest} runs the one-sided tests.
 */
@Tag(DeviceTests.SLOW_TAG)
class VerbsSendBenchDeviceTest {
    @DeviceTest
    void shouldPingPongSendLatencyWhenClientAndServerConnectByTcp() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "send-lat", "-n", "300", "-s", "64");
        assertTrue(r[0].contains("\"test\":\"send-lat\""), r[0]);
        assertTrue(r[0].contains("\"iterations\":300"), r[0]);
        assertTrue(r[0].contains("half"), r[0]);
        assertTrue(r[1].contains("the client ran 1 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldStreamSendsWhenSeveralQueuePairsAreAsked() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "send-bw", "-n", "2000", "-q", "2", "-s", "4096");
        assertTrue(r[0].contains("\"bytes\":4096,\"iterations\":4000"), r[0]); // -n is per QP, as in perftest
        assertTrue(r[1].contains("the client ran 1 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldRunEverySizeOfSendBandwidthWhenConnectedByRdmaCm() throws Exception {
        String[] r = BenchCommandPair.run(DeviceAddress.ipv4(DeviceTests.deviceName()), "bench", "send-bw", "-n", "50", "--warmup", "5", "-a", "-R", "-t", "16");
        assertTrue(r[1].contains("rdma_cm"), r[1]);
        assertTrue(r[1].contains("the client ran 23 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldRunEverySizeOfSendLatencyWhenAllSizesAreAskedWithInlineSends() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "send-lat", "-n", "10", "--warmup", "2", "-a", "-I", "32", "-r", "4");
        assertTrue(r[1].contains("the client ran 23 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldKeepStreamingWhenTheReceiveDepthIsBelowTheSendDepth() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "send-bw", "-n", "1000", "-t", "64", "-r", "8", "-s", "1024");
        assertTrue(r[0].contains("\"bytes\":1024,\"iterations\":1000"), r[0]);
    }
}
