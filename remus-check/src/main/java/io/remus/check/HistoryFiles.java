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
 * <p>Only {@link HistoryClock#EPOCH_MICROS} histories merge: {@link HistoryClock#NANO_TIME}
 * readings of different JVMs have different origins and are not comparable, so merging such files
 * of two processes is refused.
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
        write(history.operations(), history.clock(), history.process(), file);
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
        Objects.requireNonNull(operations, "operations");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(file, "file");
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(MAGIC + "\nclock " + clock.name() + "\nprocess " + process + "\n");
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
        int process = (int) header(file, 3, lines.get(2), "process");
        List<Operation> ops = new ArrayList<>();
        for (int i = 3; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                ops.add(parse(file, i + 1, lines.get(i), process));
            }
        }
        return new Recorded(clock, process, History.number(ops));
    }

    /**
     * Reads several processes' history files into one history, ordered by invocation time.
     *
     * @param files the files, one per process; all of clock {@link HistoryClock#EPOCH_MICROS}
     *              unless there is one file, with distinct process numbers
     * @return the merged operations, numbered in invocation order
     */
    public static List<Operation> merge(List<Path> files) {
        Objects.requireNonNull(files, "files");
        List<Operation> all = new ArrayList<>();
        List<Integer> processes = new ArrayList<>();
        for (Path f : files) {
            Recorded r = read(f);
            if (files.size() > 1 && r.clock() != HistoryClock.EPOCH_MICROS) {
                throw new HistoryFormatException(f + ": clock " + r.clock()
                        + " is per JVM and not comparable across processes; record with EPOCH_MICROS");
            }
            if (processes.contains(r.process())) {
                throw new HistoryFormatException(f + ": process " + r.process() + " appears in two files");
            }
            processes.add(r.process());
            all.addAll(r.operations());
        }
        return History.number(all);
    }

    /**
     * The content of one history file.
     *
     * @param clock      its clock
     * @param process    its process number
     * @param operations its operations
     */
    public record Recorded(HistoryClock clock, int process, List<Operation> operations) {
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

    private static long header(Path file, int lineNo, String line, String name) {
        String[] f = line.split(" ");
        if (f.length != 2 || !f[0].equals(name)) {
            throw new HistoryFormatException(file + ":" + lineNo + ": expected '" + name + " N', got '" + line + "'");
        }
        return number(file, lineNo, f[1]);
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
            return new Operation(-1, process, (int) number(file, lineNo, f[0]), f[1], words(file, lineNo, f[4]),
                    pending ? null : words(file, lineNo, f[5]), number(file, lineNo, f[2]),
                    pending ? Operation.PENDING : number(file, lineNo, f[3]));
        } catch (HistoryFormatException e) {
            throw new HistoryFormatException(file + ":" + lineNo + ": " + e.getMessage(), e);
        }
    }

    private static long number(Path file, int lineNo, String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new HistoryFormatException(file + ":" + lineNo + ": not a number: '" + s + "'", e);
        }
    }

    private static long[] words(Path file, int lineNo, String s) {
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

    private static String compact(long[] w) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < w.length; i++) {
            s.append(i == 0 ? "" : ",").append(w[i]);
        }
        return s.append(')').toString();
    }
}
