package io.remus.core.testing;

import io.remus.core.sim.SimCostModel;

import java.util.List;

/**
 * The published figures each named {@link SimCostModel} is calibrated to, as its Javadoc cites them (remus-core's
 * {@code SimCostModelCalibrationTest} checks them on the fabric, bench-engines' {@code MicrobenchCalibrationVirtualTimeTest}
 * through the {@code remus bench} engines); {@code NaN}
 * where no source gives the figure and the model states none.
 *
 * @param model                  the preset
 * @param readNanos              an 8-byte READ's round trip
 * @param atomicNanos            a FETCH_AND_ADD's round trip with nothing else on its word
 * @param oneWordAtomicsPerSec   FETCH_AND_ADD on one word, per second, with many clients
 * @param manyWordAtomicsPerSec  FETCH_AND_ADD spread over enough words of one node that no word's unit limits it, per
 *                               second, with many clients ({@code Infinity}: the NIC sets no limit)
 * @param read4kGigabitsPerSec   a window of 4 KiB READs to one node, Gb/s
 * @param readsPerSec            8-byte READs to one node from many clients, per second: the NIC's message rate
 */
public record PublishedFigures(SimCostModel model, double readNanos, double atomicNanos, double oneWordAtomicsPerSec,
                        double manyWordAtomicsPerSec, double read4kGigabitsPerSec, double readsPerSec) {
    /** How far a model may lie from its figures. */
    public static final double TOLERANCE = 0.10;

    /**
     * ConnectX-3: READ about 2 us (HERD, FaSST); atomic round trip an assumption (READ plus one atomic unit);
     * 2.7 Mops on one word and across many (efficient/rdma_bench atomics-sequencer); 56 Gb/s FDR; 26 million inbound
     * READs per second (HERD).
     */
    public static final PublishedFigures CONNECTX3 = new PublishedFigures(SimCostModel.CONNECTX3, 2_000, 2_370, 2.7e6, 2.7e6, 56,
            26e6);

    /**
     * ConnectX-5: its own stated round numbers (2 us, 2.5 us, one atomic per 2.5 us per word); no NIC rate, so neither
     * a limit across words nor a shared link (its 100 Gb/s only adds each transfer to its own request).
     */
    public static final PublishedFigures CONNECTX5 = new PublishedFigures(SimCostModel.CONNECTX5, 2_000, 2_500, 0.4e6,
            Double.POSITIVE_INFINITY, Double.NaN, Double.NaN);

    /**
     * ConnectX-6: READ 2 x the product brief's 0.8 us; atomics assumed as ConnectX-3 on one word; 215 million
     * messages per second and 200 Gb/s from the product brief.
     */
    public static final PublishedFigures CONNECTX6 = new PublishedFigures(SimCostModel.CONNECTX6, 1_600, 1_970, 2.7e6, 215e6, 200,
            215e6);

    /** Every calibrated preset. */
    public static final List<PublishedFigures> ALL = List.of(CONNECTX3, CONNECTX5, CONNECTX6);

    /** {@return FETCH_AND_ADDs per second over {@code words} words: the NIC's rate or the words' units, the lesser} */
    public double atomicsPerSecondOn(int words) {
        return Math.min(manyWordAtomicsPerSec, words * oneWordAtomicsPerSec);
    }

    /**
     * Whether {@code measured} lies within {@link #TOLERANCE} of {@code published}.
     *
     * @return a message naming both when not, null when it does
     */
    public static String offBy(double published, double measured, String what) {
        System.out.printf("%s: %.4g (published %.4g)%n", what, measured, published);
        return Math.abs(measured - published) <= TOLERANCE * published ? null
                : what + ": " + measured + " against the published " + published;
    }

    @Override
    public String toString() {
        return model.name();
    }
}
