package io.remus.alock.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exhaustive explicit-state exploration: breadth-first over every interleaving of the model's
 * atomic steps, with visited states hashed, checking in every reachable state that at most one
 * thread is in the critical section, and that some thread can move unless all finished (no
 * deadlock). Reports the first violation with the schedule that reaches it.
 */
final class ModelChecker {
    /**
     * @param states    reachable states explored
     * @param violation what went wrong, or null
     * @param schedule  the threads' steps leading to the violation (empty when none)
     */
    record Result(long states, String violation, List<Integer> schedule) {
        boolean ok() {
            return violation == null;
        }
    }

    private record Key(int[] s) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(s, k.s);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(s);
        }
    }

    private record Edge(Key parent, int thread) {
    }

    private ModelChecker() {
    }

    static Result check(Model model, long maxStates) {
        Map<Key, Edge> seen = new HashMap<>();
        ArrayDeque<Key> frontier = new ArrayDeque<>();
        Key start = new Key(model.initial());
        seen.put(start, null);
        frontier.add(start);
        while (!frontier.isEmpty()) {
            Key k = frontier.poll();
            if (model.inCriticalSection(k.s) > 1) {
                return new Result(seen.size(), "mutual exclusion violated", schedule(seen, k));
            }
            boolean moved = false;
            for (int t = 0; t < model.threads(); t++) {
                int[] next = model.step(k.s, t);
                if (next == null) {
                    continue;
                }
                moved = true;
                Key n = new Key(next);
                if (!seen.containsKey(n)) {
                    seen.put(n, new Edge(k, t));
                    frontier.add(n);
                }
            }
            if (!moved && !model.finished(k.s)) {
                return new Result(seen.size(), "deadlock: no thread can move", schedule(seen, k));
            }
            if (seen.size() > maxStates) {
                return new Result(seen.size(), "state space exceeds " + maxStates + " states", List.of());
            }
        }
        return new Result(seen.size(), null, List.of());
    }

    private static List<Integer> schedule(Map<Key, Edge> seen, Key end) {
        List<Integer> steps = new ArrayList<>();
        for (Edge e = seen.get(end); e != null; e = seen.get(e.parent())) {
            steps.add(e.thread());
        }
        Collections.reverse(steps);
        return steps;
    }
}
