package io.remus.core;

import io.remus.verbs.testing.ChildJvm;
import io.remus.verbs.testing.DeviceTest;
import io.remus.verbs.testing.DeviceTests;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RemusCluster#openRpcEndpoint} across processes on the test device: three child JVMs
 * ({@link RemusClusterRpcMain}) join through a rendezvous directory, open their endpoints and call every node.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RemusClusterRpcOnVerbsTest {
    /** How long a child may take: its JVM's start and device open (minutes in a loaded emulated guest), then the run. */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(7);

    @DeviceTest
    void shouldCallEveryNodeWhenThreeProcessesOpenTheirEndpoints(@TempDir Path dir) throws InterruptedException {
        String device = DeviceTests.deviceName();
        int port = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                children.add(ChildJvm.start(RemusClusterRpcMain.class, "--device=" + device, "--rendezvous",
                        dir.resolve("job").toString(), "--node-id=" + i, "--node.count=3", "--port.base=" + port,
                        "--seg-size=256K", "--segment.count=2", "--timeout.ms=20000", "--join.timeout.ms=90000"));
            }
            long sum = 20L * (1000 * 19 / 2 * 3) + 20L * (0 + 100 + 200);
            for (int i = 0; i < 3; i++) {
                ChildJvm.Result r = children.get(i).await(CHILD_TIMEOUT);
                assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
                assertTrue(r.output().contains("RESULT node " + i + " sum " + sum + " served 60"), r.output());
            }
        } finally {
            children.forEach(ChildJvm::close);
        }
    }
}
