package io.remus.bench.perftest;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a call that may block for good (opening a FIFO whose other end never comes, reading a line
 * a harness never writes) on a daemon thread, and waits for it at most a bound: the waits of the
 * harness hooks ({@link WindowMarks}, {@link RunGate}) end like every other wait in the tool. A
 * call left blocked keeps its thread, which does not keep the JVM alive.
 */
final class BoundedCall {
    private BoundedCall() {
    }

    /**
     * @param blocking    the call
     * @param seconds     how long to wait for it at most
     * @param threadName  the name of the thread it runs on
     * @param failed      the message of the failure when the call throws, before {@code ": "} and its cause's message
     * @param interrupted the message of the failure when this thread is interrupted while it waits
     * @return what the call returned
     * @throws TimeoutException    when the call did not return in time (the caller says what that means)
     * @throws BenchFailedException when the call threw, or this thread was interrupted
     */
    static <T> T within(Callable<T> blocking, long seconds, String threadName, String failed, String interrupted)
            throws TimeoutException {
        FutureTask<T> task = new FutureTask<>(blocking);
        Thread waiter = new Thread(task, threadName);
        waiter.setDaemon(true);
        waiter.start();
        try {
            return task.get(seconds, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new BenchFailedException(failed + ": " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailedException(interrupted);
        }
    }
}
