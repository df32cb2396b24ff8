package io.remus.check;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Hand-written histories for the tests: operations with explicit times. */
final class Ops {
    static final LinearizabilityChecker CHECKER = new LinearizabilityChecker(Budget.of(Duration.ofSeconds(30)));

    private final List<Operation> ops = new ArrayList<>();

    static long[] args(long... words) {
        return words;
    }

    /** A completed operation. */
    Ops done(int thread, long invoked, long responded, String kind, long[] arguments, long... result) {
        ops.add(new Operation(-1, 0, thread, kind, arguments, result, invoked, responded));
        return this;
    }

    /** A pending operation. */
    Ops pending(int thread, long invoked, String kind, long... arguments) {
        ops.add(new Operation(-1, 0, thread, kind, arguments, null, invoked, Operation.PENDING));
        return this;
    }

    List<Operation> history() {
        return History.number(ops);
    }
}
