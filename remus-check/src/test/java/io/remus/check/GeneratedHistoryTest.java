package io.remus.check;

import io.remus.check.spec.CounterSpec;
import io.remus.check.spec.QueueSpec;
import io.remus.check.spec.RegisterSpec;
import io.remus.check.spec.SetSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

import static io.remus.check.Ops.CHECKER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Property tests over generated histories, each seed reported on failure: the checker agrees with a
 * brute-force search on small random histories, accepts long histories linearizable by
 * construction, and rejects them once one result is changed to an impossible one.
 */
class GeneratedHistoryTest {
    private static final int SEEDS = 400;

    /** Random small register histories: 3 threads, up to 7 operations, some pending, many overlapping. */
    private static List<Operation> randomRegisterHistory(SplittableRandom rnd) {
        List<Operation> ops = new ArrayList<>();
        int total = 2 + rnd.nextInt(6);
        long[] free = new long[3];
        for (int k = 0; k < total; k++) {
            int t = rnd.nextInt(3);
            if (free[t] == Long.MAX_VALUE) {
                continue;
            }
            long inv = free[t] + rnd.nextInt(10);
            long resp = inv + rnd.nextInt(20);
            boolean pending = rnd.nextInt(8) == 0;
            boolean write = rnd.nextBoolean();
            long[] args = write ? new long[] {1 + rnd.nextInt(2)} : new long[0];
            long[] result = pending ? null : write ? new long[0] : new long[] {rnd.nextInt(3)};
            ops.add(new Operation(-1, 0, t, write ? "write" : "read", args, result, inv, pending ? Operation.PENDING : resp));
            free[t] = pending ? Long.MAX_VALUE : resp + 1;
        }
        return History.number(ops);
    }

    /** Every order that respects real time, without memoization: the definition, spelled out. */
    private static <S> boolean bruteForce(Operation[] ops, boolean[] used, Specification<S> spec, S state) {
        boolean allCompletedUsed = true;
        for (int i = 0; i < ops.length; i++) {
            allCompletedUsed &= used[i] || ops[i].isPending();
        }
        if (allCompletedUsed) {
            return true;
        }
        for (int i = 0; i < ops.length; i++) {
            if (used[i] || !mayComeNext(ops, used, i)) {
                continue;
            }
            Specification.Step<S> step = spec.apply(state, ops[i]);
            if (!ops[i].isPending() && !Arrays.equals(step.result(), ops[i].result())) {
                continue;
            }
            used[i] = true;
            boolean ok = bruteForce(ops, used, spec, step.state());
            used[i] = false;
            if (ok) {
                return true;
            }
        }
        return false;
    }

    private static boolean mayComeNext(Operation[] ops, boolean[] used, int i) {
        for (int j = 0; j < ops.length; j++) {
            if (!used[j] && j != i && ops[j].precedes(ops[i])) {
                return false;
            }
        }
        return true;
    }

    @Test
    void shouldAgreeWithBruteForceOnSmallRandomRegisterHistories() {
        int violations = 0;
        for (int seed = 0; seed < SEEDS; seed++) {
            List<Operation> h = randomRegisterHistory(new SplittableRandom(seed));
            Operation[] ops = h.toArray(new Operation[0]);
            boolean expected = bruteForce(ops, new boolean[ops.length], new RegisterSpec(1), new RegisterSpec(1).initialState());
            Verdict v = CHECKER.check(h, new RegisterSpec(1)).verdict();
            assertEquals(expected ? Verdict.LINEARIZABLE : Verdict.NOT_LINEARIZABLE, v, "seed " + seed + ": " + h);
            violations += expected ? 0 : 1;
        }
        // The generator must exercise both verdicts for the agreement to mean anything.
        int finalViolations = violations;
        assertTrue(violations > SEEDS / 10 && violations < SEEDS * 9 / 10,
                () -> finalViolations + " of " + SEEDS + " random histories were violations");
    }

    /**
     * A history linearizable by construction: operations take effect one at a time at points 10
     * apart, on a random free thread, with intervals that reach up to {@code reach} on either side
     * of the point; results come from the specification.
     */
    private static <S> List<Operation> linearizableHistory(SplittableRandom rnd, Specification<S> spec, int threads, int count,
                                                           int reach, Function<SplittableRandom, Object[]> nextOp) {
        List<Operation> ops = new ArrayList<>();
        long[] free = new long[threads];
        S state = spec.initialState();
        long point = 0;
        while (ops.size() < count) {
            point += 10;
            int t = rnd.nextInt(threads);
            if (free[t] >= point) {
                continue;
            }
            Object[] kindArgs = nextOp.apply(rnd);
            Operation probe = new Operation(-1, 0, t, (String) kindArgs[0], (long[]) kindArgs[1], new long[0], point, point);
            Specification.Step<S> step = spec.apply(state, probe);
            state = step.state();
            long inv = Math.max(free[t], point - rnd.nextInt(reach + 1));
            long resp = point + rnd.nextInt(reach + 1);
            ops.add(new Operation(-1, 0, t, probe.kind(), probe.arguments(), step.result(), inv, resp));
            free[t] = resp + 1;
        }
        return History.number(ops);
    }

