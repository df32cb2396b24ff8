package io.remus.bench.engines;

import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemusException;
import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimOptions;
import io.remus.core.sim.VirtualTimeOptions;
import io.remus.core.sim.VirtualTimeScheduler;

import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * The clock that a lock benchmark run on the simulator measures with: the host's (wall clock), or the
 * simulator's virtual time ({@link VirtualTimeScheduler}), in which every thread of a run (the run's own,
 * which builds the nodes and times the duration, and its workers) takes turns by virtual clock, RDMA
 * costs are the cost model's and a wait loop's checks are charged as {@link VirtualTimeOptions#withCpu}
 * says. In virtual time the figures depend only on the model, the code and the seed, never on the host:
 * a run's duration, throughput and latencies are virtual time, and the same seed gives the same counts.
 */
public final class SimTime {
    /** The host's clock: runs start on the calling thread, figures are wall clock. */
    public static final SimTime HOST = new SimTime(null, null);

    private final SimCostModel model;
    private final VirtualTimeOptions options;

    private SimTime(SimCostModel model, VirtualTimeOptions options) {
        this.model = model;
        this.options = options;
    }

    /**
     * Virtual time under {@code model}, the scheduler's ties broken by {@code seed}.
     *
     * @param model the simulator's cost model; it also gives the CPU time of a wait loop's check
     * @param seed  the scheduler's seed
     * @return the clock
     * @throws BadArgumentException when {@code model} charges nothing ({@link SimCostModel#isFree()}): with
     *                              no time per operation a worker's virtual clock would barely move
     */
    public static SimTime virtual(SimCostModel model, long seed) {
        Objects.requireNonNull(model, "model");
        if (model.isFree()) {
            throw new BadArgumentException("virtual time needs a cost model that charges time, got model "
                    + model.name());
        }
        return new SimTime(model, VirtualTimeOptions.seed(seed).withCpu(model));
    }

    /** {@return whether runs are in virtual time} */
    public boolean isVirtual() {
        return options != null;
    }

    /**
     * {@return how figures are timed, for a report: {@code "virtual time, model connectx5, CPU charged as
     *          model: ..., seed 1"}, or null for the host's wall clock}
     */
    public String label() {
        return options == null ? null
                : "virtual time, model " + model.name() + ", " + options.describeCpu() + ", seed " + options.seed();
    }

    /**
     * @param sim the simulator's options
     * @return them, in virtual time with simulated addresses ({@link SimOptions#withStraddleOffset(long)} 0) so
     *         that no native address decides anything
     */
    public SimOptions simOptions(SimOptions sim) {
        return options == null ? sim : sim.withStraddleOffset(0);
    }

    /**
     * Runs {@code body}: on the calling thread, or in virtual time as the first thread of a
     * {@link VirtualTimeScheduler#run}, which returns once every thread {@code body} started has ended.
     *
     * @param body what to run: in virtual time it builds the fabric and nodes itself and starts its threads
     *             with {@link io.remus.core.time.ThreadTime#newThread}
     * @param <T>  its result
     * @return its result
     * @throws InterruptedException when interrupted (host only)
     * @throws RuntimeException     what {@code body} or the scheduler throws ({@link VirtualTimeScheduler#run}),
     *                              a checked exception of {@code body} wrapped
     */
    public <T> T call(Callable<T> body) throws InterruptedException {
        Objects.requireNonNull(body, "body");
        if (options == null) {
            try {
                return body.call();
            } catch (InterruptedException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new RemusException("a simulated run failed: " + e, e);
            }
        }
        Object[] result = new Object[1];
        VirtualTimeScheduler.run(options, () -> result[0] = body.call());
        @SuppressWarnings("unchecked")
        T value = (T) result[0];
        return value;
    }
}
