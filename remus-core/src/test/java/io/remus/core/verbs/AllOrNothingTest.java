package io.remus.core.verbs;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How an owner of several native resources (CmBootstrap's table domain) is built all or nothing. */
class AllOrNothingTest {
    private final List<String> closed = new ArrayList<>();

    private AutoCloseable resource(String name) {
        return () -> closed.add(name);
    }

    private List<AutoCloseable> build(int failAtStep, boolean failClosingFirst) {
        try (AllOrNothing made = new AllOrNothing()) {
            List<AutoCloseable> all = new ArrayList<>();
            all.add(made.add(failClosingFirst ? () -> {
                closed.add("pd");
                throw new IllegalStateException("pd will not close");
            } : resource("pd")));
            for (String name : new String[] {"cq", "arena", "buffer"}) {
                if (all.size() == failAtStep) {
                    throw new IllegalArgumentException("step " + failAtStep + " failed");
                }
                all.add(made.add(resource(name)));
            }
            made.keep();
            return all;
        }
    }

    @Test
    void shouldCloseWhatTheEarlierStepsMadeLastFirstWhenAStepFails() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> build(3, false));
        assertEquals("step 3 failed", e.getMessage());
        assertEquals(List.of("arena", "cq", "pd"), closed, "everything made before the failing step, last first");
    }

    @Test
    void shouldKeepTheFailingStepsExceptionAndSuppressAFailedClose() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> build(1, true));
        assertEquals(List.of("pd"), closed);
        assertEquals(1, e.getSuppressed().length);
        assertTrue(e.getSuppressed()[0] instanceof IllegalStateException);
    }

    @Test
    void shouldLeaveEverythingOpenForTheCallerWhenEveryStepSucceeded() {
        List<AutoCloseable> all = build(-1, false);
        assertEquals(4, all.size());
        assertTrue(closed.isEmpty(), "nothing is closed: " + closed);
    }

    @Test
    void shouldCloseTheRestAndThrowTheFirstFailureWhenClosingItself() {
        IllegalStateException first = new IllegalStateException("first");
        AllOrNothing made = new AllOrNothing();
        made.add(resource("a"));
        made.add(() -> {
            throw first;
        });
        made.add(resource("c"));
        assertSame(first, assertThrows(IllegalStateException.class, made::close));
        assertEquals(List.of("c", "a"), closed);
    }
}
