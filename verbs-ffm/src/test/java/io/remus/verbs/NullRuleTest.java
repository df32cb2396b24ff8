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

    @Test
    void shouldDetectAConstructorWhoseNullPointerNamesNoParameter() {
        List<String> violations = NullRule.checkConstructors(Careless.class, samples(), Set.of());
        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.get(0).contains("does not name the parameter"), violations.toString());
    }

    @Test
    void shouldDetectAnInstanceMethodThatAcceptsNullOrThrowsAnotherType() {
        List<String> violations = NullRule.checkInstanceMethods(new Careless("x"), samples(), Set.of());
        assertEquals(2, violations.size(), violations.toString());
        assertTrue(violations.stream().anyMatch(v -> v.contains("lenient parameter 0: accepted null")), violations.toString());
        assertTrue(violations.stream().anyMatch(v -> v.contains("typed parameter 0: threw java.lang.IllegalArgumentException")),
                violations.toString());
    }

    @Test
    void shouldAcceptAnInstanceMethodThatNamesItsParameterOrIsDocumentedNullable() {
        assertEquals(List.of(), NullRule.checkInstanceMethods(new Careless("x"), samples(), Set.of("lenient#0", "typed#0")));
    }

    /** A class that breaks the rule in each way the checks look for. */
    public static final class Careless {
        private final String name;

        /** @param name dereferenced without a check */
        public Careless(String name) {
            this.name = name.trim();
        }

        /** @param other ignored: null is accepted */
        public void lenient(String other) {
        }

        /** @param other null is a typed error instead of a NullPointerException */
        public void typed(String other) {
            if (other == null) {
                throw new IllegalArgumentException("other is null");
            }
        }

        /** @param other checked as the rule says */
        public void strict(String other) {
            java.util.Objects.requireNonNull(other, "other");
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
