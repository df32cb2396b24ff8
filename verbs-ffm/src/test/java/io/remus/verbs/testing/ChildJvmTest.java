package io.remus.verbs.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ChildJvmTest {
    private static final Duration GENEROUS = Duration.ofMinutes(3);

    /** Prints its arguments and exits with the status given as the first one. */
    static final class Echo {
        public static void main(String[] args) {
            System.out.println("args " + String.join(",", args));
            System.err.println("native access " + Echo.class.getModule().isNativeAccessEnabled());
            System.exit(Integer.parseInt(args[0]));
        }
    }

    /** Never exits by itself. */
    static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("sleeping");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    @Test
    void shouldCaptureOutputAndExitCodeWhenChildExits() throws InterruptedException {
        ChildJvm.Result result = ChildJvm.run(GENEROUS, Echo.class, "7", "a b");
        assertEquals(7, result.exitCode());
        assertFalse(result.timedOut());
        assertTrue(result.output().contains("args 7,a b"), result::output);
        assertTrue(result.output().contains("native access true"), result::output);
    }

    @Test
    void shouldSucceedWhenChildExitsWithZero() throws InterruptedException {
        assertTrue(ChildJvm.run(GENEROUS, Echo.class, "0").succeeded());
    }

    @Test
    void shouldKillChildWhenItRunsPastTheTimeout() throws InterruptedException {
        try (ChildJvm child = ChildJvm.start(Sleeper.class)) {
            ChildJvm.Result result = child.await(Duration.ofMillis(1));
            assertTrue(result.timedOut());
            assertFalse(result.succeeded());
            assertFalse(ProcessHandle.of(child.pid()).map(ProcessHandle::isAlive).orElse(false));
        }
    }

    @Test
    void shouldKillChildWhenClosedWhileRunning() {
        long pid;
        try (ChildJvm child = ChildJvm.start(Sleeper.class)) {
            pid = child.pid();
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }
}
