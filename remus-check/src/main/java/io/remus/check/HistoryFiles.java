package io.remus.check;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Histories of several processes: each process writes its own history to a file and one merge
 * reads them all back into one history.
 *
 * <p>The file is text, one operation a line after a three-line header:
 * <pre>
 * # remus-check history 1
 * clock EPOCH_MICROS
 * process 2
 * 0 write 1764047000123456 1764047000123470 (5,6) ()
 * 1 read 1764047000123460 pending () pending
 * </pre>
 * The fields of an operation line: thread, kind, invocation time, response time (or
 * {@code pending}), arguments and result as parenthesised comma-separated decimal words (the result
 * {@code pending} for a pending operation).
 *
 * <p>A fourth header line {@code offset LOW HIGH} is optional: the {@link ClockOffset} that maps
 * this file's readings onto a reference process's clock, for processes on different hosts (whose
 * clocks differ by more than their operations are apart) or of different JVMs' {@code nanoTime}.
 * A merge maps each file's operations with its offset, widening them ({@link ClockOffset#apply}).
 *
 * <p>Without offset lines, only {@link HistoryClock#EPOCH_MICROS} histories merge: they are
 * comparable between the processes of one host, while {@link HistoryClock#NANO_TIME} readings of
 * different JVMs have different origins, so merging such files of two processes is refused. Every
 * file of one merge must name the same clock.
 */
public final class HistoryFiles {
    private static final String MAGIC = "# remus-check history 1";

    private HistoryFiles() {
    }

    /**
     * Writes a history to a file.
     *
     * @param history the recorded history (its threads joined)
     * @param file    the file, replaced if it exists
     */
    public static void write(History history, Path file) {
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(file, "file");
        writeFile(history.operations(), history.clock(), history.process(), null, file);
    }

    /**
     * Writes a history to a file with the bound on its clock's offset to the reference process's.
     *
     * @param history the recorded history (its threads joined)
     * @param offset  its clock's offset to the reference clock ({@link ClockOffset#ZERO} for the reference's own history)
     * @param file    the file, replaced if it exists
     */
    public static void write(History history, ClockOffset offset, Path file) {
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(offset, "offset");
        Objects.requireNonNull(file, "file");
        writeFile(history.operations(), history.clock(), history.process(), offset, file);
    }

    /**
     * Writes operations of one process to a file.
     *
     * @param operations the operations, all of process {@code process}
     * @param clock      the clock their times come from
     * @param process    the process number
     * @param file       the file, replaced if it exists
     */
    public static void write(List<Operation> operations, HistoryClock clock, int process, Path file) {
        writeFile(operations, clock, process, null, file);
    }

    /**
     * Writes operations of one process to a file, with the bound on its clock's offset.
     *
     * @param operations the operations, all of process {@code process}
     * @param clock      the clock their times come from
     * @param process    the process number
     * @param offset     the clock's offset to the reference clock
     * @param file       the file, replaced if it exists
     */
    public static void write(List<Operation> operations, HistoryClock clock, int process, ClockOffset offset, Path file) {
        Objects.requireNonNull(offset, "offset");
        writeFile(operations, clock, process, offset, file);
    }

    /** Writes the file, with an offset line where {@code offset} is not null. */
    private static void writeFile(List<Operation> operations, HistoryClock clock, int process, ClockOffset offset, Path file) {
        Objects.requireNonNull(operations, "operations");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(file, "file");
        if (process < 0) {
            throw new HistoryFormatException("process number must be non-negative, got " + process);
        }
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(MAGIC + "\nclock " + clock.name() + "\nprocess " + process + "\n");
            if (offset != null) {
                w.write("offset " + offset.low() + " " + offset.high() + "\n");
            }
            for (Operation op : operations) {
                if (op.process() != process) {
                    throw new HistoryFormatException("operation " + op + " is not of process " + process);
                }
                w.write(op.thread() + " " + op.kind() + " " + op.invokedAt() + " "
                        + (op.isPending() ? "pending" : String.valueOf(op.respondedAt())) + " "
                        + compact(op.arguments()) + " " + (op.isPending() ? "pending" : compact(op.result())) + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write history " + file, e);
        }
    }

    /**
     * Reads one history file.
     *
     * @param file the file
     * @return its clock, process and operations (numbered in invocation order)
     */
    public static Recorded read(Path file) {
        Objects.requireNonNull(file, "file");
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read history " + file, e);
        }
        if (lines.size() < 3 || !lines.get(0).equals(MAGIC)) {
            throw new HistoryFormatException(file + ": not a history file (first line '"
                    + (lines.isEmpty() ? "" : lines.get(0)) + "', expected '" + MAGIC + "')");
        }
        HistoryClock clock = parseClock(file, lines.get(1));
        int process = count(file, 3, header(file, 3, lines.get(2), "process"), "process");
        ClockOffset offset = null;
        int first = 3;
        if (lines.size() > 3 && lines.get(3).startsWith("offset")) {
            offset = parseOffset(file, lines.get(3));
            first = 4;
        }
        List<Operation> ops = new ArrayList<>();
        for (int i = first; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                ops.add(parse(file, i + 1, lines.get(i), process));
            }
        }
        return new Recorded(clock, process, offset, History.number(ops));
    }

    /**
     * Reads several processes' history files into one history, ordered by invocation time, each
     * file's operations mapped onto the reference clock with its offset line where it has one.
     *
     * @param files the files, one per process, with distinct process numbers and one clock; where
     *              there are several, each has an offset line or the clock is
     *              {@link HistoryClock#EPOCH_MICROS}
     * @return the merged operations, numbered in invocation order
     */
    public static List<Operation> merge(List<Path> files) {
        Objects.requireNonNull(files, "files");
        List<Operation> all = new ArrayList<>();
        List<Integer> processes = new ArrayList<>();
        HistoryClock clock = null;
        for (Path f : files) {
            Recorded r = read(f);
            if (files.size() > 1 && r.offset() == null && r.clock() != HistoryClock.EPOCH_MICROS) {
                throw new HistoryFormatException(f + ": clock " + r.clock()
                        + " is per JVM and not comparable across processes; record with EPOCH_MICROS or write the clock's offset");
            }
            if (clock != null && r.clock() != clock) {
                throw new HistoryFormatException(f + ": clock " + r.clock() + " where the files before it have " + clock);
            }
            clock = r.clock();
            if (processes.contains(r.process())) {
                throw new HistoryFormatException(f + ": process " + r.process() + " appears in two files");
            }
            processes.add(r.process());
            ClockOffset offset = r.offset() == null ? ClockOffset.ZERO : r.offset();
            for (Operation op : r.operations()) {
                all.add(offset.apply(op));
            }
        }
        return History.number(all);
    }

    /**
     * The content of one history file.
     *
     * @param clock      its clock
     * @param process    its process number
     * @param offset     its clock's offset to the reference clock, or {@code null} where the file has no offset line
     * @param operations its operations, as read (not mapped with the offset)
     */
    public record Recorded(HistoryClock clock, int process, ClockOffset offset, List<Operation> operations) {
        /** Checks the components. */
        public Recorded {
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(operations, "operations");
        }
    }

    private static HistoryClock parseClock(Path file, String line) {
        String[] f = line.split(" ");
        if (f.length != 2 || !f[0].equals("clock")) {
            throw new HistoryFormatException(file + ":2: expected 'clock NAME', got '" + line + "'");
        }
        try {
            return HistoryClock.valueOf(f[1]);
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException(file + ":2: unknown clock '" + f[1] + "'", e);
        }
    }

    private static ClockOffset parseOffset(Path file, String line) {
        String[] f = line.split(" ");
        if (f.length != 3 || !f[0].equals("offset")) {
            throw new HistoryFormatException(file + ":4: expected 'offset LOW HIGH', got '" + line + "'");
        }
        long low = number(file, 4, f[1]);
        long high = number(file, 4, f[2]);
        if (low > high) {
            throw new HistoryFormatException(file + ":4: offset bounds reversed: '" + line + "'");
        }
        return new ClockOffset(low, high);
    }

    private static String header(Path file, int lineNo, String line, String name) {
        String[] f = line.split(" ");
        if (f.length != 2 || !f[0].equals(name)) {
            throw new HistoryFormatException(file + ":" + lineNo + ": expected '" + name + " N', got '" + line + "'");
        }
        return f[1];
    }

    private static Operation parse(Path file, int lineNo, String line, int process) {
        String[] f = line.trim().split(" +");
        if (f.length != 6) {
            throw new HistoryFormatException(file + ":" + lineNo + ": expected 6 fields, got " + f.length + ": '" + line + "'");
        }
        boolean pending = f[3].equals("pending");
        if (pending != f[5].equals("pending")) {
            throw new HistoryFormatException(file + ":" + lineNo + ": response time and result must both be 'pending' or neither: '" + line + "'");
        }
        try {
            return new Operation(-1, process, count(file, lineNo, f[0], "thread"), f[1], words(file, lineNo, f[4]),
                    pending ? null : words(file, lineNo, f[5]), number(file, lineNo, f[2]),
                    pending ? Operation.PENDING : number(file, lineNo, f[3]));
        } catch (HistoryFormatException e) {
            throw new HistoryFormatException(file + ":" + lineNo + ": " + e.getMessage(), e);
        }
    }

    static long number(Path file, int lineNo, String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new HistoryFormatException(file + ":" + lineNo + ": not a number: '" + s + "'", e);
        }
    }

    /**
     * {@return {@code s} as a process or thread number}
     * @throws HistoryFormatException naming the file, line and value when it is not a number in
     *                                0..{@link Integer#MAX_VALUE}
     */
    static int count(Path file, int lineNo, String s, String what) {
        long n = number(file, lineNo, s);
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new HistoryFormatException(file + ":" + lineNo + ": " + what + " number " + s + " is outside 0.."
                    + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    static long[] words(Path file, int lineNo, String s) {
        if (s.length() < 2 || s.charAt(0) != '(' || s.charAt(s.length() - 1) != ')') {
            throw new HistoryFormatException(file + ":" + lineNo + ": expected '(w,...)', got '" + s + "'");
        }
        String inner = s.substring(1, s.length() - 1);
        if (inner.isEmpty()) {
            return new long[0];
        }
        String[] parts = inner.split(",");
        long[] w = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            w[i] = number(file, lineNo, parts[i]);
        }
        return w;
    }

    static String compact(long[] w) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < w.length; i++) {
            s.append(i == 0 ? "" : ",").append(w[i]);
        }
        return s.append(')').toString();
    }
}
