package io.remus.bench.report;

import io.remus.bench.stats.LatencySummary;
import io.remus.core.fabric.Opcode;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import static io.remus.bench.report.JsonText.num;
import static io.remus.bench.report.JsonText.str;

/**
 * The columns of one kind of report row, declared once, in order, and written as a human table row, a
 * JSON object and a CSV row. A column may be a JSON field ({@link #field}; a key {@code group.key} nests it
 * in the object {@code group}, for a run of consecutive columns of that group), a CSV column
 * ({@link #csv}) and a human column ({@link #shown}, {@link #column}); each output takes the columns it
 * has, in declaration order.
 * <p>
 * Values are written by type: in JSON a {@link String} as a string literal, a {@link Double} with six
 * decimals, {@code null} as {@code null}, anything else by {@code toString()} (a {@link #json} column is
 * JSON already); in CSV the same without quotes; in the human table with the column's {@code printf}
 * format (in the table's locale, the default format locale unless given), the header right- or left-aligned to
 * the same width. Declared once, in a static initialiser, and only read after.
 *
 * @param <R> the row type
 */
public final class ReportTable<R> {
    private static final List<String> SHORT_NAMES = List.of("READ", "WRITE", "CAS", "FAA");
    private final List<Column<R>> columns = new ArrayList<>();
    private final Locale locale;

    /** A table whose human rows are formatted in the default format locale. */
    public ReportTable() {
        this(null);
    }

    /**
     * A table whose human rows are formatted in {@code locale}.
     *
     * @param locale the locale of the human rows, or null for the default format locale
     */
    public ReportTable(Locale locale) {
        this.locale = locale;
    }

    private record Column<R>(String key, boolean isJson, String csv, String header, String format,
                             Function<? super R, ?> value, Function<? super R, ?> human) {
        Column<R> withCsv(String name) {
            return new Column<>(key, isJson, name, header, format, value, human);
        }

        Column<R> withHuman(String h, String f, Function<? super R, ?> v) {
            return new Column<>(key, isJson, csv, h, f, value, v);
        }

        String group() {
            int dot = key.indexOf('.');
            return dot < 0 ? null : key.substring(0, dot);
        }

        String name() {
            return key.substring(key.indexOf('.') + 1);
        }
    }

    /**
     * A JSON field.
     *
     * @param key   its key, {@code group.key} inside the object {@code group}
     * @param value its value
     * @return this table
     */
    public ReportTable<R> field(String key, Function<? super R, ?> value) {
        columns.add(new Column<>(key, false, null, null, null, value, null));
        return this;
    }

    /**
     * A JSON field whose value is JSON text already.
     *
     * @param key   its key
     * @param value its JSON text
     * @return this table
     */
    public ReportTable<R> json(String key, Function<? super R, String> value) {
        columns.add(new Column<>(key, true, null, null, null, value, null));
        return this;
    }

    /**
     * A CSV column that is no JSON field.
     *
     * @param name  its name in {@link #csvNames()}
     * @param value its value
     * @return this table
     */
    public ReportTable<R> csvOnly(String name, Function<? super R, ?> value) {
        columns.add(new Column<>(null, false, name, null, null, value, null));
        return this;
    }

    /**
     * A human column that is no JSON field.
     *
     * @param header its header
     * @param format its {@code printf} format, one conversion with a width
     * @param value  its value
     * @return this table
     */
    public ReportTable<R> column(String header, String format, Function<? super R, ?> value) {
        columns.add(new Column<>(null, false, null, header, format, null, value));
        return this;
    }

    /**
     * The object {@code rdma_per_op}: one field per {@link Opcode}, lower case, then {@code total}; READs,
     * WRITEs, compare-and-swaps and fetch-and-adds shown too ({@code READ WRITE CAS FAA}, {@code %6.2f}).
     * {@code total} is the last column, for {@link #shown} to follow.
     *
     * @param perOp posted operations of an opcode per benchmark operation
     * @param total every posted operation per benchmark operation
     * @return this table
     */
    public ReportTable<R> rdmaPerOp(Function<? super R, ToDoubleFunction<Opcode>> perOp,
                                    Function<? super R, Double> total) {
        for (Opcode op : Opcode.values()) {
            field("rdma_per_op." + op.name().toLowerCase(Locale.ROOT), r -> perOp.apply(r).applyAsDouble(op));
            if (op.ordinal() <= Opcode.FETCH_AND_ADD.ordinal()) {
                shown(SHORT_NAMES.get(op.ordinal()), "%6.2f");
            }
        }
        return field("rdma_per_op.total", total);
    }

    /**
     * The object {@code group} of a latency summary in nanoseconds: {@code count p50 p99 max mean}, the median
     * and p99 shown in microseconds.
     *
     * @param group     the object's key
     * @param latency   the latency summary
     * @param p50Header the median's header
     * @param p99Header the p99's header
     * @param format    their {@code printf} format
     * @return this table
     */
    public ReportTable<R> latencyNs(String group, Function<? super R, LatencySummary> latency, String p50Header,
                                    String p99Header, String format) {
        return field(group + ".count", r -> latency.apply(r).count())
                .field(group + ".p50", r -> latency.apply(r).median())
                .shown(p50Header, format, r -> latency.apply(r).median() / 1000.0)
                .field(group + ".p99", r -> latency.apply(r).p99())
                .shown(p99Header, format, r -> latency.apply(r).p99() / 1000.0)
                .field(group + ".max", r -> latency.apply(r).max())
                .field(group + ".mean", r -> latency.apply(r).mean());
    }

