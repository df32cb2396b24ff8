package io.remus.verbs;

import io.remus.verbs.testing.DeviceTest;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A queue pair whose peer queue pair is destroyed: with {@link ConnectionOptions#defaults()} the
 * device gives up after its retries and completes the request with an error, also on Soft-RoCE,
 * which retransmits forever at retry count 7.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PeerGoneTest {

    @DeviceTest
    void shouldCompleteWithRetryExceededWhenThePeerQueuePairIsDestroyed() {
        try (LoopbackFixture f = new LoopbackFixture()) {
            PreparedQueuePair mine = f.builder.build();
            PreparedQueuePair theirs = f.builder.build();
            Endpoint mineAt = mine.localEndpoint();
            ConnectedQueuePair requester = mine.connect(theirs.localEndpoint());
            ConnectedQueuePair peer = theirs.connect(mineAt);
            try {
                requester.sendBatch(1).read(1, f.mr, 0, 8, f.mr.address() + 64, f.mr.remoteKey(), true).post();
                f.awaitSuccesses(1);

                peer.close();
                requester.sendBatch(1).read(2, f.mr, 0, 8, f.mr.address() + 64, f.mr.remoteKey(), true).post();
                f.cq.pollUntilAny(f.completions, 4 * LoopbackFixture.TIMEOUT_NANOS);
                assertEquals(2, f.completions.workRequestId(0));
                assertEquals(CompletionStatus.RETRY_EXCEEDED, f.completions.status(0),
                        CompletionStatus.describe(f.completions.status(0)));
                assertEquals(QueuePairState.ERROR, requester.state());
            } finally {
                requester.close();
                peer.close();
            }
        }
    }
}
