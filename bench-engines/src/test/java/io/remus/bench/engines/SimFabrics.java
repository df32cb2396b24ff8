package io.remus.bench.engines;

import io.remus.core.sim.SimCostModel;
import io.remus.core.sim.SimFabric;
import io.remus.core.sim.SimOptions;

/** The simulator fabric the engines' virtual-time tests run on. */
public final class SimFabrics {
    private SimFabrics() {
    }

    /**
     * {@return a new simulator fabric on the ConnectX-5 cost model, its threads timed as {@code time} says}
     *
     * @param time the host's clock, or virtual time on a scheduler of its own
     */
    public static SimFabric connectx5(SimTime time) {
        return new SimFabric(time.simOptions(SimOptions.defaults().withCostModel(SimCostModel.CONNECTX5)));
    }
}