    @Test
    void shouldAcceptGeneratedLinearizableCounterHistoriesAndRejectADuplicatedResult() {
        for (int seed = 0; seed < 40; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            List<Operation> h = linearizableHistory(rnd, new CounterSpec(), 4, 500, 25,
                    r -> r.nextInt(5) == 0 ? new Object[] {"read", new long[0]} : new Object[] {"fetchAndAdd", new long[] {1 + r.nextInt(3)}});
            assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h, new CounterSpec()).verdict(), "seed " + seed);
            List<Operation> broken = new ArrayList<>(h);
            int i = firstOf(h, "fetchAndAdd", rnd.nextInt(h.size() / 2));
            int j = firstOf(h, "fetchAndAdd", i + 1);
            Operation victim = h.get(j);
            broken.set(j, new Operation(victim.id(), 0, victim.thread(), victim.kind(), victim.arguments(), h.get(i).result(),
                    victim.invokedAt(), victim.respondedAt()));
            assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(broken, new CounterSpec()).verdict(),
                    "seed " + seed + ": two positive adds returned " + Arrays.toString(h.get(i).result()));
        }
    }

    @Test
    void shouldAcceptGeneratedLinearizableQueueHistoriesAndRejectAnInventedValue() {
        for (int seed = 0; seed < 40; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            long[] next = {1};
            List<Operation> h = linearizableHistory(rnd, new QueueSpec(), 4, 400, 12,
                    r -> r.nextBoolean() ? new Object[] {"enqueue", new long[] {next[0]++}} : new Object[] {"dequeue", new long[0]});
            assertEquals(Verdict.LINEARIZABLE, CHECKER.check(h, new QueueSpec()).verdict(), "seed " + seed);
            // A dequeue returns a value that no enqueue ever stored.
            int i = firstNonEmptyDequeue(h, h.size() / 2);
            if (i < 0) {
                continue;
            }
            List<Operation> broken = new ArrayList<>(h);
            Operation d = h.get(i);
                        broken.set(i, new Operation(d.id(), 0, d.thread(), d.kind(), d.arguments(), new long[] {d.result()[0] + 1_000_000},
                    d.invokedAt(), d.respondedAt()));
            assertEquals(Verdict.NOT_LINEARIZABLE, CHECKER.check(broken, new QueueSpec()).verdict(), "seed " + seed);
        }
    }

    @Test
    void shouldAgreeWholeAndByKeyOnGeneratedSetHistories() {
        for (int seed = 0; seed < 40; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            String[] kinds = {"add", "remove", "contains"};
            List<Operation> h = linearizableHistory(rnd, new SetSpec(), 4, 600, 25,
                    r -> new Object[] {kinds[r.nextInt(3)], new long[] {r.nextInt(16)}});
            CheckResult byKey = CHECKER.checkByKey(h, new SetSpec());
            assertEquals(Verdict.LINEARIZABLE, byKey.verdict(), "seed " + seed + ": " + byKey);
            List<Operation> broken = new ArrayList<>(h);
            int i = rnd.nextInt(h.size());
            Operation o = h.get(i);
            broken.set(i, new Operation(o.id(), 0, o.thread(), o.kind(), o.arguments(), new long[] {1 - o.result()[0]},
                    o.invokedAt(), o.respondedAt()));
            // Flipping one result may still be explained by a concurrent operation, so both
            // checks must only agree; the whole-history check is the reference.
            Verdict whole = CHECKER.check(broken, new SetSpec()).verdict();
            assertEquals(whole, CHECKER.checkByKey(broken, new SetSpec()).verdict(), "seed " + seed);
        }
    }

    private static int firstOf(List<Operation> h, String kind, int from) {
        for (int i = from; i < h.size(); i++) {
            if (h.get(i).kind().equals(kind)) {
                return i;
            }
        }
        throw new AssertionError("no " + kind + " after " + from);
    }

    private static int firstNonEmptyDequeue(List<Operation> h, int from) {
        for (int i = from; i < h.size(); i++) {
            if (h.get(i).kind().equals("dequeue") && h.get(i).result().length == 1) {
                return i;
            }
        }
        return -1;
    }
}
