package io.remus.tools.repository;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds text that narrates the project's own development: the word "session" after an ordinal
 * (spelled out, or digits with a suffix) or after "previous", "earlier" or "prior", the word
 * before a number, and "before/after/since/until the Nth run (boot, attempt) of" with N from
 * four on.
 * Words may be split across lines and comment markers ({@code *}, {@code //}, {@code #},
 * {@code >}) and joined by a hyphen. Plain uses of the word, such as an SSH session or a
 * session's time, do not match.
 */
final class Narration {
    /** One match: the line it starts on (1-based) and the matched text. */
    record Hit(int line, String text) {
    }

    private static final String SEP = "[\\s*#/>-]+";
    private static final String UNITS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth";
    private static final String LATER = "fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
            + "|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth"
            + "|thirtieth|fortieth|(?:twenty|thirty|forty)-?(?:" + UNITS + ")";
    private static final String ORDINAL = "(?:first|second|third|" + LATER + "|\\d+(?:st|nd|rd|th))";
    private static final Pattern PATTERN = Pattern.compile(
            "\\b" + ORDINAL + SEP + "sessions?\\b"
                    + "|\\bsessions?" + SEP + "#?\\d+\\b"
                    + "|\\b(?:previous|earlier|prior)" + SEP + "sessions?\\b"
                    + "|\\b(?:before|after|since|until)" + SEP + "the" + SEP + "(?:" + LATER + ")"
                    + SEP + "(?:run|boot|attempt|try)" + SEP + "of\\b",
            Pattern.CASE_INSENSITIVE);

    private Narration() {
    }

    /**
     * Returns every narrating phrase in {@code text}, in order.
     *
     * @param text a file's whole content
     * @return the hits, each with the line it starts on; empty when there is none
     */
    static List<Hit> find(String text) {
        List<Hit> hits = new ArrayList<>();
        Matcher m = PATTERN.matcher(text);
        int line = 1;
        int counted = 0;
        while (m.find()) {
            for (; counted < m.start(); counted++) {
                if (text.charAt(counted) == '\n') {
                    line++;
                }
            }
            hits.add(new Hit(line, m.group().replaceAll("\\s+", " ")));
        }
        return hits;
    }
}
