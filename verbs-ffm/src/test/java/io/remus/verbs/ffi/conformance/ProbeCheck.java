package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * One check of the C probe: C expressions whose values the probe prints, and the comparison
 * of those values with the Java declaration.
 */
public interface ProbeCheck {

    /** @return what is checked, e.g. {@code ibv_sge.lkey}; gcc errors are reported under it */
    String label();

    /** @return C expressions, each printed by the probe as a {@code long long} */
    List<String> cExpressions();

    /**
     * @param cValues the values of {@link #cExpressions()}, in order
     * @return one line per mismatch, each naming {@link #label()}; empty when all agree
     */
    List<String> mismatches(long[] cValues);
}
