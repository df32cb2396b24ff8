package io.remus.bench.perftest;

import io.remus.core.time.ThreadTime;
import io.remus.bench.stats.BandwidthSummary;
import io.remus.bench.stats.PeakRate;

import java.time.Duration;
import java.util.function.LongUnaryOperator;

/**
 * Bandwidth as perftest's {@code ib_*_bw} measure it: every QP keeps up to
 * {@link BenchSettings#inFlightPerQueuePair()} work requests posted, refilled as completions arrive,
 * and runs {@link BenchSettings#iterations()} of them (perftest's {@code -n} is per QP too). One work
 * request in {@link BenchSettings#cqModeration()} asks for a completion, and so does the last of each
 * QP's run; a completion stands for every request its QP posted since the previous one (an RC QP
 * completes in posting order), and its work request id says how many: the QP's index in the low 32
 * bits, the count in the high 32.
 * <p>
 * In iteration mode the warm-up runs first (and, the first time in a benchmark, until the JIT is
 * quiet), then the clock runs from the first measured post to the last completion. In duration mode
 * the warm-up is rehearsal rounds, short duration-mode runs (a 1 ms margin, a 10 ms window, a 1 ms
 * margin) until, the first time in a benchmark, the JIT is quiet; then the run: only completions
 * inside the margins count, over the window's length, and when the window closes each QP with
 * requests that will not ask for a completion gets one more that does, outside the window, so that
 * the run can wait for all of them.
 * <p>
 * Where requests go is perftest's too: each QP has its own part of either side's buffer
 * ({@link #queuePairRegion}), and while a message is at most half of {@link #CYCLE_BYTES}, each post
 * moves both its local and its remote address on by the message size rounded up to a cache line,
 * back to the part's start after a cycle of {@link #CYCLE_BYTES} (perftest's {@code cycle_buffer},
 * a page by default); a larger message always uses the part's start. It busy-polls, as
 * perftest does, and yields the CPU between polls only after 65,536 empty polls in a row (a stall of
 * milliseconds, when something else must run for the transfer to go on): in a Soft-RoCE guest
 * yielding after 64 empty polls cost throughput (docs/FINDINGS.md). With {@link BenchSettings#atomicWords()}
 * atomics instead go to that many words at the start of the server's buffer, shared by every QP, in turn: one word
 * measures a single word's atomic rate, 64 words what spreading them buys. Clocks and yields go through
 * {@link ThreadTime}: under the simulator's virtual-time scheduler every empty poll is one charged check of the
 * wait loop, no warm-up runs ({@link BenchSettings#warmsUp()}) and the figures are virtual time.
 */
public final class Bandwidth {
    private static final int SPIN_CHECKS = 1 << 16;
    /** The bytes a QP's addresses cycle through, as perftest's default {@code cycle_buffer} (a page). */
    static final int CYCLE_BYTES = 4096;
    /** What a message's size is rounded up to when its addresses move on, as perftest's cache-line size. */
    static final int CACHE_LINE = 64;
    /**
     * The system property that, when {@code true}, makes every run print how often it polled the
     * completion queue, how many of those polls were empty and how often it yielded (standard error):
     * how long the client waited on completions, for a profile of the loop; and how much JIT
     * compilation finished while it ran. Latency runs print their waits' empty checks and yields
     * ({@link TimedLoop}, warm-up included).
     */
    static final String POLL_STATS_PROPERTY = "remus.bench.pollStats";
    private static final boolean POLL_STATS = Boolean.getBoolean(POLL_STATS_PROPERTY);
    private Bandwidth() {
    }

    /**
     * Runs one message size.
     *
     * @param c        the client side
     * @param s        the settings
     * @param size     the message size
     * @param progress the progress line
     * @return the result
     */
    public static BandwidthSummary run(BenchConnection c, BenchSettings s, int size, ProgressLine progress) {
        return run(c, s, size, progress, new JitQuiet(ThreadTime.nanoTime(), s.jitWait()));
    }

