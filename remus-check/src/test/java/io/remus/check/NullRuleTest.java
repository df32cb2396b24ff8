package io.remus.check;

import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.MaxRegisterSpec;
import io.remus.check.spec.QueueSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.check.spec.SetSpec;
import io.remus.verbs.testing.NullRule;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule for nulls stated in the package documentation of {@code io.remus.check}, over the
 * public API of {@code io.remus.check} and {@code io.remus.check.spec}: a
 * {@link NullPointerException} naming the parameter, before anything is done.
 */
class NullRuleTest {
    private static final Operation OPERATION = new Operation(0, 0, 0, CounterSpec.READ, new long[0], new long[] {0},
            0, 1);

    private static Map<Class<?>, Object> samples() {
        Map<Class<?>, Object> samples = new HashMap<>(NullRule.jdkSamples());
        samples.put(Operation.class, OPERATION);
        samples.put(Budget.class, Budget.of(Duration.ofSeconds(1)));
        samples.put(ClockOffset.class, ClockOffset.ZERO);
        samples.put(History.class, new History(HistoryClock.NANO_TIME));
        samples.put(Specification.class, new CounterSpec());
        samples.put(Path.class, Path.of("/nonexistent/remus-null-rule"));
        for (Specification<?> spec : List.of(new CounterSpec(), new QueueSpec(), new RegisterSpec(1), new SetSpec())) {
            Object state = spec.initialState();
            samples.put(state.getClass(), state);
        }
        samples.put(CheckResult.class, new CheckResult(Verdict.LINEARIZABLE, 0, 0, List.of(), "x"));
        return samples;
    }

    @Test
    void shouldThrowNullPointerNamingTheComponentWhenARecordGetsNull() {
        List<Class<?>> records = NullRule.publicRecords(Operation.class, Set.of("io.remus.check", "io.remus.check.spec"));
        assertTrue(records.contains(Operation.class) && records.contains(Budget.class), records.toString());
        Map<Class<?>, Object> samples = samples();
        samples.put(Object.class, 0L);
        List<String> violations = new ArrayList<>();
        for (Class<?> record : records) {
            violations.addAll(NullRule.checkRecord(record, samples, Set.of("Operation.result", "Recorded.offset")));
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void shouldThrowNullPointerNamingTheParameterWhenTheApiGetsNull() {
        Map<Class<?>, Object> samples = samples();
        List<String> violations = new ArrayList<>();
        for (Class<?> type : List.of(Budget.class, ClockOffset.class, History.class, HistoryFiles.class)) {
            violations.addAll(NullRule.checkStaticMethods(type, samples, Set.of()));
        }
        for (Class<?> type : List.of(History.class, LinearizabilityChecker.class, NotLinearizableError.class)) {
            violations.addAll(NullRule.checkConstructors(type, samples, Set.of()));
        }
        History history = new History(HistoryClock.NANO_TIME);
        for (Object target : List.of(history, history.recorder(0), new LinearizabilityChecker(Budget.of(Duration.ofSeconds(1))),
                OPERATION, new ClockOffset(-1, 1), new CounterSpec(), new MaxRegisterSpec(), new QueueSpec(), new RegisterSpec(1), new SetSpec())) {
            violations.addAll(NullRule.checkInstanceMethods(target, samples, Set.of()));
        }
        assertEquals(List.of(), violations);
    }
}
