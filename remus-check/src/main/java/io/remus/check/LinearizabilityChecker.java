package io.remus.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides whether a history is linearizable with respect to a {@link Specification}: whether its
 * operations can be put in one sequential order that respects real time (an operation that
 * returned before another was invoked comes first) and in which every completed operation returns
 * what the specification says.
 *
 * <p>The search is Wing and Gong's ("Testing and verifying concurrent objects", J. Parallel and
 * Distributed Computing, 1993): depth-first, it picks as the next linearized operation any
 * operation invoked no later than the earliest response among the operations not yet linearized,
 * applies it to the specification, and backtracks when a result differs. Lowe's memoization
 * ("Testing for linearizability", Concurrency and Computation: Practice and Experience, 2017)
 * prunes it: a configuration (the set of linearized operations and the state they reached) is
 * explored once, whatever order led to it. The search is iterative, so a history of any length
 * runs in bounded stack.
 *
 * <p><b>Program order.</b> The operations of one thread (one process and thread number) are
 * linearized in the order of their invocations, whatever their times say: a thread runs one
 * operation after another. Their intervals may overlap where a merge widened them to bound another
 * host's clock ({@link ClockOffset#apply}), but not nest.
 *
 * <p><b>Pending operations</b> (no response) are treated as Herlihy and Wing define it: such an
 * operation may be linearized anywhere after its invocation, with whatever result the
 * specification gives, or dropped. The history is linearizable once every completed operation is
 * linearized.
 *
 * <p><b>Budget.</b> The worst case is exponential in the number of concurrent operations; the
 * {@link Budget} bounds the wall-clock time and the configurations explored, and a search that
 * reaches either returns {@link Verdict#UNKNOWN}.
 *
 * <p><b>Witness.</b> For a violation, the result names the operations involved: the deepest
 * configuration the search reached (the longest prefix of the history it could linearize), the
 * last operations of that prefix, and every operation that could have come next there, each with
 * the result it returned and the one the specification gives. In a register whose reader saw a
 * torn value, that is the read and the writes around it.
 *
 * <p><b>P-compositionality</b> (Horn and Kroening, "Faster linearizability checking via
 * P-compositionality", FORTE 2015): {@link #checkByKey} splits the history of a partitionable
 * object (a set or map, {@link Specification#partitionable()}) into one sub-history per key and
 * checks each alone, which turns one search over all operations into many small ones.
 */
public final class LinearizabilityChecker {
    private static final int WITNESS_PREFIX = 6;

    private final Budget budget;

    /**
     * Creates a checker that bounds each check's work.
     *
     * @param budget the limit on each check's work
     */
    public LinearizabilityChecker(Budget budget) {
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    /** {@return the budget of each check} */
    public Budget budget() {
        return budget;
    }

    /**
     * Checks a whole history against a specification.
     *
     * @param history the operations (any order; ids are kept for the report)
     * @param spec    the sequential specification
     * @param <S>     its state type
     * @return the verdict and, for a violation, its witness
     * @throws HistoryFormatException when an operation of a thread ran inside another of the same
     *                                thread (or after a pending one)
     */
    public <S> CheckResult check(List<Operation> history, Specification<S> spec) {
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(spec, "spec");
        validate(history);
        long deadline = System.nanoTime() + budget.time().toNanos();
        return new Search<>(history, spec, deadline, budget.configurations()).run();
    }

    /**
     * Checks each key's sub-history alone (P-compositionality). The budget's time bounds the whole
     * check and its configurations all partitions together.
     *
     * @param history the operations
     * @param spec    a specification whose {@link Specification#partitionable()} is true
     * @param <S>     its state type
     * @return linearizable when every key's sub-history is; otherwise the first violation found,
     *         naming its key, or unknown when some partition ran out of budget and none failed
     * @throws IllegalArgumentException when the specification does not partition by key
     */
    public <S> CheckResult checkByKey(List<Operation> history, Specification<S> spec) {
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(spec, "spec");
        if (!spec.partitionable()) {
            throw new IllegalArgumentException(spec.getClass().getSimpleName() + " does not partition by key");
        }
        validate(history);
        Map<Long, List<Operation>> parts = new LinkedHashMap<>();
        for (Operation op : history) {
            parts.computeIfAbsent(spec.key(op), k -> new ArrayList<>()).add(op);
        }
        long deadline = System.nanoTime() + budget.time().toNanos();
        long left = budget.configurations();
        long explored = 0;
        String unknown = null;
        for (Map.Entry<Long, List<Operation>> e : parts.entrySet()) {
            CheckResult r = new Search<>(e.getValue(), spec, deadline, left).run();
            explored += r.configurations();
            left -= r.configurations();
            if (r.verdict() == Verdict.NOT_LINEARIZABLE) {
                return new CheckResult(Verdict.NOT_LINEARIZABLE, history.size(), explored, r.witness(),
                        "key " + e.getKey() + " (" + e.getValue().size() + " operations): " + r.explanation());
            }
            if (r.verdict() == Verdict.UNKNOWN) {
                unknown = "key " + e.getKey() + ": " + r.explanation();
                if (left <= 0 || System.nanoTime() - deadline >= 0) {
                    break;
                }
            }
        }
        if (unknown != null) {
            return new CheckResult(Verdict.UNKNOWN, history.size(), explored, List.of(), unknown);
        }
        return new CheckResult(Verdict.LINEARIZABLE, history.size(), explored, List.of(),
                parts.size() + " keys, each linearizable");
    }

    private static void validate(List<Operation> history) {
        Map<Long, Operation> lastOfThread = new LinkedHashMap<>();
        List<Operation> sorted = new ArrayList<>(history);
        sorted.sort(Comparator.comparingLong(Operation::invokedAt).thenComparingInt(Operation::id));
        for (Operation op : sorted) {
            Operation last = lastOfThread.put(threadOf(op), op);
            if (last != null && (last.isPending() || last.respondedAt() > op.respondedAt())) {
                throw new HistoryFormatException("operations of one thread are nested: " + op + " ran inside " + last);
            }
        }
    }

    private static long threadOf(Operation op) {
        return ((long) op.process() << 32) | (op.thread() & 0xFFFF_FFFFL);
    }

    /** One depth-first search over one history. */
    private static final class Search<S> {
        private final Operation[] ops;
        private final long[] invoked;
        private final long[] responded;
        private final boolean[] pending;
        private final int[] pendingOrdinal;
        private final int[] pendingIndices;
        private final int[] previousOfThread;
        private final Specification<S> spec;
        private final long deadline;
        private final long maxConfigurations;
        private final int completed;
        private final Set<Configuration<S>> seen = new HashSet<>();
        private long configurations;
        private Frame<S> deepest;

        Search(List<Operation> history, Specification<S> spec, long deadline, long maxConfigurations) {
            this.spec = spec;
            this.deadline = deadline;
            this.maxConfigurations = maxConfigurations;
            ops = history.toArray(new Operation[0]);
            Arrays.sort(ops, Comparator.comparingLong(Operation::invokedAt).thenComparingInt(Operation::id));
            int n = ops.length;
            invoked = new long[n];
            responded = new long[n];
            pending = new boolean[n];
            pendingOrdinal = new int[n];
            int c = 0;
            for (int i = 0; i < n; i++) {
                invoked[i] = ops[i].invokedAt();
                responded[i] = ops[i].respondedAt();
                pending[i] = ops[i].isPending();
                pendingOrdinal[i] = pending[i] ? i - c : -1;
                c += pending[i] ? 0 : 1;
            }
            completed = c;
            previousOfThread = new int[n];
            Map<Long, Integer> lastOfThread = new HashMap<>();
            for (int i = 0; i < n; i++) {
                Integer last = lastOfThread.put(threadOf(ops[i]), i);
                previousOfThread[i] = last == null ? -1 : last;
            }
            pendingIndices = new int[n - c];
            for (int i = 0; i < n; i++) {
                if (pending[i]) {
                    pendingIndices[pendingOrdinal[i]] = i;
                }
            }
        }

        CheckResult run() {
            Frame<S> root = frame(LinearizedSet.empty(pendingOrdinal), spec.initialState(), 0, completed, -1, null);
            if (completed == 0) {
                return result(Verdict.LINEARIZABLE, "no completed operations");
            }
            deepest = root;
            List<Frame<S>> stack = new ArrayList<>();
            stack.add(root);
            long steps = 0;
            while (!stack.isEmpty()) {
                if ((++steps & 1023) == 0 && System.nanoTime() - deadline >= 0) {
                    return result(Verdict.UNKNOWN, "time budget ran out with " + (completed - deepest.remaining) + " of "
                            + completed + " completed operations linearized at best");
                }
                Frame<S> f = stack.get(stack.size() - 1);
                if (f.next >= f.candidates.length) {
                    stack.remove(stack.size() - 1);
                    continue;
                }
                int c = f.candidates[f.next++];
                Specification.Step<S> step = spec.apply(f.state, ops[c]);
                if (!pending[c] && !Arrays.equals(step.result(), ops[c].result())) {
                    continue;
                }
                LinearizedSet linearized = f.linearized.with(c, pendingOrdinal);
                if (!seen.add(new Configuration<>(linearized, step.state()))) {
                    continue;
                }
                if (++configurations > maxConfigurations) {
                    return result(Verdict.UNKNOWN, "configuration budget of " + maxConfigurations
                            + " ran out with " + (completed - deepest.remaining) + " of " + completed
                            + " completed operations linearized at best");
                }
                int remaining = f.remaining - (pending[c] ? 0 : 1);
                if (remaining == 0) {
                    return result(Verdict.LINEARIZABLE, "linearized all " + completed + " completed operations");
                }
                Frame<S> g = frame(linearized, step.state(), f.depth + 1, remaining, c, f);
                if (g.remaining < deepest.remaining) {
                    deepest = g;
                }
                stack.add(g);
            }
            return violation();
        }

        /**
         * A configuration's frame with its candidates: the operations not linearized whose
         * invocation is no later than the earliest response among the completed operations not
         * linearized (operations are sorted by invocation, so the scan stops at the first later
         * one) and whose thread's previous operation is linearized, completed operations first,
         * then pending ones.
         */
        private Frame<S> frame(LinearizedSet linearized, S state, int depth, int remaining, int op, Frame<S> parent) {
            int n = ops.length;
            int[] found = new int[8];
            int count = 0;
            long minResponse = Long.MAX_VALUE;
            for (int i = linearized.first(); i < n && invoked[i] <= minResponse; i++) {
                if (pending[i] || linearized.contains(i, pendingOrdinal)) {
                    continue;
                }
                minResponse = Math.min(minResponse, responded[i]);
                if (!threadReady(i, linearized)) {
                    continue;
                }
                if (count == found.length) {
                    found = Arrays.copyOf(found, count * 2);
                }
                found[count++] = i;
            }
            for (int i : pendingIndices) {
                if (invoked[i] > minResponse) {
                    break;
                }
                if (!linearized.contains(i, pendingOrdinal) && threadReady(i, linearized)) {
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                    }
                    found[count++] = i;
                }
            }
            int k = 0;
            for (int j = 0; j < count; j++) {
                if (invoked[found[j]] <= minResponse) {
                    found[k++] = found[j];
                }
            }
            return new Frame<>(linearized, state, depth, remaining, Arrays.copyOf(found, k), op, parent);
        }

        /** Whether the operation before {@code i} in its thread's program order is linearized (or there is none). */
        private boolean threadReady(int i, LinearizedSet linearized) {
            int p = previousOfThread[i];
            return p < 0 || linearized.contains(p, pendingOrdinal);
        }

        private CheckResult violation() {
            Frame<S> f = deepest;
            List<Operation> prefix = new ArrayList<>();
            for (Frame<S> p = f; p != null && p.op >= 0; p = p.parent) {
                prefix.add(0, ops[p.op]);
            }
            List<Operation> witness = new ArrayList<>();
            StringBuilder s = new StringBuilder("no linearization. The longest linearizable prefix has ")
                    .append(prefix.size()).append(" operations");
            if (!prefix.isEmpty()) {
                s.append(", ending with:");
                for (Operation op : prefix.subList(Math.max(0, prefix.size() - WITNESS_PREFIX), prefix.size())) {
                    s.append("\n    ").append(op);
                    witness.add(op);
                }
            }
            s.append("\n  state after it: ").append(f.state)
                    .append("\n  and no operation that may come next returns what it returned:");
            for (int c : f.candidates) {
                Specification.Step<S> step = spec.apply(f.state, ops[c]);
                s.append("\n    ").append(ops[c]);
                if (!pending[c]) {
                    s.append("   (specification: ").append(Operation.words(step.result())).append(')');
                }
                witness.add(ops[c]);
            }
            s.append("\n  (pending operations may also be left out; every order of these was tried)");
            return new CheckResult(Verdict.NOT_LINEARIZABLE, ops.length, configurations, witness, s.toString());
        }

        private CheckResult result(Verdict verdict, String explanation) {
            return new CheckResult(verdict, ops.length, configurations, List.of(), explanation);
        }
    }

    /** A node of the search: a configuration and the candidates still to try from it. */
    private static final class Frame<S> {
        final LinearizedSet linearized;
        final S state;
        final int depth;
        final int remaining;
        final int[] candidates;
        final int op;
        final Frame<S> parent;
        int next;

        Frame(LinearizedSet linearized, S state, int depth, int remaining, int[] candidates, int op, Frame<S> parent) {
            this.linearized = linearized;
            this.state = state;
            this.depth = depth;
            this.remaining = remaining;
            this.candidates = candidates;
            this.op = op;
            this.parent = parent;
        }
    }

    /** A memoized configuration: which operations are linearized and the state they reached. */
    private record Configuration<S>(LinearizedSet linearized, S state) {
    }
}
