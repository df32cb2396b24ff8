package io.remus.core.config;

import io.remus.core.error.BadArgumentException;

import java.util.Objects;

/**
 * An inclusive range of node ids, e.g. the memory nodes {@code 0-3}.
 *
 * @param first the first node id
 * @param last  the last node id, not below {@code first}
 */
public record NodeRange(int first, int last) {
    /** Validates the range. */
    public NodeRange {
        if (first < 0 || last < first) {
            throw new BadArgumentException("bad node range " + first + "-" + last);
        }
    }

    /**
     * Parses a range.
     *
     * @param text {@code "a-b"} or a single id {@code "a"}
     * @return the range
     */
    public static NodeRange parse(String text) {
        String t = Objects.requireNonNull(text, "text").trim();
        int dash = t.indexOf('-');
        try {
            return dash < 0 ? new NodeRange(Integer.parseInt(t), Integer.parseInt(t))
                    : new NodeRange(Integer.parseInt(t.substring(0, dash).trim()), Integer.parseInt(t.substring(dash + 1).trim()));
        } catch (NumberFormatException e) {
            throw new BadArgumentException("bad node range '" + text + "', expected 'first-last'");
        }
    }

    /**
     * Tells whether a node lies in the range.
     *
     * @param nodeId a node
     * @return whether it lies in the range
     */
    public boolean contains(int nodeId) {
        return nodeId >= first && nodeId <= last;
    }

    /** {@return the number of nodes in the range} */
    public int size() {
        return last - first + 1;
    }

    @Override
    public String toString() {
        return first + "-" + last;
    }
}