    /** {@link #run(BenchConnection, BenchSettings, int, ProgressLine)} with the warm-up's JIT wait given (tests). */
    static BandwidthSummary run(BenchConnection c, BenchSettings s, int size, ProgressLine progress, JitQuiet jit) {
        progress.begin(s.test().commandName() + " " + size + " B", ThreadTime.nanoTime());
        if (s.warmsUp()) {
            warmUp(c, s, size, progress, jit);
        }
        // a duration-mode run waited for the JIT in its rehearsals: its margin ends on time, as theirs did
        RunClock clock = s.durationMode() ? RunClock.start(s, ThreadTime.nanoTime(), null) : RunClock.start(s, ThreadTime.nanoTime());
        PeakRate peak = peakRate(c, s);
        if (!clock.durationMode()) {
            WindowMarks.begin(); // a duration-mode clock marks the end of its leading margin
        }
        JitActivity jitDuring = POLL_STATS ? JitActivity.begin() : null;
        // an iteration-mode run passes no clock, as its warm-up does: see pump
        Pump run = pump(c, s, size, s.iterations(), clock.durationMode() ? clock : null, peak, progress);
        WindowMarks.end();
        progress.end();
        if (POLL_STATS) {
            System.err.println("remus bench: " + s.test().commandName() + " " + size + " B: " + run.posted
                    + " posted, " + run.polls + " polls (" + run.emptyPolls + " empty), " + run.yields + " yields, "
                    + jitDuring.note("run"));
        }
        long nanos = clock.durationMode() ? clock.windowNanos() : run.lastCompletion - clock.startNanos();
        return new BandwidthSummary(size, run.measured, nanos, peak.bestMessagesPerSecond());
    }

    /**
     * Runs the warm-up in rounds, then, in the benchmark's first warm-up ({@link BenchSettings#jitWait()}),
     * more rounds until the JIT is quiet, at least
     * {@link JitQuiet#C2_OPERATIONS} requests were posted and at least {@link JitQuiet#C2_INVOCATIONS}
     * polls found completions ({@link JitQuiet#quiet(long, long, long)}, at most
     * {@link JitQuiet#MOST_NANOS}), as the latency tests wait for a quiet JIT: a fixed warm-up left the
     * JIT compiling the data path inside the measured run, and in a Soft-RoCE guest that ran small
     * messages at a fifth of their rate (docs/FINDINGS.md). In iteration mode a round is the
     * warm-up's iterations. In duration mode it is a rehearsal ({@link RunClock#rehearsal}): a short
     * duration-mode run that crosses a margin, a window and its close, as the measured run will. A
     * warm-up that was the measured run's own leading margin never took the window's branches, the
     * JIT compiled them as traps, and the loop was recompiled when the window opened, inside it. The
     * rehearsals' windows are not marked ({@link WindowMarks#hold}). In iteration mode the warm-up that
     * waited in full for the benchmark ends with {@link #callTheLoopUntilC2} and a second wait for the JIT.
     */
    private static void warmUp(BenchConnection c, BenchSettings s, int size, ProgressLine progress, JitQuiet jit) {
        long[] pollsWithCompletions = {0};
        LongUnaryOperator round = postedSoFar -> {
            RunClock clock = s.durationMode() ? RunClock.rehearsal(ThreadTime.nanoTime()) : null;
            Pump p = pump(c, s, size, s.warmupIterations(), clock, peakRate(c, s), progress);
            pollsWithCompletions[0] += p.polls - p.emptyPolls;
            return p.posted;
        };
        jit.warmUpInRounds(0, s.durationMode(), round, () -> pollsWithCompletions[0]);
        if (jit.waitedForTheBenchmark() && !s.durationMode()) {
            callTheLoopUntilC2(c, s, size, progress);
            new JitQuiet(ThreadTime.nanoTime(), s.jitWait()).warmUpInRounds(0, false, round);
        }
    }

