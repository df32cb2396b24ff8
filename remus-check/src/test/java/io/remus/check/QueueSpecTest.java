package io.remus.check;

import io.remus.check.spec.QueueSpec;
import org.junit.jupiter.api.Test;

import static io.remus.check.Ops.CHECKER;
import static io.remus.check.Ops.args;
import static org.junit.jupiter.api.Assertions.assertEquals;

class QueueSpecTest {
    private final QueueSpec spec = new QueueSpec();

    @Test
    void shouldAcceptFifoOrder() {
        var h = new Ops().done(0, 0, 1, "enqueue", args(1)).done(0, 2, 3, "enqueue", args(2))
                .done(1, 4, 5, "dequeue", args(), 1).done(1, 6, 7, "dequeue", args(), 2)
                .done(1, 8, 9, "dequeue", args());
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectLifoOrder() {
        var h = new Ops().done(0, 0, 1, "enqueue", args(1)).done(0, 2, 3, "enqueue", args(2))
                .done(1, 4, 5, "dequeue", args(), 2);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldAcceptConcurrentEnqueuesDequeuedInEitherOrder() {
        var h = new Ops().done(0, 0, 10, "enqueue", args(1)).done(1, 0, 10, "enqueue", args(2))
                .done(2, 11, 12, "dequeue", args(), 2).done(2, 13, 14, "dequeue", args(), 1);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectEmptyDequeueAfterCompletedEnqueue() {
        var h = new Ops().done(0, 0, 10, "enqueue", args(1)).done(1, 11, 12, "dequeue", args());
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldRejectOneValueDequeuedTwice() {
        var h = new Ops().done(0, 0, 1, "enqueue", args(1))
                .done(1, 2, 10, "dequeue", args(), 1).done(2, 2, 10, "dequeue", args(), 1);
        assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }

    @Test
    void shouldAcceptDequeueOfPendingEnqueue() {
        var h = new Ops().pending(0, 0, "enqueue", 4).done(1, 5, 6, "dequeue", args(), 4);
        assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h.history(), spec).verdict());
    }
}
