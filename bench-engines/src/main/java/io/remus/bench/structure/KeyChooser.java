package io.remus.bench.structure;

import java.util.SplittableRandom;

/**
 * Picks the keys of one worker: uniform over {@code lb..lb+n-1}, or zipfian with constant {@code theta}
 * after J. Gray, P. Sundaresan, S. Englert, K. Baclawski, P. J. Weinberger, "Quickly Generating
 * Billion-Record Synthetic Databases" (SIGMOD 1994), the generator YCSB uses: rank {@code r} (0 the most
 * popular) has probability proportional to {@code 1/(r+1)^theta}; ranks are spread over the range by a
 * hash, as YCSB's scrambled zipfian does, so the popular keys are not neighbours. Setup costs one pass
 * over the ranks (the zeta constant); each pick is constant time. Confined to one thread. Public for the
 * other engines that pick keys the same way ({@code io.remus.bench.object.SharingExperiment}).
 */
public final class KeyChooser {
    private final SplittableRandom rnd;
    private final long lb;
    private final long n;
    private final double theta;
    private final double zetaN;
    private final double alpha;
    private final double eta;
    private final double half;

    /**
     * @param rnd   the worker's random source
     * @param lb    the smallest key
     * @param n     how many keys, at least 1
     * @param theta 0 for uniform, else in (0, 1)
     * @param zetaN {@link #zeta}{@code (n, theta)} when {@code theta > 0} (computed once per run)
     */
    public KeyChooser(SplittableRandom rnd, long lb, long n, double theta, double zetaN) {
        this.rnd = rnd;
        this.lb = lb;
        this.n = n;
        this.theta = theta;
        this.zetaN = zetaN;
        this.alpha = theta > 0 ? 1 / (1 - theta) : 0;
        double zeta2 = 1 + Math.pow(0.5, theta);
        this.eta = theta > 0 && n > 2 ? (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetaN) : 0;
        this.half = Math.pow(0.5, theta);
    }

    /**
     * @param n     ranks
     * @param theta the constant
     * @return {@code sum over i=1..n of 1/i^theta}
     */
    public static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1 / Math.pow(i, theta);
        }
        return sum;
    }

    /** {@return a key of the range} */
    public long next() {
        if (theta == 0) {
            return lb + rnd.nextLong(n);
        }
        return lb + Math.floorMod(mix(rank()), n);
    }

    /** {@return a zipfian rank in {@code 0..n-1}, 0 the most likely} */
    public long rank() {
        if (theta == 0) {
            return rnd.nextLong(n);
        }
        double u = rnd.nextDouble();
        double uz = u * zetaN;
        if (uz < 1 || n == 1) {
            return 0;
        }
        if (uz < 1 + half || n == 2) {
            return 1;
        }
        return Math.min(n - 1, (long) (n * Math.pow(eta * u - eta + 1, alpha)));
    }

    /**
     * {@return a uniform draw in {@code 0..99} from the same source: the benchmarks draw it before each key to
     *          choose the operation ({@link Ycsb#operation})}
     */
    public int percent() {
        return rnd.nextInt(100);
    }

    private static long mix(long x) {
        x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
        x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return x ^ (x >>> 33);
    }
}
