package io.remus.core.config;

import io.remus.core.error.BadArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Slurm's compressed host lists ({@code SLURM_JOB_NODELIST}, {@code SLURM_STEP_NODELIST}) and task
 * counts per node ({@code SLURM_TASKS_PER_NODE}), expanded to plain lists.
 *
 * <p>A host list is a comma list of host patterns; commas inside brackets belong to the bracket.
 * A pattern is text with zero or more bracket groups, each a comma list of numbers and ranges
 * {@code lo-hi}. A range keeps the digit count of {@code lo} as written, so {@code [08-10]} gives
 * {@code 08, 09, 10}. Several groups expand as a product, the leftmost group varying slowest:
 *
 * <pre>
 * node[01-03,07],gpu5       node01 node02 node03 node07 gpu5
 * rack[1-2]-node[1-2]       rack1-node1 rack1-node2 rack2-node1 rack2-node2
 * </pre>
 *
 * <p>A tasks-per-node list is a comma list of counts, each optionally repeated: {@code 2(x3),1}
 * is {@code 2, 2, 2, 1}.
 */
public final class SlurmHostList {
    /** The most hosts or tasks a list may expand to (node ids are 16 bits). */
    public static final int MAX_ENTRIES = 1 << 16;

    private SlurmHostList() {
    }

    /**
     * Expands a compressed host list.
     *
     * @param list a compressed host list
     * @return its hosts in order
     * @throws BadArgumentException naming the list on an empty entry, an unbalanced or nested
     *                              bracket, a bad number or range, or more than {@link #MAX_ENTRIES} hosts
     */
    public static List<String> expand(String list) {
        Objects.requireNonNull(list, "list");
        if (list.isBlank()) {
            throw new BadArgumentException("empty Slurm host list");
        }
        List<String> hosts = new ArrayList<>();
        for (String pattern : splitOutsideBrackets(list.strip(), list)) {
            if (pattern.isEmpty()) {
                throw new BadArgumentException("Slurm host list '" + list + "' has an empty entry");
            }
            expandPattern(pattern, 0, "", hosts, list);
        }
        return List.copyOf(hosts);
    }

    /**
     * Expands a tasks-per-node list.
     *
     * @param tasksPerNode a list such as {@code 2(x3),1}
     * @return the task count of each node in order, each positive
     * @throws BadArgumentException on a malformed entry or more than {@link #MAX_ENTRIES} nodes
     */
    public static List<Integer> expandTasksPerNode(String tasksPerNode) {
        Objects.requireNonNull(tasksPerNode, "tasksPerNode");
        if (tasksPerNode.isBlank()) {
            throw new BadArgumentException("empty Slurm tasks-per-node list");
        }
        List<Integer> counts = new ArrayList<>();
        for (String entry : tasksPerNode.strip().split(",", -1)) {
            int open = entry.indexOf("(x");
            int count;
            int repeat = 1;
            if (open < 0) {
                count = number(entry, tasksPerNode);
            } else {
                if (!entry.endsWith(")")) {
                    throw new BadArgumentException("Slurm tasks-per-node list '" + tasksPerNode + "': bad entry '" + entry + "'");
                }
                count = number(entry.substring(0, open), tasksPerNode);
                repeat = number(entry.substring(open + 2, entry.length() - 1), tasksPerNode);
            }
            if (count < 1 || repeat < 1 || counts.size() + repeat > MAX_ENTRIES) {
                throw new BadArgumentException("Slurm tasks-per-node list '" + tasksPerNode + "': bad entry '" + entry + "'");
            }
            for (int i = 0; i < repeat; i++) {
                counts.add(count);
            }
        }
        return List.copyOf(counts);
    }

    private static List<String> splitOutsideBrackets(String s, String list) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                if (++depth > 1) {
                    throw new BadArgumentException("Slurm host list '" + list + "' has nested brackets");
                }
            } else if (c == ']') {
                if (--depth < 0) {
                    throw new BadArgumentException("Slurm host list '" + list + "' has ']' without '['");
                }
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i).strip());
                start = i + 1;
            } else if (Character.isWhitespace(c)) {
                throw new BadArgumentException("Slurm host list '" + list + "' contains white space");
            }
        }
        if (depth != 0) {
            throw new BadArgumentException("Slurm host list '" + list + "' has '[' without ']'");
        }
        parts.add(s.substring(start).strip());
        return parts;
    }

    private static void expandPattern(String pattern, int from, String prefix, List<String> out, String list) {
        int open = pattern.indexOf('[', from);
        if (open < 0) {
            if (out.size() == MAX_ENTRIES) {
                throw new BadArgumentException("Slurm host list '" + list + "' expands to more than " + MAX_ENTRIES + " hosts");
            }
            out.add(prefix + pattern.substring(from));
            return;
        }
        int close = pattern.indexOf(']', open);
        String head = prefix + pattern.substring(from, open);
        String group = pattern.substring(open + 1, close);
        if (group.isEmpty()) {
            throw new BadArgumentException("Slurm host list '" + list + "' has an empty bracket");
        }
        for (String item : group.split(",", -1)) {
            int dash = item.indexOf('-');
            String lo = dash < 0 ? item : item.substring(0, dash);
            String hi = dash < 0 ? item : item.substring(dash + 1);
            long first = number(lo, list);
            long last = number(hi, list);
            if (last < first) {
                throw new BadArgumentException("Slurm host list '" + list + "': range '" + item + "' runs backwards");
            }
            for (long n = first; n <= last; n++) {
                expandPattern(pattern, close + 1, head + pad(n, lo.length()), out, list);
            }
        }
    }

    private static String pad(long n, int width) {
        String digits = Long.toString(n);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    private static int number(String s, String list) {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new BadArgumentException("Slurm list '" + list + "': '" + s + "' is not a number");
        }
        return Integer.parseInt(s);
    }
}
