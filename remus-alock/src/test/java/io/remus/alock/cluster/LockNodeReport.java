package io.remus.alock.cluster;


import io.remus.alock.kind.LockKind;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one node saw of one lock kind in {@link LockNodeScenario}, as one line of a child's output.
 *
 * @param kind     the lock kind
 * @param node     the reporting node
 * @param local    critical sections this node's threads entered under locks homed on this node
 * @param remote   critical sections they entered under locks homed on other nodes
 * @param overlaps second occupants and foreign stamps this node's threads saw
 * @param lost     entries of every node less the sum of the locks' shared counters (lost updates)
 * @param errors   worker threads of this node that failed (their stack traces precede the line)
 * @param millis   how long this kind took on this node, from the start barrier to the totals (not asserted)
 */
record LockNodeReport(LockKind kind, int node, long local, long remote, long overlaps, long lost, int errors,
                      long millis) {
    private static final Pattern LINE = Pattern.compile(
            "LOCKS kind=(\\S+) node=(\\d+) local=(\\d+) remote=(\\d+) overlaps=(\\d+) lost=(-?\\d+) errors=(\\d+) millis=(\\d+)");

    /** @return the line {@link #parseAll} reads back */
    String line() {
        return "LOCKS kind=" + kind.cliName() + " node=" + node + " local=" + local + " remote=" + remote
                + " overlaps=" + overlaps + " lost=" + lost + " errors=" + errors + " millis=" + millis;
    }

    /** @return whether the run was clean and this node made progress on both paths */
    boolean isClean() {
        return overlaps == 0 && lost == 0 && errors == 0 && local > 0 && remote > 0;
    }

    /**
     * @param output a child's output
     * @return every report line in it
     */
    static List<LockNodeReport> parseAll(String output) {
        List<LockNodeReport> reports = new ArrayList<>();
        Matcher m = LINE.matcher(output);
        while (m.find()) {
            reports.add(new LockNodeReport(LockKind.parse(m.group(1)), Integer.parseInt(m.group(2)),
                    Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
                    Long.parseLong(m.group(6)), Integer.parseInt(m.group(7)), Long.parseLong(m.group(8))));
        }
        return reports;
    }
}
