package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.Objects;

/**
 * Knobs of a run on the {@link VirtualTimeScheduler}.
 *
 * @param seed               decides the order of threads ready at the same virtual time (with {@code randomTies}); the
 *                           same seed and the same code give the same interleaving
 * @param randomTies         among threads ready at the same virtual time, pick one at random by the seed; without,
 *                           the one that became ready first
 * @param spinNanos          the CPU time of one access of local memory: a CPU load, store or atomic of the node's own
 *                           memory ({@code ThreadTime.onLocalAccess}) or one unsuccessful check in a wait loop (a load
 *                           or a completion-queue poll, {@code ThreadTime.onSpinWait}/{@code yield}): the cost model's
 *                           {@link SimCostModel#localAccessNanos()} by {@link #withCpu}
 * @param postNanos          the CPU time of posting work requests (one doorbell), charged per post on the simulated
 *                           fabric
 * @param quietNanos         how long in virtual time every thread may wait with no work done anywhere (no post, no
 *                           thread started or ended, no CPU time charged) before the run ends with a
 *                           {@link io.remus.core.error.VirtualTimeDeadlockException}; a wait loop's checks stay
 *                           {@code spinNanos} apart for the first {@link #QUIET_CHECKS} quiet checks and then double
 *                           up to {@link #MAX_QUIET_STEP_NANOS}, so that a long quiet wait costs little host time
 * @param virtualBudgetNanos the latest virtual time a run may reach
 * @param hostBudget         the longest host time a run may take, and the longest one thread may run (or block outside
 *                           the scheduler) without reaching a wait
 * @param carriers           what the run's threads are, platform or virtual threads: host time only, the same seed
 *                           gives the same run with either ({@link #withCarriers})
 */
