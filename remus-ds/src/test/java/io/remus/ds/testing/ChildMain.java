package io.remus.ds.testing;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What the child JVMs of the tests that kill one of them ({@link ChildProcesses} is the test's side) share
 * inside the child: progress lines, a watchdog over the child's calls, waiting for the test's files, and the
 * victim's in-flight file.
 */
public final class ChildMain {
    private static final long POLL_MILLIS = 20;

    private ChildMain() {
    }

    /** Prints a {@code PROGRESS} line at once, so that a test that gives up on this process shows how far it came. */
    public static void progress(String what) {
        synchronized (System.out) {
            System.out.println("PROGRESS " + what);
            System.out.flush();
        }
    }

    /** Prints a {@code FAILED} line and ends the process with status 1 at once. */
    public static void halt(String why) {
        System.out.println("FAILED " + why);
        System.out.flush();
        Runtime.getRuntime().halt(1);
    }

    /**
     * Waits until {@code file} exists.
     *
     * @throws AssertionError when it does not within {@code bound}
     */
    public static void awaitFile(Path file, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(file.getFileName() + " did not appear within " + bound);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * Waits for the threads, failing the process ({@link #halt}) when one failed, when a call has run longer
     * than {@code callBound} (with every thread's stack printed) or when they run past {@code runBound}.
     *
     * @param callStarted per caller, the {@link System#nanoTime()} its call in flight started at, or 0
     * @param failures    what the threads threw, collected by them
     */
    public static void watch(List<Thread> threads, AtomicLongArray callStarted, List<Throwable> failures, Duration callBound,
                             Duration runBound) throws InterruptedException {
        long deadline = System.nanoTime() + runBound.toNanos();
        while (threads.stream().anyMatch(Thread::isAlive) && failures.isEmpty()) {
            long now = System.nanoTime();
            for (int i = 0; i < callStarted.length(); i++) {
                long started = callStarted.get(i);
                if (started != 0 && now - started > callBound.toNanos()) {
                    for (Thread t : threads) {
                        System.out.println(t.getName() + ": " + Arrays.toString(t.getStackTrace()));
                    }
                    halt("a call of thread " + i + " ran longer than " + callBound);
                }
            }
            if (now - deadline > 0) {
                halt("the threads still ran after " + runBound);
            }
            Thread.sleep(POLL_MILLIS);
        }
        if (!failures.isEmpty()) {
            failures.getFirst().printStackTrace(System.out);
            halt(failures.getFirst().toString());
        }
    }

    /**
     * Creates the victim's in-flight file ({@link ChildProcesses#stopWithAnOperationInFlight} reads it) and maps
     * it shared for the life of the process.
     *
     * @param file  the file, which must not exist
     * @param words one native-order word per thread
     */
    public static MemorySegment mapInFlight(Path file, int words) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, 8L * words, Arena.global());
        }
    }
}
