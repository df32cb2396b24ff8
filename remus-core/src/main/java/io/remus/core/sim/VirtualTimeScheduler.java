package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.error.VirtualTimeBudgetException;
import io.remus.core.error.VirtualTimeDeadlockException;
import io.remus.core.error.VirtualTimeException;
import io.remus.core.time.ScheduledThread;
import io.remus.core.time.ThreadTime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs every thread of a simulated run one at a time, in the order of their virtual clocks: a deterministic,
 * virtual-time scheduler.
 *
 * {@snippet :
 * VirtualTimeRun run = VirtualTimeScheduler.run(VirtualTimeOptions.seed(42), () -> {
 *     try (SimFabric fabric = new SimFabric(SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5))) {
 *         Thread worker = ThreadTime.newThread("worker", () -> doWork(fabric));
 *         worker.start();
 *         ThreadTime.join(worker, 1_000_000_000L);       // 1 s of virtual time
 *     }
 * });
 * long virtualNanos = run.endNanos();                   // the same for seed 42 on any host, under any load
 * }
 *
 * <p>{@link #run} starts its body as the first {@link ScheduledThread} at virtual time 0; the threads it starts with
 * {@link ThreadTime#newThread} are scheduled too, starting at their starter's clock. Exactly one of them runs at a
 * time. A thread runs until it reaches a wait or a charge of time through {@link ThreadTime} (a check of a wait loop,
 * a park, CPU time charged, a post on the simulated fabric); there its clock moves on by that time, and the processor
 * goes to the thread with the earliest clock (among threads ready at the same time, one picked at random by the seed,
 * or the first ready: {@link VirtualTimeOptions#randomTies()}). The simulated fabric reads {@link ThreadTime#nanoTime()},
 * so a work request executes and completes at the virtual times its cost model gives. Since nothing runs beside the
 * running thread and every choice comes from the clocks and the seed, the same seed and the same code give the same
 * interleaving, history, operation counts and virtual times on any host, under any load, as long as the code makes no
 * choice of its own from the host (host clocks, unseeded randomness, identity hash codes, native addresses: open the
 * fabric with {@link SimOptions#withStraddleOffset(long)} so that registrations get simulated addresses).
 *
 * <p>What virtual time charges: a work request what the fabric's {@link SimCostModel} says; a check of a wait loop
 * ({@code ThreadTime.onSpinWait}, {@code ThreadTime.yield}) {@link VirtualTimeOptions#spinNanos()}; a post
 * {@link VirtualTimeOptions#postNanos()}; a park the time until it is woken or times out; other CPU work nothing unless
 * the code charges it ({@link ThreadTime#charge}). {@link VirtualTimeOptions#describeCpu()} says it in one line for a
 * report.
 *
 * <p>A run ends typed, never hanging: {@link VirtualTimeDeadlockException} when every thread waits and none has done
 * work for {@link VirtualTimeOptions#quietNanos()} of virtual time (it names each thread and what it waits for), and
 * {@link VirtualTimeBudgetException} when the clock passes the virtual budget or the run passes its host budget (a
 * thread blocked in the JDK outside {@link ThreadTime} holds the one running slot; the message names it and where it
 * is).
 *
 * <p>The threads of a run are Java virtual threads or platform threads, as {@link VirtualTimeOptions#carriers()} says
 * (virtual by default on JDK 24 or later): a switch from one to the next is then a continuation yield and resume, or
 * an OS context switch. A platform thread registers with the scheduler when it is started; a virtual thread's
 * {@code start()} cannot be overridden, so the running thread's next call into the scheduler registers, in the order
 * they were created, the threads it started since its last call. Both give the same queue, the same draws of the seed
 * and so the same run, except where a thread starts two or more threads in an order other than the one it created
 * them in, with no call into the scheduler ({@link ThreadTime}'s waits, charges, joins, unparks,
 * {@link ThreadTime#newThread}) between the starts: platform carriers register them in the order started, virtual
 * ones in the order created. Either order is deterministic.
 *
 * <p>Scheduled threads must wait only through {@link ThreadTime}; see there.
 */
public final class VirtualTimeScheduler {
    /** A run's body, run on its first scheduled thread. */
    @FunctionalInterface
    public interface Body {
        /**
         * Runs the body.
         *
         * @throws Exception any failure, rethrown by {@link #run}
         */
        void run() throws Exception;
    }

    /** Thrown into the threads of a run that ended early, so that they unwind. */
    static final class Aborted extends Error {
        private static final long serialVersionUID = 1L;

        Aborted() {
            super("the virtual-time run ended early", null, false, false);
        }
    }

    /** Carries a checked exception of the body out of its thread. */
    private static final class BodyFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BodyFailure(Exception cause) {
            super(cause);
        }
    }

    private static final Comparator<VirtualTimeTask> ORDER = Comparator.<VirtualTimeTask>comparingLong(t -> t.clock)
            .thenComparingLong(t -> t.tie).thenComparingLong(t -> t.sequence);

    private final VirtualTimeOptions options;
    private final SplittableRandom random;
    private final Object lock = new Object();
    private final PriorityQueue<VirtualTimeTask> ready = new PriorityQueue<>(ORDER);
    /** Started and not ended, in the order they started. */
    private final List<VirtualTimeTask> live = new ArrayList<>();
    /**
     * Virtual carriers: threads created and not yet registered, in the order they were created. A virtual thread's
     * {@code start()} cannot be overridden, so the running thread's next call into the scheduler registers those it
     * started ({@link #registerStarted}).
     */
    private final List<VirtualTimeTask> created = new ArrayList<>();
    /** Virtual carriers: every thread created, by its Java thread; looked up, never traversed. */
    private final Map<Thread, VirtualTimeTask> byThread = new IdentityHashMap<>();
    private VirtualTimeTask running;
    private long sequence;
    /** Work done anywhere: posts, charges, threads started, ended or woken. */
    private long work;
    /** The virtual time of the last work. */
    private long workNanos;
    private int waiting;
    private long switches;
    private int threads;
    private long endNanos;
    private Throwable failure;
    private volatile VirtualTimeException aborted;
    private boolean done;

    private VirtualTimeScheduler(VirtualTimeOptions options) {
        this.options = options;
        this.random = new SplittableRandom(options.seed());
    }

    /**
     * Runs {@code body} as the first thread of a virtual-time run and returns when every thread of the run ended.
     *
     * @param options the seed and knobs
     * @param body    the run's first thread: it builds the fabric, starts the other threads with
     *                {@link ThreadTime#newThread} and waits for them with {@link ThreadTime#join}
     * @return how the run went
     * @throws VirtualTimeDeadlockException when every thread waits on another (see the class)
     * @throws VirtualTimeBudgetException   when the run outlives its virtual or host budget
     * @throws BadArgumentException         when called on a scheduled thread
     * @throws RuntimeException             the first failure of a thread of the run, as thrown (an
     *                                      {@link Error} too), with a suppressed {@link RemusException} naming
     *                                      the seed; a checked exception of the body comes wrapped in a
     *                                      {@link RemusException}
     */
    public static VirtualTimeRun run(VirtualTimeOptions options, Body body) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(body, "body");
        if (ThreadTime.isScheduled()) {
            throw new BadArgumentException("a virtual-time run cannot start on a thread of another run ("
                    + Thread.currentThread().getName() + ")");
        }
        return new VirtualTimeScheduler(options).execute(body);
    }

    private VirtualTimeRun execute(Body body) {
        Runnable main = () -> {
            try {
                body.run();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new BodyFailure(e);
            }
        };
        VirtualTimeTask first = new VirtualTimeTask(this, 0);
        if (options.carriers() == Carriers.PLATFORM) {
            new VirtualTimeThread(first, main, "vt-main");
        } else {
            first.thread = Thread.ofVirtual().name("vt-main").unstarted(() -> first.runVirtual(main));
            first.attachThread();
        }
        synchronized (lock) {
            first.started = true;
            live.add(first);
            threads++;
            running = first;
            first.turn = true;
        }
        long hostStart = System.nanoTime();
        long hostBudget = options.hostBudget().toNanos();
        if (first.thread instanceof VirtualTimeThread platform) {
            platform.startFirst();
        } else {
            first.thread.start();
        }
        synchronized (lock) {
            while (!done) {
                long left = hostBudget - (System.nanoTime() - hostStart);
                if (left <= 0) {
                    abort(new VirtualTimeBudgetException("the run passed its host budget of " + options.hostBudget()
                            + " at virtual time " + (running == null ? endNanos : running.clock) + " ns",
                            options.seed(), waits()));
                    break;
                }
                try {
                    lock.wait(Math.max(1, Math.min(left / 1_000_000, 1_000)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    abort(new VirtualTimeBudgetException("the thread waiting for the run was interrupted",
                            options.seed(), waits()));
                    break;
                }
            }
        }
        if (aborted != null) {
            awaitUnwound(live());
            detachCreated();
            if (failure != null && !(failure instanceof Aborted)) {
                aborted.addSuppressed(failure);
            }
            throw aborted;
        }
        detachCreated();
        if (failure != null) {
            throw rethrown(failure);
        }
        return new VirtualTimeRun(options.seed(), endNanos, switches, threads);
    }

    /** Virtual carriers: forgets, for {@code ThreadTime.unpark}, the threads created and never started. */
    private void detachCreated() {
        synchronized (lock) {
            for (VirtualTimeTask t : created) {
                t.detachThread();
            }
        }
    }

    private List<VirtualTimeTask> live() {
        synchronized (lock) {
            return List.copyOf(live);
        }
    }

    /** Gives the threads of an aborted run a moment to unwind, so that they do not outlive it by much. */
    private static void awaitUnwound(List<VirtualTimeTask> tasks) {
        long end = System.nanoTime() + 5_000_000_000L;
        for (VirtualTimeTask task : tasks) {
            Thread t = task.thread;
            long left = end - System.nanoTime();
            if (left > 0) {
                try {
                    t.join(java.time.Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private RuntimeException rethrown(Throwable f) {
        if (f instanceof BodyFailure wrapped) {
            return new RemusException("the body of the virtual-time run with seed " + options.seed() + " failed: "
                    + wrapped.getCause(), wrapped.getCause());
        }
        f.addSuppressed(new RemusException("virtual-time run with seed " + options.seed()
                + ": VirtualTimeOptions.seed(" + options.seed() + ") with the same options replays it"));
        if (f instanceof Error error) {
            throw error;
        }
        return (RuntimeException) f;
    }

    // --- called by the scheduled threads -------------------------------------------------------------------------

    /** Platform carriers: registers a thread that a thread of this run starts, ready at its starter's clock. */
    void register(VirtualTimeTask t) {
        synchronized (lock) {
            VirtualTimeTask me = VirtualTimeTask.ofCurrentThread();
            if (me == null || me.scheduler != this || me != running) {
                throw new IllegalStateException("a thread of a virtual-time run is started by the running thread of "
                        + "that run, not by " + Thread.currentThread().getName());
            }
            if (t.started) {
                throw new IllegalThreadStateException(t.name() + " was already started");
            }
            checkAborted();
            registerAt(t, me);
        }
    }

    private void registerAt(VirtualTimeTask t, VirtualTimeTask me) {
        t.started = true;
        t.clock = me.clock;
        live.add(t);
        threads++;
        worked(me.clock);
        enqueue(t);
    }

    /**
     * Virtual carriers: registers, in the order they were created, the threads created and started since the running
     * thread {@code me}'s last call into the scheduler, ready at its clock, as {@link VirtualTimeThread#start()} does
     * for a platform thread. Every call of the running thread into the scheduler makes it first: nothing runs between a
     * {@code start()} and that call, so the queue and the seed's draws see the same as with platform carriers, as long
     * as threads started between two calls start in the order they were created. Guarded by the lock.
     */
    private void registerStarted(VirtualTimeTask me) {
        if (created.isEmpty() || aborted != null) {
            return;
        }
        for (int i = 0; i < created.size(); i++) {
            VirtualTimeTask t = created.get(i);
            if (t.thread.getState() != Thread.State.NEW) {
                created.remove(i--);
                registerAt(t, me);
            }
        }
    }

    /** Creates an unstarted thread of this run for {@code me}: platform or virtual, as the options' carriers. */
    Thread newThread(VirtualTimeTask me, String name, Runnable body) {
        VirtualTimeTask t = new VirtualTimeTask(this, me.clock);
        if (options.carriers() == Carriers.PLATFORM) {
            return new VirtualTimeThread(t, body, name);
        }
        t.thread = Thread.ofVirtual().name(name).unstarted(() -> t.runVirtual(body));
        t.attachThread();
        synchronized (lock) {
            if (me == running) {
                registerStarted(me);
            }
            created.add(t);
            byThread.put(t.thread, t);
        }
        return t.thread;
    }

    /** Blocks the calling thread until the processor is handed to it. */
    void awaitTurn(VirtualTimeTask me) {
        while (!me.turn) {
            LockSupport.park(this);
        }
        me.turn = false;
        checkAborted();
    }

    void spin(VirtualTimeTask me, String what) {
        long idle = me.idleUntil;
        me.idleUntil = 0;
        if (idle != 0 && idle != Long.MAX_VALUE && idle - me.clock > options.spinNanos()) {
            park(me, what == null ? "a completion" : what, idle - me.clock);
            return;
        }
        long step;
        synchronized (lock) {
            checkAborted();
            registerStarted(me);
            if (me.seenWork != work) {
                me.seenWork = work;
                me.quietChecks = 0;
            } else {
                me.quietChecks++;
            }
            step = options.spinNanos();
            if (me.quietChecks > VirtualTimeOptions.QUIET_CHECKS) {
                long doubling = Math.min(40, me.quietChecks - VirtualTimeOptions.QUIET_CHECKS);
                step = Math.max(step, Math.min(VirtualTimeOptions.MAX_QUIET_STEP_NANOS, step << doubling));
            }
            me.awaited = what;
            me.blocker = null;
            me.waiting = true;
            waiting++;
            checkQuiet(me);
        }
        try {
            yieldAt(me, me.clock + step);
        } finally {
            synchronized (lock) {
                me.waiting = false;
                waiting--;
            }
        }
    }

    void park(VirtualTimeTask me, Object what, long nanos) {
        me.idleUntil = 0;
        VirtualTimeTask next;
        synchronized (lock) {
            checkAborted();
            registerStarted(me);
            if (me.permit) {
                me.permit = false;
                return;
            }
            me.awaited = null;
            me.blocker = what;
            me.waiting = true;
            waiting++;
            me.parked = true;
            me.parkedAt = me.clock;
            checkQuiet(me);
            me.clock = saturatedAdd(me.clock, nanos);
            enqueue(me);
            next = ready.poll();
            next.queued = false;
            checkBudget(next);
            if (next != me) {
                handTo(next);
            } else {
                running = me;
            }
        }
        try {
            if (next != me) {
                awaitTurn(me);
            }
        } finally {
            synchronized (lock) {
                me.parked = false;
                me.waiting = false;
                waiting--;
            }
        }
    }

    void wake(VirtualTimeTask t) {
        VirtualTimeTask me = VirtualTimeTask.ofCurrentThread();
        synchronized (lock) {
            if (me != null && me == running) {
                registerStarted(me);
            }
            if (t.ended || !t.started) {
                t.permit = !t.ended;
                return;
            }
            if (t.parked && t.queued) {
                ready.remove(t);
                t.queued = false;
                long now = me != null && me.scheduler == this ? me.clock
                        : running != null ? running.clock : t.parkedAt;
                t.clock = Math.max(t.parkedAt, Math.min(t.clock, now));
                t.parked = false;
                enqueue(t);
                worked(now);
            } else {
                t.permit = true;
            }
        }
    }

    void charge(VirtualTimeTask me, long nanos) {
        me.idleUntil = 0;
        synchronized (lock) {
            checkAborted();
            registerStarted(me);
            worked(me.clock);
        }
        yieldAt(me, saturatedAdd(me.clock, nanos));
    }

    /** A CPU access of the node's own memory by {@code me}: {@link VirtualTimeOptions#spinNanos()} passes. */
    void localAccess(VirtualTimeTask me) {
        charge(me, options.spinNanos());
    }

    /** A post on the simulated fabric by {@code me}: work done, {@link VirtualTimeOptions#postNanos()} passes. */
    void posted(VirtualTimeTask me) {
        charge(me, options.postNanos());
    }

    boolean awaitEnd(VirtualTimeTask me, Thread other, long nanos) {
        long deadline = saturatedAdd(me.clock, nanos);
        VirtualTimeTask task = other instanceof VirtualTimeThread vt ? vt.task : null;
        if (task == null && other.isVirtual()) {
            synchronized (lock) {
                task = byThread.get(other);
            }
        }
        if (task != null && task.scheduler != this) {
            task = null;
        }
        while (true) {
            if (task != null) {
                synchronized (lock) {
                    registerStarted(me);
                    if (task.ended || !task.started) {
                        return task.ended;
                    }
                }
            } else if (!other.isAlive()) {
                return true;
            }
            if (me.clock - deadline >= 0) {
                return false;
            }
            if (task != null) {
                park(me, other, deadline - me.clock);
            } else {
                spin(me, "the end of host thread " + other.getName());
            }
        }
    }

    /** The thread's body returned or threw: it leaves the run, and the processor goes on. */
    void end(VirtualTimeTask me, Throwable thrown) {
        synchronized (lock) {
            if (me == running) {
                registerStarted(me);
            }
            me.ended = true;
            live.remove(me);
            if (me.queued) {
                ready.remove(me);
                me.queued = false;
            }
            if (thrown != null && failure == null && !(thrown instanceof Aborted)) {
                failure = thrown;
            }
            if (aborted != null) {
                releaseCreated();
                if (live.isEmpty()) {
                    lock.notifyAll();
                }
                return;
            }
            endNanos = Math.max(endNanos, me.clock);
            worked(me.clock);
            for (VirtualTimeTask t : List.copyOf(ready)) {
                if (t.parked && t.blocker == me.thread) {
                    wake(t);
                }
            }
            if (live.isEmpty()) {
                running = null;
                done = true;
                lock.notifyAll();
                return;
            }
            VirtualTimeTask next = ready.poll();
            next.queued = false;
            if (next.clock - options.virtualBudgetNanos() > 0) {
                abort(budgetPassed(next));
                return;
            }
            handTo(next);
        }
    }

    // --- the queue ---------------------------------------------------------------------------------------------

    /** Moves {@code me}'s clock to {@code clock} and lets the thread with the earliest clock run. */
    private void yieldAt(VirtualTimeTask me, long clock) {
        VirtualTimeTask next;
        synchronized (lock) {
            checkAborted();
            me.clock = clock;
            enqueue(me);
            next = ready.poll();
            next.queued = false;
            checkBudget(next);
            if (next == me) {
                running = me;
                return;
            }
            handTo(next);
        }
        awaitTurn(me);
    }

    private void enqueue(VirtualTimeTask t) {
        t.sequence = sequence++;
        t.tie = options.randomTies() ? random.nextLong() : 0;
        t.queued = true;
        ready.add(t);
    }

    private void handTo(VirtualTimeTask next) {
        running = next;
        switches++;
        next.turn = true;
        LockSupport.unpark(next.thread);
    }

    private void worked(long now) {
        work++;
        workNanos = Math.max(workNanos, now);
    }

    private void checkAborted() {
        if (aborted != null) {
            throw new Aborted();
        }
    }

    /** Ends the run when the thread picked to run next, {@code next}, is past the virtual-time budget. */
    private void checkBudget(VirtualTimeTask next) {
        if (next.clock - options.virtualBudgetNanos() > 0) {
            abort(budgetPassed(next));
            throw new Aborted();
        }
    }

    private VirtualTimeBudgetException budgetPassed(VirtualTimeTask next) {
        return new VirtualTimeBudgetException("thread " + next.name() + " passed the virtual-time budget of "
                + options.virtualBudgetNanos() + " ns", options.seed(), waits());
    }

    private void checkQuiet(VirtualTimeTask me) {
        if (waiting == live.size() && me.clock - workNanos > options.quietNanos()) {
            abort(new VirtualTimeDeadlockException("every thread has waited with no work done for "
                    + (me.clock - workNanos) + " ns of virtual time (quiet limit " + options.quietNanos() + " ns)",
                    options.seed(), waits()));
            throw new Aborted();
        }
    }

    private void abort(VirtualTimeException e) {
        if (aborted != null) {
            return;
        }
        aborted = e;
        done = true;
        lock.notifyAll();
        for (VirtualTimeTask t : live) {
            t.turn = true;
            LockSupport.unpark(t.thread);
        }
        releaseCreated();
    }

    /**
     * Virtual carriers, in an aborted run: lets threads created and never registered unwind at once when they start,
     * or now when they have started. Guarded by the lock.
     */
    private void releaseCreated() {
        for (VirtualTimeTask t : created) {
            t.turn = true;
            LockSupport.unpark(t.thread);
        }
    }

    /** Per live thread: its name, clock, and what it waits for or where it is. */
    private List<String> waits() {
        List<String> out = new ArrayList<>();
        for (VirtualTimeTask t : live) {
            StringBuilder line = new StringBuilder(t.name()).append(" at ").append(t.clock).append(" ns: ");
            if (t.awaited != null) {
                line.append("waits for ").append(t.awaited);
            } else if (t.blocker != null) {
                line.append("parked on ").append(t.blocker instanceof Thread th ? "the end of " + th.getName()
                        : t.blocker.getClass().getName());
            } else if (t == running) {
                line.append("running");
            } else {
                line.append(t.waiting ? "waits" : "ready");
            }
            StackTraceElement where = callerFrame(t.thread);
            if (where != null) {
                line.append(", in ").append(where);
            }
            out.add(line.toString());
        }
        return out;
    }

    /** The first frame of {@code t}'s stack outside the JDK, this package and {@link ThreadTime}. */
    private static StackTraceElement callerFrame(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            String c = e.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("io.remus.core.sim.")
                    && !c.startsWith("io.remus.core.time.")) {
                return e;
            }
        }
        return null;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? VirtualTimeOptions.MAX_NANOS : Math.min(sum, VirtualTimeOptions.MAX_NANOS);
    }

    /**
     * An empty completion-queue poll of the current thread, when it runs under a virtual-time scheduler: nothing it
     * polled changes before {@code nanos} ({@link Long#MAX_VALUE}: nothing is pending), so its next wait-loop check
     * parks until then instead of spinning; a delivery into the queue wakes it earlier. On a host thread it does
     * nothing.
     *
     * @param nanos the earliest time at which the poll could find something
     */
    static void idleUntil(long nanos) {
        VirtualTimeTask t = VirtualTimeTask.ofCurrentThread();
        if (t != null) {
            t.idleUntil = nanos;
        }
    }

    /**
     * Work done on the simulated fabric by the current thread, when it runs under a virtual-time scheduler: a post,
     * charged {@link VirtualTimeOptions#postNanos()}. On a host thread it does nothing.
     */
    static void onPost() {
        VirtualTimeTask t = VirtualTimeTask.ofCurrentThread();
        if (t != null) {
            t.scheduler.posted(t);
        }
    }
}
