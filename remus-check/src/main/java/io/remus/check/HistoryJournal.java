package io.remus.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A history written as it happens, one event at a time, so that it survives its process being killed
 * ({@code SIGKILL}) at any moment: each invocation and each response is one line, appended by one
 * {@code write} system call before the call it records starts (an invocation) or after it returned (a
 * response). A killed process's written lines are in the kernel's page cache and stay in the file; an
 * invocation without a response line is a pending operation ({@link Operation#isPending()}), which the
 * checker may linearize or leave out, as Herlihy and Wing allow for an operation that never returned.
 *
 * <p>The file is text: a three-line header as {@link HistoryFiles}' (with its own first line), then one
 * event a line:
 * <pre>
 * # remus-check journal 1
 * clock EPOCH_MICROS
 * process 2
 * i 0 7 add 1764047000123456 (5)
 * r 7 1764047000123470 (1)
 * i 1 8 take 1764047000123460 ()
 * v 8 1764047000124000
 * </pre>
 * {@code i THREAD OP KIND TIME (ARGS)}: operation {@code OP} (numbered by the writer, unique in the file)
 * invoked by thread {@code THREAD}; {@code r OP TIME (RESULT)}: its response; {@code v OP TIME}: the call
 * ended without taking effect (it threw an exception that promises so, such as a timeout before any
 * change), and the operation is left out of the history. Words are decimal, comma-separated, in
 * parentheses. A last line without its newline is a write cut short and is ignored.
 *
 * <p>The writer is safe for use by several threads (each event is appended under the writer's lock).
 * Writing costs one system call per event, no {@code fsync}: the journal survives the death of its
 * process, not of its host.
 */
public final class HistoryJournal implements AutoCloseable {
    private static final String MAGIC = "# remus-check journal 1";

    private final FileChannel channel;
    private final HistoryClock clock;
    private final Path file;
    private final java.util.BitSet pending = new java.util.BitSet();
    private int next;

    private HistoryJournal(FileChannel channel, HistoryClock clock, Path file) {
        this.channel = channel;
        this.clock = clock;
        this.file = file;
    }

    /**
     * Creates a journal file and writes its header.
     *
     * @param file    the file, which must not exist
     * @param clock   the clock of the events' times ({@link HistoryClock#EPOCH_MICROS} to merge with other processes')
     * @param process this process's number
     * @return the open journal
     * @throws HistoryFormatException naming the value, for a negative process number
     */
    public static HistoryJournal create(Path file, HistoryClock clock, int process) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(clock, "clock");
        if (process < 0) {
            throw new HistoryFormatException("process number must be non-negative, got " + process);
        }
        try {
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            HistoryJournal j = new HistoryJournal(ch, clock, file);
            j.append(MAGIC + "\nclock " + clock.name() + "\nprocess " + process + "\n");
            return j;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create journal " + file, e);
        }
    }

    /**
     * Appends an invocation, with the clock read now: call it before the operation starts.
     *
     * @param thread    the invoking thread's number within the process, non-negative
     * @param kind      the operation's name, a word without blanks
     * @param arguments its argument words
     * @return the operation's number, for {@link #respond} or {@link #voided}
     * @throws HistoryFormatException naming the value, for a kind that is no word or a negative thread
     */
    public synchronized int invoke(int thread, String kind, long... arguments) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(arguments, "arguments");
        if (kind.isEmpty() || kind.chars().anyMatch(Character::isWhitespace)) {
            throw new HistoryFormatException("operation kind must be a non-empty word without blanks, got '" + kind + "'");
        }
        if (thread < 0) {
            throw new HistoryFormatException("thread number must be non-negative, got " + thread);
        }
        if (next == Integer.MAX_VALUE) {
            throw new HistoryFormatException("journal " + file + " holds " + next + " operations, the most it numbers");
        }
        int op = next;
        append("i " + thread + " " + op + " " + kind + " " + clock.now() + " " + HistoryFiles.compact(arguments) + "\n");
        next = op + 1;
        pending.set(op);
        return op;
    }

    /**
     * Appends a response, with the clock read now: call it after the operation returned.
     *
     * @param op     the number {@link #invoke} returned
     * @param result the result words
     * @throws HistoryFormatException naming {@code op} when this journal invoked no such operation or
     *                                it already ended (nothing is appended)
     */
    public synchronized void respond(int op, long... result) {
        Objects.requireNonNull(result, "result");
        requirePending(op, "respond");
        append("r " + op + " " + clock.now() + " " + HistoryFiles.compact(result) + "\n");
        pending.clear(op);
    }

    /**
     * Appends that the operation ended without taking effect: it is left out of the history.
     *
     * @param op the number {@link #invoke} returned
     * @throws HistoryFormatException naming {@code op} when this journal invoked no such operation or
     *                                it already ended (nothing is appended)
     */
    public synchronized void voided(int op) {
        requirePending(op, "voided");
        append("v " + op + " " + clock.now() + "\n");
        pending.clear(op);
    }

    private void requirePending(int op, String event) {
        if (op < 0 || !pending.get(op)) {
            throw new HistoryFormatException("journal " + file + ": " + event + "(" + op + ") names no pending operation ("
                    + (op >= 0 && op < next ? "it already ended" : next + " invoked") + ")");
        }
    }

    /** Closes the file; what was appended stays. */
    @Override
    public synchronized void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close journal " + file, e);
        }
    }

    private void append(String line) {
        ByteBuffer b = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
        try {
            while (b.hasRemaining()) {
                channel.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to journal " + file, e);
        }
    }

    /**
     * Reads a journal: its operations in invocation order, those without a response pending, voided ones
     * left out.
     *
     * @param file the journal
     * @return its clock, process and operations (without an offset)
     * @throws HistoryFormatException naming the line, for a file that is no journal or an event that does
     *                                not fit (a response to no invocation, a second response)
     */
    public static HistoryFiles.Recorded read(Path file) {
        Objects.requireNonNull(file, "file");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read journal " + file, e);
        }
        int end = text.lastIndexOf('\n');
        String[] lines = end < 0 ? new String[0] : text.substring(0, end).split("\n", -1);
        if (lines.length < 3 || !lines[0].equals(MAGIC)) {
            throw new HistoryFormatException(file + ": not a journal (first line '" + (lines.length == 0 ? "" : lines[0])
                    + "', expected '" + MAGIC + "')");
        }
        HistoryClock clock;
        try {
            clock = HistoryClock.valueOf(field(file, 2, lines[1], "clock"));
        } catch (IllegalArgumentException e) {
            throw new HistoryFormatException(file + ":2: unknown clock in '" + lines[1] + "'", e);
        }
        int process = HistoryFiles.count(file, 3, field(file, 3, lines[2], "process"), "process");
        Map<Long, Operation> ops = new HashMap<>();
        Map<Long, Boolean> ended = new HashMap<>();
        List<Long> order = new ArrayList<>();
        for (int i = 3; i < lines.length; i++) {
            int lineNo = i + 1;
            String[] f = lines[i].trim().split(" +");
            if (f.length == 1 && f[0].isEmpty()) {
                continue;
            }
            switch (f[0]) {
                case "i" -> {
                    expect(file, lineNo, lines[i], f, 6);
                    long op = HistoryFiles.number(file, lineNo, f[2]);
                    if (ops.containsKey(op)) {
                        throw new HistoryFormatException(file + ":" + lineNo + ": operation " + op + " invoked twice");
                    }
                    int thread = HistoryFiles.count(file, lineNo, f[1], "thread");
                    long[] arguments = HistoryFiles.words(file, lineNo, f[5]);
                    long invokedAt = HistoryFiles.number(file, lineNo, f[4]);
                    try {
                        ops.put(op, new Operation(-1, process, thread, f[3], arguments, null, invokedAt, Operation.PENDING));
                    } catch (HistoryFormatException e) {
                        throw new HistoryFormatException(file + ":" + lineNo + ": " + e.getMessage(), e);
                    }
                    order.add(op);
                }
                case "r", "v" -> {
                    expect(file, lineNo, lines[i], f, f[0].equals("r") ? 4 : 3);
                    long op = HistoryFiles.number(file, lineNo, f[1]);
                    Operation invoked = ops.get(op);
                    if (invoked == null) {
                        throw new HistoryFormatException(file + ":" + lineNo + ": operation " + op + " ended but was never invoked");
                    }
                    if (ended.put(op, f[0].equals("r")) != null) {
                        throw new HistoryFormatException(file + ":" + lineNo + ": operation " + op + " ended twice");
                    }
                    if (f[0].equals("r")) {
                        try {
                            ops.put(op, new Operation(-1, process, invoked.thread(), invoked.kind(), invoked.arguments(),
                                    HistoryFiles.words(file, lineNo, f[3]), invoked.invokedAt(), HistoryFiles.number(file, lineNo, f[2])));
                        } catch (HistoryFormatException e) {
                            throw new HistoryFormatException(file + ":" + lineNo + ": " + e.getMessage(), e);
                        }
                    }
                }
                default -> throw new HistoryFormatException(file + ":" + lineNo + ": unknown event '" + f[0] + "' in '"
                        + lines[i] + "'");
            }
        }
        List<Operation> kept = new ArrayList<>();
        for (long op : order) {
            if (!Boolean.FALSE.equals(ended.get(op))) {
                kept.add(ops.get(op));
            }
        }
        return new HistoryFiles.Recorded(clock, process, null, History.number(kept));
    }

    /**
     * Reads several processes' journals into one history.
     *
     * @param files the journals, one per process, with distinct process numbers, all of clock
     *              {@link HistoryClock#EPOCH_MICROS} where there are several
     * @return the merged operations, numbered in invocation order
     */
    public static List<Operation> merge(List<Path> files) {
        Objects.requireNonNull(files, "files");
        List<Operation> all = new ArrayList<>();
        List<Integer> processes = new ArrayList<>();
        for (Path f : files) {
            HistoryFiles.Recorded r = read(f);
            if (files.size() > 1 && r.clock() != HistoryClock.EPOCH_MICROS) {
                throw new HistoryFormatException(f + ": clock " + r.clock() + " is per JVM and not comparable across processes");
            }
            if (processes.contains(r.process())) {
                throw new HistoryFormatException(f + ": process " + r.process() + " appears in two journals");
            }
            processes.add(r.process());
            all.addAll(r.operations());
        }
        return History.number(all);
    }

    private static void expect(Path file, int lineNo, String line, String[] f, int fields) {
        if (f.length != fields) {
            throw new HistoryFormatException(file + ":" + lineNo + ": expected " + fields + " fields, got " + f.length + ": '" + line + "'");
        }
    }

    private static String field(Path file, int lineNo, String line, String name) {
        String[] f = line.split(" ");
        if (f.length != 2 || !f[0].equals(name)) {
            throw new HistoryFormatException(file + ":" + lineNo + ": expected '" + name + " VALUE', got '" + line + "'");
        }
        return f[1];
    }
}
