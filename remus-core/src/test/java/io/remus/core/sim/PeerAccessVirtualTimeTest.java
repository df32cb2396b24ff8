package io.remus.core.sim;

import io.remus.core.ComputeThread;
import io.remus.core.error.RemoteAccessException;
import io.remus.core.fabric.PeerAccess;
import io.remus.core.testing.TestCluster;
import io.remus.core.time.ThreadTime;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The simulator's per-peer access switch in virtual time, under interleavings that seeds choose: a peer's
 * WRITEs yield between the halves of each word (Soft-RoCE's torn WRITE) while the memory node revokes its
 * access, and the switch still waits for the WRITE executing, so the word as the switch returns is the last
 * acknowledged WRITE's and stays so.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PeerAccessVirtualTimeTest {
    private static final long SECOND = 1_000_000_000L;
    private static final SimOptions MODEL = SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)
            .withTearWords(true).withYieldWhileTearing(true);

    /** {@return 40 seeds, each also moving the switch by 97 ns: some of them revoke between the two halves of a WRITE} */
    static LongStream seeds() {
        return LongStream.rangeClosed(1, 40);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldLandNoWriteAfterTheSwitchReturnsWhenWritesYieldInsideTheirExecution(long seed) {
        VirtualTimeScheduler.run(VirtualTimeOptions.seed(seed), () -> {
            try (TestCluster c = new TestCluster(SimFabric::new, MODEL, 2, b -> { })) {
                long word = c.block(0, 8);
                AtomicLong acknowledged = new AtomicLong();
                AtomicReference<Throwable> ended = new AtomicReference<>();
                Thread writer = ThreadTime.newThread("writer", () -> {
                    try (ComputeThread t = c.node(1).newComputeThread()) {
                        for (long v = 1; v <= 1_000_000; v++) {
                            t.write(word, v | (v << 32));
                            acknowledged.set(v);
                        }
                    } catch (Throwable e) {
                        ended.set(e);
                    }
                });
                writer.start();
                ThreadTime.parkNanos(null, 50_000 + seed * 97);
                c.node(0).setPeerAccess(1, PeerAccess.READ_ONLY);
                long seen = c.raw(word, 8).get(ValueLayout.JAVA_LONG, 0);
                assertTrue(ThreadTime.join(writer, 10 * SECOND), "the writer's next WRITE was refused");
                assertInstanceOf(RemoteAccessException.class, ended.get());
                long last = acknowledged.get();
                assertTrue(last > 0, "the writer wrote before the switch");
                assertEquals(last | (last << 32), seen, "the word as the switch returned is the last acknowledged WRITE's, whole");
                assertEquals(seen, c.raw(word, 8).get(ValueLayout.JAVA_LONG, 0), "no WRITE landed after the switch");
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
    }
}
