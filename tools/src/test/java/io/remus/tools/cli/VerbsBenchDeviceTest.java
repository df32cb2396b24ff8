package io.remus.tools.cli;

import io.remus.bench.perftest.verbs.VerbsSide;
import io.remus.verbs.testing.DeviceAddress;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Tag;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * read-lat, write-lat, atomic-lat and read-bw through the verbs transport on a real device: server
 * and client as two command runs in this JVM (each with its own context, QPs and buffer), the
 * client's JSON report checked for the iterations asked.
 */
@Tag(DeviceTests.SLOW_TAG)
class VerbsBenchDeviceTest {
    @DeviceTest
    void shouldMeasureReadLatencyWhenClientAndServerConnectByTcp() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "read-lat", "-n", "300", "-s", "64");
        assertTrue(r[0].contains("\"iterations\":300") || r[0].contains("\"iterations\": 300"), r[0]);
        assertTrue(r[1].contains("the client ran 1 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldPingPongWriteLatencyWhenClientAndServerConnectByTcp() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "write-lat", "-n", "300", "-I", "32", "-s", "8");
        assertTrue(r[0].contains("300"), r[0]);
        assertTrue(r[1].contains("the client ran 1 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldRunEverySizeOfWriteLatencyWhenAllSizesAreAskedUpTo() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "write-lat", "-n", "10", "--warmup", "2", "-a");
        assertTrue(r[1].contains("the client ran 23 run(s)"), r[1]);
        assertTrue(r[0].contains("nothing is sent inline (perftest's default on a device it does not recognise"),
                "no -I: as ib_write_lat on Soft-RoCE, " + r[0]);
    }

    @DeviceTest
    void shouldMeasureAtomicLatencyWhenConnectedByRdmaCm() throws Exception {
        String[] r = BenchCommandPair.run(DeviceAddress.ipv4(DeviceTests.deviceName()), "bench", "atomic-lat", "-n", "200", "-R", "-A", "CMP_AND_SWAP");
        assertTrue(r[1].contains("rdma_cm"), r[1]);
    }

    @DeviceTest
    void shouldMeasureReadBandwidthWhenSeveralQueuePairsAreAsked() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "read-bw", "-n", "300", "-q", "2", "-s", "4096");
        assertTrue(r[0].contains("\"bytes\":4096,\"iterations\":600"), r[0]); // -n is per QP, as in perftest
        assertTrue(r[0].contains("\"cq_moderation\":100"), r[0]);
        int most = VerbsSide.queryDevice(DeviceTests.deviceName()).maxQueuePairReadAtomic();
        assertTrue(r[0].contains(Math.min(255, most) + " READs/atomics in flight per QP at most"),
                "no -o: the device's most, as perftest; " + r[0]);
        assertTrue(r[1].contains(Math.min(255, most) + " READs/atomics in flight per QP at most"), r[1]);
    }

    @DeviceTest
    void shouldKeepTheOutstandingReadsAskedForWhenConnectedByRdmaCm() throws Exception {
        String[] r = BenchCommandPair.run(DeviceAddress.ipv4(DeviceTests.deviceName()), "bench", "read-bw", "-n", "300",
                "-s", "64", "-o", "4", "-R");
        assertTrue(r[0].contains("rdma_cm") && r[0].contains(", 4 READs/atomics in flight per QP at most"), r[0]);
        assertTrue(r[0].contains("\"bytes\":64,\"iterations\":300"), r[0]);
    }

    @DeviceTest
    void shouldFinishEveryQueuePairsUnsignalledTailWhenADurationRunWithCqModerationEnds() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "write-bw", "-D", "2", "-q", "2", "-s", "64", "-Q", "7");
        assertTrue(r[0].contains("\"cq_moderation\":7"), r[0]);
        assertTrue(r[1].contains("the client ran 1 run(s)"), r[1]);
    }

    @DeviceTest
    void shouldConnectWithTheQpTimeoutWhenOneIsGiven() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "write-bw", "-n", "500", "-s", "4096", "-u", "18");
        assertTrue(r[0].contains("\"bytes\":4096,\"iterations\":500"), r[0]);
        assertTrue(r[0].contains("QP ACK timeout 18 (4.096 us * 2^18, -u)"), r[0]);
    }

    @DeviceTest
    void shouldRunEveryRepetitionOnOneConnectionWhenRepeatIsGiven() throws Exception {
        String[] r = BenchCommandPair.run("127.0.0.1", "bench", "write-bw", "-n", "400", "-s", "64", "--repeat", "3");
        String result = "\"bytes\":64,\"iterations\":400";
        assertTrue(r[0].split(java.util.regex.Pattern.quote(result), -1).length == 4, "three results: " + r[0]);
        assertTrue(r[1].contains("the client ran 3 run(s)"), r[1]);
    }
}
