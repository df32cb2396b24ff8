package io.remus.bench.perftest.verbs;

import io.remus.bench.perftest.PostedReceives;
import io.remus.verbs.ConnectionOptions;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A control write must not swallow the data path's completions. The client's SEND is received and
 * acknowledged before the server writes its acknowledgement word, so the receive's completion
 * already waits in the server's completion queue when the control write polls for its own: the
 * server's next {@link VerbsSide#poll} must still return it. (A control write that dropped it would
 * leave the receive never posted again, and send-lat / send-bw would hang on rxe.)
 */
class VerbsSideControlWriteDeviceTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long SEND_ID = 7;

    @DeviceTest
    void shouldKeepReceiveCompletionWhenControlWritePollsPastIt() throws Exception {
        int port = FreePort.next();
        CompletableFuture<VerbsSide> serverSide = CompletableFuture.supplyAsync(() -> VerbsSide.connect(
                options(port, null), 4096, 1, 4, 1, 1));
        try (VerbsSide client = VerbsSide.connect(options(port, "127.0.0.1"), 4096, 1, 4, 1, 1);
             VerbsSide server = serverSide.get(120, TimeUnit.SECONDS)) {
            PostedReceives.atStart(server).fill();
            client.send(0, 2048, 64, SEND_ID, true);
            long[] ids = new long[client.completionCapacity()];
            assertEquals(SEND_ID, awaitOne(client, ids), "the client's SEND completion");

            server.acknowledge(1, WAIT);

            long got = awaitOne(server, ids);
            assertTrue(PostedReceives.isReceive(got), "expected the receive's completion, got wr_id " + got);
        }
    }

    private static long awaitOne(VerbsSide side, long[] ids) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            int n = side.poll(ids);
            if (n > 0) {
                assertEquals(1, n, "one completion");
                return ids[0];
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no completion within " + WAIT.toSeconds() + " s");
    }

    private static VerbsBenchOptions options(int port, String server) {
        return new VerbsBenchOptions(DeviceTests.deviceName(), 1, -1, port, 0, false, server, WAIT, 1, ConnectionOptions.defaults().timeout());
    }

}
