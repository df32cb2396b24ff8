package io.remus.alock;

import io.remus.core.config.Timeouts;
import io.remus.core.time.ThreadTime;

import java.time.Duration;
import java.util.Objects;

/**
 * A bounded spin wait, reused across waits: each {@link #pause(String)} calls
 * {@link ThreadTime#onSpinWait(String)} with what it awaits, every 64th yields the processor
 * ({@link ThreadTime#yield()}) and checks the deadline, and a wait past the deadline throws
 * {@link LockTimeoutException}; a waiter that someone will wake may {@linkplain #park park} instead
 * ({@link ThreadTime#parkNanos}). Every clock reading is {@link ThreadTime#nanoTime()}, so on a thread of the
 * simulator's virtual-time scheduler the waits and deadlines are that thread's virtual ones, and on a host
 * thread the JDK's. Allocates nothing unless it throws. The
 * timeout is validated as {@link Timeouts#require} says, so {@code ThreadTime.nanoTime()} plus it cannot
 * overflow the comparison with the deadline; {@link Timeouts#FOREVER} waits without end. A
 * {@linkplain #cap(long) cap} ends every wait started while it is set no later than a given instant,
 * checked on every pause; a {@linkplain #cap(WaitDeadline) moving cap} is asked for that instant on every
 * pause.
 */
public final class SpinBound {
    private final long timeoutNanos;
    private final Duration timeout;
    private long deadline;
    private int spins;
    private boolean capped;
    private long cap;
    private WaitDeadline moving;

    /**
     * Creates a spin wait with a bound on each wait.
     *
     * @param timeout the bound of each wait: positive, at most {@link Timeouts#MAX_FINITE}, or
     *                {@link Timeouts#FOREVER}
     * @throws NullPointerException when {@code timeout} is null
     * @throws io.remus.core.error.BadArgumentException naming the value when it is out of that range
     */
    public SpinBound(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        this.timeout = Timeouts.require(timeout, "spin timeout");
        this.timeoutNanos = timeout.toNanos();
    }

    /** Starts a wait: it ends at the timeout from now, or at the cap when one is set and earlier. */
    public void start() {
        spins = 0;
        deadline = ThreadTime.nanoTime() + timeoutNanos;
        if (capped && moving == null && cap - deadline < 0) {
            deadline = cap;
        }
    }

    /**
     * Ends the waits started from now on no later than {@code deadlineNanos}, until {@link #uncap()};
     * while capped, every pause checks the deadline.
     *
     * @param deadlineNanos an instant of {@link ThreadTime#nanoTime()}
     */
    public void cap(long deadlineNanos) {
        cap = deadlineNanos;
        moving = null;
        capped = true;
    }

    /**
     * Ends the waits started from now on no later than what {@code deadline} answers at each pause, until
     * {@link #uncap()}.
     *
     * @param deadline asked on every pause while capped
     * @throws NullPointerException when {@code deadline} is null
     */
    public void cap(WaitDeadline deadline) {
        moving = Objects.requireNonNull(deadline, "deadline");
        capped = true;
    }

    /** Removes the cap: waits end at the timeout again. */
    public void uncap() {
        capped = false;
        moving = null;
    }

    /** {@return how many pauses and parks the current wait has made since {@link #start()}} */
    public int pauses() {
        return spins;
    }

    /**
     * One unsuccessful check of the awaited condition that parks the thread instead of spinning: until
     * {@link ThreadTime#unpark} (or a spurious return) and no later than the deadline, which it checks first: a
     * park that would start at the deadline or later throws instead (so a wait never parks for no time, which on
     * the virtual-time scheduler would not move the clock on). A moving cap is asked once, so a cap pushed back during the park ends it early and the caller's next
     * check parks again. The caller must make sure that whoever changes the awaited condition unparks it:
     * nothing else wakes it before the deadline.
     *
     * @param awaited what is awaited, e.g. {@code "hand-over of"}
     * @param lock    the lock it concerns, appended to {@code awaited} in the exception's message
     * @throws LockTimeoutException when the wait is at or past its deadline
     */
    public void park(String awaited, String lock) {
        Objects.requireNonNull(awaited, "awaited");
        Objects.requireNonNull(lock, "lock");
        spins++;
        long now = ThreadTime.nanoTime();
        long end = moving != null ? moving.deadlineNanos(now) : deadline;
        if (moving != null && deadline - end < 0) {
            end = deadline;
        }
        if (now - end >= 0) {
            throw timeout(awaited, lock);
        }
        ThreadTime.parkNanos(this, end - now);
    }

    /**
     * One unsuccessful check of the awaited condition.
     *
     * @param awaited what is awaited, for the exception's message
     * @throws LockTimeoutException when the wait is past its deadline
     */
    public void pause(String awaited) {
        Objects.requireNonNull(awaited, "awaited");
        pause(awaited, "");
    }

    /**
     * One unsuccessful check of the awaited condition, naming its lock without building a string
     * unless the wait fails.
     *
     * @param awaited what is awaited, e.g. {@code "hand-over of"}
     * @param lock    the lock it concerns, appended to {@code awaited} in the exception's message
     * @throws LockTimeoutException when the wait is past its deadline
     */
    public void pause(String awaited, String lock) {
        Objects.requireNonNull(awaited, "awaited");
        Objects.requireNonNull(lock, "lock");
        boolean every64th = (++spins & 0x3F) == 0;
        if (every64th || capped) {
            long now = ThreadTime.nanoTime();
            if (now - deadline > 0 || moving != null && now - moving.deadlineNanos(now) > 0) {
                throw timeout(awaited, lock);
            }
        }
        if (every64th) {
            ThreadTime.yield();
        } else {
            ThreadTime.onSpinWait(awaited);
        }
    }

    private LockTimeoutException timeout(String awaited, String lock) {
        String what = lock.isEmpty() ? awaited : awaited + " " + lock;
        return new LockTimeoutException(what + " did not happen " + (capped ? "by the caller's deadline (at most "
                + timeout + ")" : "within " + timeout));
    }
}
