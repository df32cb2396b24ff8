package io.remus.bench.report;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import static io.remus.bench.report.JsonText.field;
import static io.remus.bench.report.JsonText.str;
import static io.remus.bench.report.JsonText.strings;

/**
 * The one JSON object a report of runs is written as ({@code --json}), by hand, in this order:
 * <pre>
 * {"tool":"remus","test":TEST,"fabric":FABRIC, the report's own fields, "notes":[...], "runs":[RUN,RUN,...] trailing fields}
 * </pre>
 * A report's own fields are written with {@link JsonText#field}, each followed by a comma; each run is one
 * object that its writer appends whole; trailing fields start with a comma.
 */
public final class JsonReportWriter {
    private JsonReportWriter() {
    }

    /**
     * {@link #reportObject(String, String, Consumer, List, String, List, BiConsumer, Consumer)} with the runs under
     * {@code runs}.
     *
     * @param test   the value of {@code test}
     * @param fabric the value of {@code fabric}
     * @param fields appends the report's own fields after {@code fabric}, each with its trailing comma
     * @param notes  the value of {@code notes}
     * @param runs   the runs, in order
     * @param run    appends one run's object
     * @param tail   appends fields after {@code runs}, each with its leading comma
     * @param <R>    the run type
     * @return the object, on one line
     */
    public static <R> String reportObject(String test, String fabric, Consumer<StringBuilder> fields, List<String> notes,
                                          List<R> runs, BiConsumer<StringBuilder, R> run, Consumer<StringBuilder> tail) {
        return reportObject(test, fabric, fields, notes, "runs", runs, run, tail);
    }

    /**
     * @param test    the value of {@code test}
     * @param fabric  the value of {@code fabric}
     * @param fields  appends the report's own fields after {@code fabric}, each with its trailing comma
     * @param notes   the value of {@code notes}
     * @param runsKey the key of the array of runs ({@code runs}, or {@code results} in the perftest-style report)
     * @param runs    the runs, in order
     * @param run     appends one run's object
     * @param tail    appends fields after the runs, each with its leading comma
     * @param <R>     the run type
     * @return the object, on one line
     */
    public static <R> String reportObject(String test, String fabric, Consumer<StringBuilder> fields, List<String> notes,
                                          String runsKey, List<R> runs, BiConsumer<StringBuilder, R> run,
                                          Consumer<StringBuilder> tail) {
        StringBuilder b = new StringBuilder(4096).append('{');
        field(b, "tool", str("remus"));
        field(b, "test", str(test));
        field(b, "fabric", str(fabric));
        fields.accept(b);
        field(b, "notes", strings(notes));
        b.append(str(runsKey)).append(":[");
        for (int i = 0; i < runs.size(); i++) {
            run.accept(b.append(i == 0 ? "" : ","), runs.get(i));
        }
        b.append(']');
        tail.accept(b);
        return b.append('}').toString();
    }

    /**
     * Prints {@link #reportObject} without fields of the report's own, as one line, and flushes.
     *
     * @param out    where the object goes
     * @param test   the value of {@code test}
     * @param fabric the value of {@code fabric}
     * @param notes  the value of {@code notes}
     * @param runs   the runs, in order
     * @param run    appends one run's object
     * @param <R>    the run type
     */
    public static <R> void printReport(PrintWriter out, String test, String fabric, List<String> notes, List<R> runs,
                                 BiConsumer<StringBuilder, R> run) {
        out.println(reportObject(test, fabric, b -> { }, notes, runs, run, b -> { }));
        out.flush();
    }
}