public record VirtualTimeOptions(long seed, boolean randomTies, long spinNanos, long postNanos, long quietNanos,
                                 long virtualBudgetNanos, Duration hostBudget, Carriers carriers) {
    /** Quiet checks of one thread after which its wait loop's checks space out. */
    public static final int QUIET_CHECKS = 10_000;

    /** The widest spacing of a quiet wait loop's checks: 1 ms of virtual time. */
    public static final long MAX_QUIET_STEP_NANOS = 1_000_000;

    /** The most nanoseconds any virtual-time figure takes: about 292 years, so that sums cannot overflow. */
    static final long MAX_NANOS = Long.MAX_VALUE / 2;

    /**
     * Validates the knobs.
     *
     * @throws NullPointerException when {@code hostBudget} or {@code carriers} is null
     * @throws BadArgumentException naming the value when {@code spinNanos} or {@code quietNanos} is not positive,
     *                              {@code postNanos} is negative, the virtual budget is not positive, the host
     *                              budget is not positive, or {@code carriers} is {@link Carriers#VIRTUAL} on a JDK
     *                              before 24
     */
    public VirtualTimeOptions {
        Objects.requireNonNull(hostBudget, "hostBudget");
        Objects.requireNonNull(carriers, "carriers");
        if (carriers == Carriers.VIRTUAL && !Carriers.virtualAllowed()) {
            throw new BadArgumentException("carriers VIRTUAL need JDK " + Carriers.VIRTUAL_SINCE_JDK
                    + " or later (before it a wait inside synchronized pins a carrier), this is JDK "
                    + Runtime.version().feature() + "; use PLATFORM");
        }
        if (spinNanos <= 0 || spinNanos > MAX_NANOS) {
            throw new BadArgumentException("spinNanos must be 1.." + MAX_NANOS + ", got " + spinNanos);
        }
        if (postNanos < 0 || postNanos > MAX_NANOS) {
            throw new BadArgumentException("postNanos must be 0.." + MAX_NANOS + ", got " + postNanos);
        }
        if (quietNanos <= 0 || quietNanos > MAX_NANOS) {
            throw new BadArgumentException("quietNanos must be 1.." + MAX_NANOS + ", got " + quietNanos);
        }
        if (virtualBudgetNanos <= 0 || virtualBudgetNanos > MAX_NANOS) {
            throw new BadArgumentException("virtualBudgetNanos must be 1.." + MAX_NANOS + ", got " + virtualBudgetNanos);
        }
        if (hostBudget.isNegative() || hostBudget.isZero()) {
            throw new BadArgumentException("hostBudget must be positive, got " + hostBudget);
        }
    }

    /**
     * The knobs with the carriers of {@link Carriers#defaults()}.
     *
     * @param seed               see the record
     * @param randomTies         see the record
     * @param spinNanos          see the record
     * @param postNanos          see the record
     * @param quietNanos         see the record
     * @param virtualBudgetNanos see the record
     * @param hostBudget         see the record
     * @throws BadArgumentException as the canonical constructor
     */
    public VirtualTimeOptions(long seed, boolean randomTies, long spinNanos, long postNanos, long quietNanos,
                              long virtualBudgetNanos, Duration hostBudget) {
        this(seed, randomTies, spinNanos, postNanos, quietNanos, virtualBudgetNanos, hostBudget, Carriers.defaults());
    }

    /**
     * {@return the defaults for {@code seed}: random ties, 100 ns per check, no post cost, 30 s quiet limit, 600 s
     *          virtual budget, 300 s host budget, the carriers of {@link Carriers#defaults()} (virtual threads on JDK
     *          24 or later)}
     *
     * @param seed the run's seed
     */
    public static VirtualTimeOptions seed(long seed) {
        return new VirtualTimeOptions(seed, true, 100, 0, 30_000_000_000L, 600_000_000_000L, Duration.ofSeconds(300),
                Carriers.defaults());
    }

    /**
     * Charges CPU time as {@code model} states it: one check of a wait loop costs its
     * {@link SimCostModel#localAccessNanos()} (1 ns when the model states none).
     *
     * @param model a cost model
     * @return a copy with it
     */
    public VirtualTimeOptions withCpu(SimCostModel model) {
        Objects.requireNonNull(model, "model");
        return withSpinNanos(Math.max(1, model.localAccessNanos()));
    }

    /**
     * Sets the seed.
     *
     * @param value the seed
     * @return a copy with it
     */
    public VirtualTimeOptions withSeed(long value) {
        return new VirtualTimeOptions(value, randomTies, spinNanos, postNanos, quietNanos, virtualBudgetNanos,
                hostBudget, carriers);
    }

    /**
     * Chooses whether ties are broken at random.
     *
     * @param value whether ties are broken at random by the seed
     * @return a copy with it
     */
    public VirtualTimeOptions withRandomTies(boolean value) {
        return new VirtualTimeOptions(seed, value, spinNanos, postNanos, quietNanos, virtualBudgetNanos, hostBudget,
                carriers);
    }

    /**
     * Sets the CPU time of one check of a wait loop.
     *
     * @param value the CPU time of one check of a wait loop
     * @return a copy with it
     */
    public VirtualTimeOptions withSpinNanos(long value) {
        return new VirtualTimeOptions(seed, randomTies, value, postNanos, quietNanos, virtualBudgetNanos, hostBudget,
                carriers);
    }

    /**
     * Sets the CPU time of one post.
     *
     * @param value the CPU time of one post
     * @return a copy with it
     */
    public VirtualTimeOptions withPostNanos(long value) {
        return new VirtualTimeOptions(seed, randomTies, spinNanos, value, quietNanos, virtualBudgetNanos, hostBudget,
                carriers);
    }

    /**
     * Sets the quiet limit.
     *
     * @param value the quiet limit in virtual nanoseconds
     * @return a copy with it
     */
    public VirtualTimeOptions withQuietNanos(long value) {
        return new VirtualTimeOptions(seed, randomTies, spinNanos, postNanos, value, virtualBudgetNanos, hostBudget,
                carriers);
    }

    /**
     * Sets the virtual-time budget.
     *
     * @param value the virtual-time budget in nanoseconds
     * @return a copy with it
     */
    public VirtualTimeOptions withVirtualBudgetNanos(long value) {
        return new VirtualTimeOptions(seed, randomTies, spinNanos, postNanos, quietNanos, value, hostBudget,
                carriers);
    }

    /**
     * Sets the host-time budget.
     *
     * @param value the host-time budget
     * @return a copy with it
     */
    public VirtualTimeOptions withHostBudget(Duration value) {
        return new VirtualTimeOptions(seed, randomTies, spinNanos, postNanos, quietNanos, virtualBudgetNanos, value,
                carriers);
    }

    /**
     * Chooses what the run's threads are. {@link Carriers#VIRTUAL} (the default on JDK 24 or later) makes a switch
     * between threads a continuation yield instead of an OS context switch, several times cheaper in host time;
     * {@link Carriers#PLATFORM} runs each thread on a platform thread. Either gives the same run for the same seed.
     * {@link Carriers#VIRTUAL} is refused before JDK 24, where a wait inside {@code synchronized} pins a carrier.
     *
     * @param value the carriers
     * @return a copy with them
     * @throws BadArgumentException when {@code value} is {@link Carriers#VIRTUAL} on a JDK before 24
     */
    public VirtualTimeOptions withCarriers(Carriers value) {
        return new VirtualTimeOptions(seed, randomTies, spinNanos, postNanos, quietNanos, virtualBudgetNanos,
                hostBudget, value);
    }

    /**
     * {@return how CPU time is charged, in one line for a report: "CPU charged as model: 100 ns per local access or
     *          wait-loop check, 0 ns per post"}
     */
    public String describeCpu() {
        return "CPU charged as model: " + spinNanos + " ns per local access or wait-loop check, " + postNanos
                + " ns per post";
    }
}