    /**
     * Runs {@link JitQuiet#C2_INVOCATIONS} runs of one request per QP. {@link #pump}, the loop around {@link Pump#step()}, starts
     * once per warm-up round and once per run, and its loop counts one back edge per poll: it reached C2's
     * threshold (calls and back edges together) only a few runs into {@code --repeat}, and C2 compiled it inside
     * a measured run, a third of a second of the client's vCPU in a Soft-RoCE guest (docs/FINDINGS.md,
     * "Poll path and run loop reach C2 in the warm-up"). Called at the end of the warm-up that waits in full for the benchmark, it reaches C2 by its calls
     * there instead; the warm-up then waits for the JIT again. Iteration mode only: duration mode's rounds are
     * rehearsals of a clock, too long to run thousands of. Like the JIT wait, it stops after
     * {@link JitQuiet#MOST_NANOS}: thousands of runs of a message of hundreds of MiB would otherwise not end.
     */
    private static void callTheLoopUntilC2(BenchConnection c, BenchSettings s, int size, ProgressLine progress) {
        long begin = ThreadTime.nanoTime();
        for (long i = 0; i < JitQuiet.C2_INVOCATIONS && ThreadTime.nanoTime() - begin < JitQuiet.MOST_NANOS; i++) {
            pump(c, s, size, 1, null, peakRate(c, s), progress);
        }
    }

    /**
     * @param wait   the benchmark's wait for a quiet JIT
     * @param margin the margin at each end of a duration-mode run
     * @return one line for a report's notes: how a duration-mode bandwidth run warms up
     */
    public static String describeDurationWarmUp(JitWait wait, Duration margin) {
        return "warm-up: rehearsal rounds of " + RunClock.describeRehearsal() + ", "
                + JitQuiet.untilQuiet(wait, "requests", true) + ", then the leading margin of " + margin.toMillis() / 1000.0
                + " s; the measured window is -D less both margins";
    }

    private static PeakRate peakRate(BenchConnection c, BenchSettings s) {
        return new PeakRate(c.queuePairs(), s.inFlightPerQueuePair());
    }

    /**
     * Posts and polls until the run is done. The warm-up and an iteration-mode run call it alike (no
     * clock), so that the code the JIT compiled during the warm-up is the code that runs measured: a
     * branch the warm-up never took (a clock where it had none) was compiled as a trap, and the first
     * measured loop iteration sent the method back to the interpreter and the JIT, inside the
     * measured window (docs/FINDINGS.md). The work is in {@link Pump#step()}, a method called once
     * per pass, which the JIT compiles as soon as it is hot; the loop around it starts anew each run,
     * interpreted, and holds nothing else: a run that entered one big loop method anew ran
     * interpreted until that method was compiled again, inside the window.
     *
     * @param iterations per QP; ignored in duration mode
     * @param clock      the run's clock in duration mode, null otherwise
     * @return the finished run: its measured completions, the time of the last one, and its posts,
     *         polls, empty polls and yields
     */
    private static Pump pump(BenchConnection c, BenchSettings s, int size, long iterations, RunClock clock,
                             PeakRate peak, ProgressLine progress) {
        Pump p = new Pump(c, s, size, iterations, clock, peak, progress);
        while (p.step()) {
            // the pass is the work
        }
        return p;
    }

    /** One run's state: what each QP has in flight and what has completed. */
    private static final class Pump {
        private final BenchConnection c;
        private final BenchSettings s;
        private final int size;
        private final long iterations;
        private final RunClock clock;
        private final PeakRate peak;
        private final ProgressLine progress;
        private final int qps;
        private final int depth;
        private final int moderation;
        private final int[] inFlight;
        private final int[] unsignaled;
        private final long[] postedOn;
        private final long[] ids;
        private final long region;
        private final long half;
        private final long increment;
        private final long cycle;
        private final long[] cursor;
        private final long timeout;
        private final boolean duration;
        private final long total;
        /** Whether it runs in virtual time ({@link ThreadTime#isScheduled()}): then every empty poll is one charged check. */
        private final boolean scheduled = ThreadTime.isScheduled();
        private final int words;
        private int wordCursor;
        private long posted;
        private long outstanding;
        private long measured;
        private long lastCompletion = ThreadTime.nanoTime();
        private int empty;
        private long polls;
        private long emptyPolls;
        private long yields;

