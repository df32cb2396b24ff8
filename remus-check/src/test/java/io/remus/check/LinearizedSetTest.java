package io.remus.check;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LinearizedSetTest {
    @Test
    void shouldMatchABitSetWhateverTheInsertionOrder() {
        for (int seed = 0; seed < 50; seed++) {
            Random rnd = new Random(seed);
            int n = 300;
            int[] pendingOrdinal = new int[n];
            int pendingCount = 0;
            for (int i = 0; i < n; i++) {
                pendingOrdinal[i] = rnd.nextInt(10) == 0 ? pendingCount++ : -1;
            }
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                order.add(i);
            }
            // Mostly ascending with local shuffles and some long jumps, as a search adds operations.
            for (int i = 0; i < n; i++) {
                int j = Math.min(n - 1, i + rnd.nextInt(rnd.nextInt(8) == 0 ? 150 : 5));
                Collections.swap(order, i, j);
            }
            LinearizedSet s = LinearizedSet.empty(pendingOrdinal);
            BitSet model = new BitSet();
            for (int k = 0; k < n; k++) {
                s = s.with(order.get(k), pendingOrdinal);
                model.set(order.get(k));
                for (int i = 0; i < n; i++) {
                    assertEquals(model.get(i), s.contains(i, pendingOrdinal), "seed " + seed + " step " + k + " op " + i);
                }
                int firstCompletedOut = 0;
                while (firstCompletedOut < n && (model.get(firstCompletedOut) || pendingOrdinal[firstCompletedOut] >= 0)) {
                    firstCompletedOut++;
                }
                assertEquals(firstCompletedOut, s.first(), "seed " + seed + " step " + k);
                LinearizedSet rebuilt = LinearizedSet.empty(pendingOrdinal);
                for (int i = model.nextSetBit(0); i >= 0; i = model.nextSetBit(i + 1)) {
                    rebuilt = rebuilt.with(i, pendingOrdinal);
                }
                assertEquals(rebuilt, s, "seed " + seed + " step " + k + ": equal sets must be equal");
                assertEquals(rebuilt.hashCode(), s.hashCode());
            }
        }
    }
}