    /**
     * Makes the last column a CSV column too.
     *
     * @param name its name in {@link #csvNames()}
     * @return this table
     */
    public ReportTable<R> csv(String name) {
        columns.set(columns.size() - 1, columns.getLast().withCsv(name));
        return this;
    }

    /**
     * Makes the last column a human column too, with the same value.
     *
     * @param header its header
     * @param format its {@code printf} format
     * @return this table
     */
    public ReportTable<R> shown(String header, String format) {
        return shown(header, format, columns.getLast().value());
    }

    /**
     * Makes the last column a human column too, with a value of its own (the same quantity in other units or
     * words).
     *
     * @param header its header
     * @param format its {@code printf} format
     * @param value  the value shown
     * @return this table
     */
    public ReportTable<R> shown(String header, String format, Function<? super R, ?> value) {
        columns.set(columns.size() - 1, columns.getLast().withHuman(header, format, value));
        return this;
    }

    /**
     * @param indent what precedes the line
     * @return the human header line, without a line terminator
     */
    public String header(String indent) {
        StringBuilder b = new StringBuilder(indent);
        for (Column<R> c : columns) {
            if (c.header() != null) {
                String width = c.format().replaceAll("^%(-?\\d*).*$", "$1");
                b.append(b.length() == indent.length() ? "" : " ").append(String.format("%" + width + "s", c.header()));
            }
        }
        return b.toString();
    }

    /**
     * @param indent what precedes the line
     * @param row    the row
     * @return its human line, without a line terminator
     */
    public String row(String indent, R row) {
        StringBuilder b = new StringBuilder(indent);
        for (Column<R> c : columns) {
            if (c.header() != null) {
                b.append(b.length() == indent.length() ? "" : " ").append(String.format(
                        locale == null ? Locale.getDefault(Locale.Category.FORMAT) : locale, c.format(), c.human().apply(row)));
            }
        }
        return b.toString();
    }

    /**
     * Prints the header and one line per row.
     *
     * @param out    where they go
     * @param indent what precedes each line
     * @param rows   the rows
     */
    public void print(PrintWriter out, String indent, List<? extends R> rows) {
        out.println(header(indent));
        for (R r : rows) {
            out.println(row(indent, r));
        }
    }

    /**
     * @param row the row
     * @return its JSON object
     */
    public String json(R row) {
        StringBuilder b = new StringBuilder("{");
        String open = null;
        boolean comma = false;
        for (Column<R> c : columns) {
            if (c.key() == null) {
                continue;
            }
            String group = c.group();
            if (open != null && !open.equals(group)) {
                b.append('}');
                open = null;
            }
            if (group != null && open == null) {
                b.append(comma ? "," : "").append(str(group)).append(":{");
                open = group;
                comma = false;
            }
            Object v = c.value().apply(row);
            b.append(comma ? "," : "").append(str(c.name())).append(':').append(c.isJson() ? (String) v : jsonValue(v));
            comma = true;
        }
        return b.append(open == null ? "}" : "}}").toString();
    }

    /** @return the CSV columns' names in order */
    public List<String> csvNames() {
        return columns.stream().filter(c -> c.csv() != null).map(Column::csv).toList();
    }

    /**
     * @param row the row
     * @return its CSV line, without a line terminator
     */
    public String csvRow(R row) {
        List<String> values = new ArrayList<>();
        for (Column<R> c : columns) {
            if (c.csv() != null) {
                Object v = c.value().apply(row);
                values.add(v instanceof Double d ? num(d) : String.valueOf(v));
            }
        }
        return String.join(",", values);
    }

    /**
     * Prints a human report: its title and notes ({@link #title}), the table of its rows, then the lines after.
     *
     * @param out    where it goes
     * @param test   the bench command's name
     * @param fabric the fabric's name
     * @param notes  the report's notes
     * @param rows   the rows
     * @param after  lines after the table
     */
    public void printHuman(PrintWriter out, String test, String fabric, List<String> notes, List<? extends R> rows,
                           List<String> after) {
        title(out, test, fabric, notes);
        print(out, "", rows);
        after.forEach(out::println);
        out.flush();
    }

    /**
     * Prints the JSON report of the rows ({@link JsonReportWriter#printReport}), each row one object.
     *
     * @param out    where it goes, as one line
     * @param test   the value of {@code test}
     * @param fabric the value of {@code fabric}
     * @param notes  the value of {@code notes}
     * @param rows   the runs
     */
    public void printJson(PrintWriter out, String test, String fabric, List<String> notes, List<? extends R> rows) {
        JsonReportWriter.printReport(out, test, fabric, notes, rows, (b, r) -> b.append(json(r)));
    }

    /**
     * Prints the title line of a human report, {@code remus bench TEST on FABRIC}, and a line per note.
     *
     * @param out    where they go
     * @param test   the bench command's name
     * @param fabric the fabric's name
     * @param notes  the report's notes
     */
    public static void title(PrintWriter out, String test, String fabric, List<String> notes) {
        out.println("remus bench " + test + " on " + fabric);
        for (String note : notes) {
            out.println("note: " + note);
        }
    }

    /**
     * @param v a value
     * @return it in JSON: a string literal, a number with six decimals ({@link Double}), {@code null}, or its
     *         {@code toString()}
     */
    public static String jsonValue(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return str(s);
        }
        if (v instanceof Double d) {
            return num(d);
        }
        return v.toString();
    }
}
