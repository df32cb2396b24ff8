package io.remus.ds.map;

import io.remus.core.ComputeThread;
import io.remus.core.sim.SimFabric;
import io.remus.core.testing.TestCluster;
import io.remus.ds.reclaim.NeverReclaimer;
import io.remus.ds.reclaim.Reclaimer;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The rule for nulls stated in the package documentation of {@code io.remus.ds.map}, over
 * {@link RemoteHashMap}'s and {@link TypedRemoteHashMap}'s factories and methods on the simulator: a {@link NullPointerException} naming the
 * parameter, before anything is done.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MapNullRuleTest {
    @Test
    void shouldThrowNullPointerNamingTheParameterWhenTheMapGetsNull() {
        try (TestCluster c = TestCluster.of(SimFabric::new); ComputeThread t = c.thread(0);
             NeverReclaimer reclaimer = new NeverReclaimer(t)) {
            Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
            samples.put(ComputeThread.class, t);
            samples.put(Reclaimer.class, reclaimer);
            samples.put(MemorySegment.class, MemorySegment.ofArray(new byte[8]));
            List<String> violations = new ArrayList<>(NullRule.checkStaticMethods(RemoteHashMap.class, samples, Set.of()));
            samples.put(byte[].class, new byte[8]);
            RemoteHashMap map = RemoteHashMap.create(t, reclaimer, 1, 4, 16);
            violations.addAll(NullRule.checkInstanceMethods(map, samples, Set.of()));
            samples.put(RemoteHashMap.class, map);
            samples.put(Codec.class, Codec.BYTES);
            samples.put(Object.class, new byte[8]);
            violations.addAll(NullRule.checkStaticMethods(TypedRemoteHashMap.class, samples, Set.of()));
            violations.addAll(NullRule.checkInstanceMethods(TypedRemoteHashMap.of(map, Codec.BYTES, Codec.BYTES), samples, Set.of()));
            assertEquals(List.of(), violations);
        }
    }
}