        Pump(BenchConnection c, BenchSettings s, int size, long iterations, RunClock clock, PeakRate peak,
             ProgressLine progress) {
            this.c = c;
            this.s = s;
            this.size = size;
            this.iterations = iterations;
            this.clock = clock;
            this.peak = peak;
            this.progress = progress;
            this.qps = c.queuePairs();
            this.depth = s.inFlightPerQueuePair();
            this.moderation = s.cqModeration();
            this.inFlight = new int[qps];
            this.unsignaled = new int[qps];
            this.postedOn = new long[qps];
            this.ids = new long[c.completionCapacity()];
            this.region = queuePairRegion(c, size);
            this.half = c.bufferBytes() / 2;
            long cycleBytes = Math.min(CYCLE_BYTES, region);
            this.increment = cycleStep(size, cycleBytes);
            this.cycle = cycleLength(increment, cycleBytes);
            this.cursor = new long[qps];
            this.timeout = s.timeout().toNanos();
            this.duration = clock != null;
            this.total = iterations * qps;
            this.words = s.atomicWords();
        }

        /**
         * One pass: fills every QP up to its depth, then polls once.
         *
         * @return false when the run is done
         */
        boolean step() {
            long now = ThreadTime.nanoTime();
            boolean posting = duration ? clock.continues(0, now) : posted < total;
            if (!posting && outstanding == 0) {
                return false;
            }
            for (int q = 0; q < qps; q++) {
                while (posting && inFlight[q] < depth && (duration || postedOn[q] < iterations)) {
                    int covered = unsignaled[q] + 1;
                    boolean signaled = covered == moderation || (!duration && postedOn[q] + 1 == iterations);
                    peak.posted(q, now);
                    post(q, signaled ? ((long) covered << 32) | q : 0, signaled);
                    unsignaled[q] = signaled ? 0 : covered;
                    inFlight[q]++;
                    postedOn[q]++;
                    posted++;
                    outstanding++;
                }
                if (!posting && unsignaled[q] > 0 && inFlight[q] < depth) {
                    peak.posted(q, now); // the window closed: one more request, whose completion covers the tail
                    post(q, ((long) (unsignaled[q] + 1) << 32) | q, true);
                    unsignaled[q] = 0;
                    inFlight[q]++;
                    outstanding++;
                }
            }
            int n = c.poll(ids);
            polls++;
            if (n == 0) {
                emptyPolls++;
                if (++empty > SPIN_CHECKS || scheduled) {
                    ThreadTime.yield();
                    yields++;
                }
                if (now - lastCompletion > timeout) {
                    throw new BenchTimeoutException("no completion of " + s.test().operation().words() + " within "
                            + timeout / 1_000_000 + " ms");
                }
                return true;
            }
            empty = 0;
            long t = ThreadTime.nanoTime();
            lastCompletion = t;
            boolean measure = !duration || clock.inWindow(t);
            for (int k = 0; k < n; k++) {
                int q = (int) ids[k];
                int covered = (int) (ids[k] >>> 32);
                inFlight[q] -= covered;
                outstanding -= covered;
                peak.completed(q, covered, t, measure);
                if (measure) {
                    measured += covered;
                }
            }
            progress.tick(t, measured);
            return true;
        }

        /** @return the offset of the next of the {@link BenchSettings#atomicWords()} shared words, in posting order */
        private long nextWord() {
            long at = Long.BYTES * wordCursor;
            wordCursor = wordCursor + 1 == words ? 0 : wordCursor + 1;
            return at;
        }

