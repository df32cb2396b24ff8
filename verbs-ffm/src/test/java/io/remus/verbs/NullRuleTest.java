package io.remus.verbs;

import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The package's rule for nulls (see the package documentation), over every public record and builder. */
class NullRuleTest {
    private static Map<Class<?>, Object> samples() {
        Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
        samples.put(Gid.class, Gid.ZERO);
        samples.put(Endpoint.class, new Endpoint(1, 1, 0, Gid.ZERO));
        return samples;
    }

    @Test
    void shouldThrowNullPointerNamingTheComponentWhenARecordGetsNull() {
        List<Class<?>> records = NullRule.publicRecords(Device.class, Set.of("io.remus.verbs"));
        assertTrue(records.size() >= 8, "found only " + records);
        assertTrue(records.contains(Endpoint.class) && records.contains(DeviceInfo.class), records.toString());
        List<String> violations = new ArrayList<>();
        for (Class<?> record : records) {
            violations.addAll(NullRule.checkRecord(record, samples(), Set.of("ConnectionOptions.pathMtu")));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldThrowNullPointerNamingTheSetterWhenABuilderGetsNull() {
        assertEquals(List.of(), NullRule.checkBuilder(new QueuePairBuilder(null), Set.of("sharedReceiveQueue")));
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenAFactoryGetsNull() {
        List<String> violations = new ArrayList<>();
        for (Class<?> type : List.of(Gid.class, Endpoint.class, RemoteRegion.class, Mtu.class, Access.class)) {
            violations.addAll(NullRule.checkStaticMethods(type, samples(), Set.of()));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldDetectARecordThatAcceptsNull() {
        record Loose(String name) {
        }
        List<String> violations = NullRule.checkRecord(Loose.class, samples(), Set.of());
        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.get(0).contains("accepted null"), violations.toString());
    }

    @Test
    void shouldDetectAHelpfulNullPointerMessageThatNamesNoParameter() {
        record Careless(String name) {
            Careless {
                name.length();
            }
        }
        List<String> violations = NullRule.checkRecord(Careless.class, samples(), Set.of());
        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.get(0).contains("expected 'name'"), violations.toString());
    }
}
