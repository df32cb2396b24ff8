package io.remus.tools.cli;

import io.remus.core.error.BadArgumentException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A flag's comma-separated list of values ({@code --threads 1,2,4}): each element stripped of blanks
 * and parsed by the flag's own parser for one value, in the order given. A single value is a list of
 * one.
 */
final class CommaList {
    private CommaList() {
    }

    /**
     * @param text   the flag's value
     * @param parser parses one element; throws {@link BadArgumentException} naming a bad one
     * @param <T>    the element type
     * @return the parsed elements, in order, none equal to another
     * @throws BadArgumentException naming the list when an element is empty, naming the element when two
     *                              parse to the same value, or the parser's for a bad element
     */
    static <T> List<T> parse(String text, Function<String, T> parser) {
        List<T> values = new ArrayList<>();
        List<String> given = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String element = raw.strip();
            if (element.isEmpty()) {
                throw new BadArgumentException("empty element in the list '" + text + "'");
            }
            T value = parser.apply(element);
            int before = values.indexOf(value);
            if (before >= 0) {
                throw new BadArgumentException("'" + element + "' is given twice"
                        + (given.get(before).equals(element) ? "" : " (as '" + given.get(before) + "' before)")
                        + " in the list '" + text + "'");
            }
            values.add(value);
            given.add(element);
        }
        return values;
    }

    /**
     * @param element one element of a list of counts
     * @return its value (range checks are the caller's)
     * @throws BadArgumentException naming the element when it is not a whole number
     */
    static int wholeNumber(String element) {
        try {
            return Integer.parseInt(element);
        } catch (NumberFormatException e) {
            throw new BadArgumentException("'" + element + "' is not a whole number");
        }
    }
}
