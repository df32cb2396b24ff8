package io.remus.ds.testing;

import io.remus.check.HistoryClock;
import io.remus.verbs.testing.ChildJvm;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the device tests that stop or kill one of their child JVMs share: signals, the process's state,
 * waiting for a file a child creates, stopping a child in the middle of one of its operations, and the
 * {@code key=value} lines children print.
 */
public final class ChildProcesses {
    /** How long {@link #awaitState} waits for the kernel to show a signalled process's new state. */
    private static final Duration STATE_BOUND = Duration.ofSeconds(30);

    private ChildProcesses() {
    }

    /**
     * Sends a signal with {@code kill -s}.
     *
     * @param name the signal's name: STOP, CONT, KILL
     * @param pid  the process
     */
    public static void signal(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(pid)).redirectErrorStream(true).start();
        assertTrue(kill.waitFor(30, TimeUnit.SECONDS), "kill -s " + name + " " + pid + " returned");
        assertEquals(0, kill.exitValue(), "kill -s " + name + " " + pid + ": " + new String(kill.getInputStream().readAllBytes()));
    }

    /**
     * @param child a child JVM
     * @return its state letter from {@code /proc/<pid>/stat} ({@code T}: stopped by a signal)
     */
    public static char state(ChildJvm child) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(child.pid()), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }

    /** Waits, at most 30 s, until the child's state letter is {@code wanted}. */
    public static void awaitState(ChildJvm child, char wanted) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STATE_BOUND.toNanos();
        while (state(child) != wanted) {
            if (System.nanoTime() - deadline > 0) {
                fail(child + " did not reach state " + wanted + " within " + STATE_BOUND + " (state " + state(child) + ")");
            }
            Thread.sleep(10);
        }
    }

    /**
     * Waits until {@code file} exists; past {@code bound}, fails with every child's thread dump and output.
     *
     * @param file     a file a child creates
     * @param bound    how long to wait
     * @param children the test's children
     */
    public static void awaitFile(Path file, Duration bound, List<ChildJvm> children) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!Files.exists(file)) {
            if (System.nanoTime() - deadline > 0) {
                StringBuilder outputs = new StringBuilder();
                for (ChildJvm child : children) {
                    outputs.append(child).append(":\n").append(threads(child)).append(child.await(Duration.ZERO).output()).append('\n');
                }
                fail(file.getFileName() + " did not appear within " + bound + "; the processes:\n" + outputs);
            }
            Thread.sleep(20);
        }
    }

    /** The child's thread dump ({@code jcmd PID Thread.print}), for a process that did not get as far as expected. */
    private static String threads(ChildJvm child) {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(child.pid()), "Thread.print").redirectErrorStream(true).start();
            String dump = new String(jcmd.getInputStream().readAllBytes());
            jcmd.waitFor(60, TimeUnit.SECONDS);
            return dump;
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")\n";
        }
    }

    /**
     * Stops {@code child} ({@code SIGSTOP}) at a moment when one of its threads is in the middle of an
     * operation: while it is stopped, reads the child's in-flight file (one native-order word per thread,
     * non-zero while that thread is between an operation's invocation and its response); when no thread was
     * in an operation, resumes it for 1-50 ms and stops it again. Leaves it stopped.
     *
     * @param child    the child to stop
     * @param inFlight the file it maps and marks
     * @param threads  its threads, one word each
     * @param maxStops stops to try
     * @return the threads in flight at the last stop, never empty
     */
    public static Set<Integer> stopWithAnOperationInFlight(ChildJvm child, Path inFlight, int threads, int maxStops)
            throws IOException, InterruptedException {
        for (int stop = 1; stop <= maxStops; stop++) {
            signal("STOP", child.pid());
            awaitState(child, 'T');
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(inFlight)).order(ByteOrder.nativeOrder());
            Set<Integer> busy = new HashSet<>();
            for (int w = 0; w < threads; w++) {
                if (b.getLong(8 * w) != 0) {
                    busy.add(w);
                }
            }
            if (!busy.isEmpty()) {
                System.out.println("stopped " + child + " in the middle of an operation at stop " + stop + ", threads " + busy);
                return busy;
            }
            signal("CONT", child.pid());
            Thread.sleep(1 + ThreadLocalRandom.current().nextInt(50));
        }
        return fail("in " + maxStops + " stops " + child + " never had an operation in flight");
    }

    /**
     * What {@link #killMidOperation(List, int, Path, Path, int, Duration, int, Duration)} leaves.
     *
     * @param inFlight the victim's threads that were in the middle of an operation when it was killed, never empty
     * @param killedAt when the victim was dead, on {@link HistoryClock#EPOCH_MICROS}
     * @param outputs  the children's outputs, in their order: every live child's, and the victim's only when it is
     *                 not the last child
     */
    public record Killed(Set<Integer> inFlight, long killedAt, List<String> outputs) {
    }

    /**
     * The kill tests' sequence with the last child as the victim: {@link #killMidOperation(List, int, Path, Path,
     * int, Duration, int, Duration)} of child {@code children.size() - 1}.
     */
    public static Killed killMidOperation(List<ChildJvm> children, Path dir, Path inFlight, int threads, Duration readyBound,
                                          int maxStops, Duration liveBound) throws IOException, InterruptedException {
        return killMidOperation(children, children.size() - 1, dir, inFlight, threads, readyBound, maxStops, liveBound);
    }

    /**
     * The kill tests' sequence: waits for the file {@code ready} in {@code dir}, stops the victim with an
     * operation in flight ({@link #stopWithAnOperationInFlight}), kills it with {@code SIGKILL}, creates the file
     * {@code killed} once it is dead, and waits for the other children, printing each one's output.
     *
     * @param children   the children
     * @param victim     the index in {@code children} of the child to kill
     * @param inFlight   the victim's in-flight file
     * @param threads    its threads, one word each in that file
     * @param readyBound how long to wait for {@code ready}
     * @param maxStops   stops to try
     * @param liveBound  how long to wait for each live child
     * @return what happened; its outputs hold the live children's in their order, and, when the victim is not the
     *         last child, the victim's own (what it printed before the kill) at its index
     * @throws AssertionError when a step does not happen in time, the victim did not die of the kill, or a
     *                        live child failed
     */
    public static Killed killMidOperation(List<ChildJvm> children, int victim, Path dir, Path inFlight, int threads,
                                          Duration readyBound, int maxStops, Duration liveBound)
            throws IOException, InterruptedException {
        ChildJvm killedChild = children.get(victim);
        awaitFile(dir.resolve("ready"), readyBound, children);
        Set<Integer> busy = stopWithAnOperationInFlight(killedChild, inFlight, threads, maxStops);
        ChildJvm.Result dead = kill(killedChild, "the victim");
        long killedAt = HistoryClock.EPOCH_MICROS.now();
        Files.createFile(dir.resolve("killed"));
        System.out.println("killed the victim with threads " + busy + " in flight");
        List<String> outputs = new ArrayList<>();
        for (int i = 0; i < children.size(); i++) {
            if (i == victim) {
                if (i < children.size() - 1) {
                    outputs.add(dead.output());
                }
                continue;
            }
            ChildJvm.Result r = children.get(i).await(liveBound);
            System.out.println("---- node " + i + "\n" + r.output());
            assertTrue(r.succeeded(), "node " + i + " failed:\n" + r.output());
            outputs.add(r.output());
        }
        return new Killed(busy, killedAt, outputs);
    }

    /**
     * SIGKILLs {@code victim} and waits (60 s) until it is gone.
     *
     * @param victim the child to kill
     * @param who    how the failure message names it
     * @return what it left
     * @throws AssertionError when it exited by itself or did not die in time
     */
    public static ChildJvm.Result kill(ChildJvm victim, String who) throws IOException, InterruptedException {
        signal("KILL", victim.pid());
        ChildJvm.Result dead = victim.await(Duration.ofSeconds(60));
        assertFalse(dead.succeeded() || dead.timedOut(), who + " died of the kill: " + dead);
        return dead;
    }

    /**
     * @param line a line of {@code key=value} pairs separated by spaces (other words ignored)
     * @return its pairs
     */
    public static Map<String, String> fields(String line) {
        Map<String, String> m = new HashMap<>();
        for (String part : line.split(" ")) {
            int eq = part.indexOf('=');
            if (eq > 0) {
                m.put(part.substring(0, eq), part.substring(eq + 1));
            }
        }
        return m;
    }

    /**
     * @param m   pairs from {@link #fields}
     * @param key a key that must be there
     * @return its value as a number
     */
    public static long num(Map<String, String> m, String key) {
        String v = m.get(key);
        assertTrue(v != null, "no " + key + " in " + m);
        return Long.parseLong(v);
    }
}