        /** Posts one request of QP {@code q} at its cursor, then moves the cursor on. */
        private void post(int q, long wrId, boolean signaled) {
            long at = q * region + cursor[q];
            if (increment != 0) {
                long next = cursor[q] + increment;
                cursor[q] = next == cycle ? 0 : next;
            }
            switch (s.test().operation()) {
                case READ -> c.read(q, at, at, size, wrId, signaled);
                case WRITE -> c.write(q, half + at, at, size, wrId, signaled);
                case ATOMIC -> c.atomic(q, s.atomicType(), half + at, words == 0 ? at : nextWord(),
                        s.atomicType() == AtomicType.FETCH_AND_ADD ? 1 : 0, 0, wrId, signaled);
                case SEND -> c.send(q, half + at, size, wrId, signaled);
            }
        }
    }

    /**
     * Each QP's own part of either half of a side's buffer, as perftest gives each QP its own buffer:
     * QP {@code q} uses bytes {@code [q * part, (q + 1) * part)} of the lower half (READ's local and
     * remote data, WRITE's and atomics' remote targets) and of the upper half (what WRITEs and SENDs
     * send, where atomics' old values land).
     *
     * @param c    the connection
     * @param size the message size
     * @return the part's length in bytes, a multiple of {@link #CACHE_LINE}
     * @throws IllegalArgumentException if a part cannot hold one message (the buffer is too small)
     */
    static long queuePairRegion(BenchConnection c, int size) {
        long part = c.bufferBytes() / 2 / c.queuePairs() / CACHE_LINE * CACHE_LINE;
        long needs = Math.max(size, 8);
        if (part < needs) {
            throw new IllegalArgumentException("a buffer of " + c.bufferBytes() + " bytes gives each of "
                    + c.queuePairs() + " QPs " + part + " bytes in either half, less than a message of " + needs);
        }
        return part;
    }

    /**
     * @param maxSize    the largest message size of the run
     * @param queuePairs how many QPs
     * @return the buffer length each side needs for bandwidth runs: every QP's own part, in either half, holds
     *         the largest message and a whole {@link #CYCLE_BYTES} cycle
     */
    public static long bufferBytes(int maxSize, int queuePairs) {
        return bufferBytes(maxSize, queuePairs, false);
    }

    /**
     * @param maxSize        the largest message size of the run
     * @param queuePairs     how many QPs
     * @param cycledReceives whether receives cycle through the parts ({@link PostedReceives#cycling}, SEND
     *                       bandwidth): then every part holds a whole cycle more, so that a receive posted
     *                       anywhere in the cycle still has room for the largest message
     * @return the buffer length each side needs for bandwidth runs
     */
    public static long bufferBytes(int maxSize, int queuePairs, boolean cycledReceives) {
        long part = toCacheLines(Math.max(maxSize, CYCLE_BYTES)) + (cycledReceives ? CYCLE_BYTES : 0);
        return 2L * queuePairs * part;
    }

    /**
     * perftest's rule for how far a QP's addresses move on after each request ({@link PostedReceives} uses it
     * for receives too).
     *
     * @param size       the message size
     * @param cycleBytes the bytes the addresses cycle through
     * @return the message size rounded up to a cache line while it is at most half of {@code cycleBytes},
     *         else 0: a larger message stays at its part's start
     */
    static long cycleStep(int size, long cycleBytes) {
        return size <= cycleBytes / 2 ? Math.max(CACHE_LINE, toCacheLines(size)) : 0;
    }

    /**
     * @param step what {@link #cycleStep} gave
     * @param room the bytes a cycle may span
     * @return the cycle's length: the whole steps that fit in {@code room}, 0 when the addresses do not move
     */
    static long cycleLength(long step, long room) {
        return step == 0 ? 0 : room / step * step;
    }

    /** @return {@code bytes} rounded up to a whole number of {@link #CACHE_LINE}s */
    private static long toCacheLines(long bytes) {
        return (bytes + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
    }
}
