package io.remus.bench.object;

import io.remus.bench.structure.KeyChooser;

import java.util.SplittableRandom;

/**
 * One worker's picks among {@code items} items homed round-robin ({@code i} on node {@code i % nodes}),
 * shared by {@link SharingExperiment} (counters) and {@link KvExperiment} (keys). Without {@code pLocal}
 * (NaN) it draws over all items, uniform or zipfian (Gray et al., SIGMOD 1994, through
 * {@link KeyChooser}); with it, first the home node as {@code remus bench lock} does (its own with
 * probability {@code pLocal}, else another at random), then an item among that node's by the same
 * distribution over one node's share. Not thread-safe: each worker has its own.
 */
final class HomePicker {
    private final int items;
    private final int nodes;
    private final double pLocal;
    private final int node;
    private final SplittableRandom rnd;
    private final KeyChooser chooser;

    /**
     * @param items  how many items
     * @param nodes  how many nodes
     * @param pLocal the fraction of picks on the worker's own node, or NaN for picks over all items
     * @param theta  0 for uniform picks, else the zipfian constant
     * @param zeta   {@link #zeta} of the same arguments
     * @param node   the worker's node
     * @param rnd    the worker's random source
     */
    HomePicker(int items, int nodes, double pLocal, double theta, double zeta, int node, SplittableRandom rnd) {
        this.items = items;
        this.nodes = nodes;
        this.pLocal = pLocal;
        this.node = node;
        this.rnd = rnd;
        this.chooser = new KeyChooser(rnd, 0, range(items, nodes, pLocal), theta, zeta);
    }

    /** {@return the zipfian normalisation the pickers of a run share, 0 for uniform picks} */
    static double zeta(int items, int nodes, double pLocal, double theta) {
        return theta > 0 ? KeyChooser.zeta(range(items, nodes, pLocal), theta) : 0;
    }

    /** {@return the ranks a chooser draws from: all items, or one node's share with pLocal} */
    private static long range(int items, int nodes, double pLocal) {
        return Double.isNaN(pLocal) ? items : (items + nodes - 1) / nodes;
    }

    /** {@return the next item, {@code 0..items-1}} */
    int next() {
        if (Double.isNaN(pLocal)) {
            return (int) chooser.next();
        }
        int n = nodes;
        int home = n == 1 || rnd.nextDouble() < pLocal ? node : (node + 1 + rnd.nextInt(n - 1)) % n;
        int perNode = (items - home + n - 1) / n;
        return (int) (home + (long) n * Math.floorMod(chooser.next(), perNode));
    }
}
