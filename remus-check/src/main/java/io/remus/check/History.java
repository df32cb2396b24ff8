package io.remus.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A history recorder: each recording thread takes its own {@link Recorder} and writes invocation
 * and response events into it; {@link #operations()} collects them, once the threads are joined,
 * as the list of {@link Operation}s the checker reads.
 *
 * <p>Recording allocates nothing per operation in steady state (beyond what the clock's reading
 * may, see {@link HistoryClock}): a recorder keeps parallel
 * primitive arrays (kind references, up to {@value #MAX_WORDS} argument and result words, two
 * clock readings) that double when full. A recorder is confined to its thread; only
 * {@link #recorder(int)} is synchronised.
 *
 * <pre>{@code
 * History history = new History(HistoryClock.NANO_TIME);
 * // on each worker thread t:
 * History.Recorder r = history.recorder(t);
 * int op = r.invoke("write", v);
 * register.write(v);
 * r.respond(op);
 * // after joining the workers:
 * checker.check(history.operations(), new RegisterSpec(1)).assertLinearizable();
 * }</pre>
 *
 * <p>An operation invoked and never responded to (its thread threw, died or was stopped) is
 * recorded as pending ({@link Operation#isPending()}).
 */
public final class History {
    /** The most argument words and the most result words one recorded operation has. */
    public static final int MAX_WORDS = 2;

    private final HistoryClock clock;
    private final int process;
    private final List<Recorder> recorders = new ArrayList<>();

    /**
     * A history of process 0.
     *
     * @param clock where timestamps come from
     */
    public History(HistoryClock clock) {
        this(clock, 0);
    }

    /**
     * A history of one of several processes whose histories are merged.
     *
     * @param clock   where timestamps come from ({@link HistoryClock#EPOCH_MICROS} when the history
     *                is merged with other processes')
     * @param process this process's number among those whose histories are merged
     */
    public History(HistoryClock clock, int process) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (process < 0) {
            throw new HistoryFormatException("process number must be non-negative, got " + process);
        }
        this.process = process;
    }

    /** {@return the clock} */
    public HistoryClock clock() {
        return clock;
    }

    /** {@return the process number} */
    public int process() {
        return process;
    }

    /**
     * A recorder for one thread, with room for 1024 operations before it grows.
     *
     * @param thread the thread's number, non-negative and unique within this history
     * @return its recorder
     * @throws HistoryFormatException naming the number when it is negative or already has a recorder
     */
    public synchronized Recorder recorder(int thread) {
        if (thread < 0) {
            throw new HistoryFormatException("thread number must be non-negative, got " + thread);
        }
        for (Recorder r : recorders) {
            if (r.thread == thread) {
                throw new HistoryFormatException("thread " + thread + " already has a recorder");
            }
        }
        Recorder r = new Recorder(thread, 1024);
        recorders.add(r);
        return r;
    }

    /**
     * The recorded operations of all threads, ordered by invocation time, with ids 0, 1, ... in that
     * order. Call it after the recording threads are joined (the join makes their writes visible).
     *
     * @return the operations
     */
    public synchronized List<Operation> operations() {
        List<Operation> all = new ArrayList<>();
        for (Recorder r : recorders) {
            r.appendTo(all, process);
        }
        return number(all);
    }

    /**
     * Sorts operations by invocation time (then process, thread) and numbers them.
     *
     * @param operations operations of one or more threads or processes
     * @return a new list, ids 0, 1, ... in invocation order
     */
    public static List<Operation> number(List<Operation> operations) {
        Objects.requireNonNull(operations, "operations");
        List<Operation> sorted = new ArrayList<>(operations);
        sorted.sort(Comparator.comparingLong(Operation::invokedAt).thenComparingInt(Operation::process)
                .thenComparingInt(Operation::thread));
        List<Operation> out = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            out.add(sorted.get(i).withId(i));
        }
        return out;
    }

    /**
     * One thread's recording: {@link #invoke} before the operation, {@link #respond} after it.
     * Confined to its thread.
     */
    public final class Recorder {
        private static final long NONE = Long.MIN_VALUE;

        private final int thread;
        private int size;
        private String[] kinds;
        private byte[] argumentCounts;
        private byte[] resultCounts;
        private long[] arguments;
        private long[] results;
        private long[] invoked;
        private long[] responded;

        private Recorder(int thread, int capacity) {
            this.thread = thread;
            kinds = new String[capacity];
            argumentCounts = new byte[capacity];
            resultCounts = new byte[capacity];
            arguments = new long[capacity * MAX_WORDS];
            results = new long[capacity * MAX_WORDS];
            invoked = new long[capacity];
            responded = new long[capacity];
        }

        /** {@return the thread number} */
        public int thread() {
            return thread;
        }

        /** {@return how many operations were invoked} */
        public int size() {
            return size;
        }

        /**
         * Records the invocation of an operation without arguments.
         *
         * @param kind the operation's name
         * @return the handle to pass to {@code respond}
         */
        public int invoke(String kind) {
            return begin(kind, 0, 0, 0);
        }

        /**
         * Records the invocation of an operation with one argument.
         *
         * @param kind     the operation's name
         * @param argument its argument
         * @return the handle to pass to {@code respond}
         */
        public int invoke(String kind, long argument) {
            return begin(kind, 1, argument, 0);
        }

        /**
         * Records the invocation of an operation with two arguments.
         *
         * @param kind  the operation's name
         * @param first its first argument
         * @param second its second argument
         * @return the handle to pass to {@code respond}
         */
        public int invoke(String kind, long first, long second) {
            return begin(kind, 2, first, second);
        }

        /**
         * Records the response of an operation that returned nothing.
         *
         * @param op the handle {@code invoke} returned; the operation returned nothing
         */
        public void respond(int op) {
            end(op, 0, 0, 0);
        }

        /**
         * Records the response of an operation that returned one word.
         *
         * @param op     the handle {@code invoke} returned
         * @param result the operation's result
         */
        public void respond(int op, long result) {
            end(op, 1, result, 0);
        }

        /**
         * Records the response of an operation that returned two words.
         *
         * @param op     the handle {@code invoke} returned
         * @param first  the first result word
         * @param second the second result word
         */
        public void respond(int op, long first, long second) {
            end(op, 2, first, second);
        }

        private int begin(String kind, int argc, long a0, long a1) {
            Objects.requireNonNull(kind, "kind");
            if (size == kinds.length) {
                grow();
            }
            int i = size;
            kinds[i] = kind;
            argumentCounts[i] = (byte) argc;
            arguments[i * MAX_WORDS] = a0;
            arguments[i * MAX_WORDS + 1] = a1;
            responded[i] = NONE;
            size = i + 1;
            invoked[i] = clock.now();
            return i;
        }

        private void end(int op, int resultCount, long r0, long r1) {
            long t = clock.now();
            if (op < 0 || op >= size || responded[op] != NONE) {
                throw new HistoryFormatException("thread " + thread + ": respond(" + op
                        + ") names no pending operation (" + size + " invoked)");
            }
            resultCounts[op] = (byte) resultCount;
            results[op * MAX_WORDS] = r0;
            results[op * MAX_WORDS + 1] = r1;
            responded[op] = t;
        }

        private void grow() {
            int capacity = kinds.length * 2;
            kinds = Arrays.copyOf(kinds, capacity);
            argumentCounts = Arrays.copyOf(argumentCounts, capacity);
            resultCounts = Arrays.copyOf(resultCounts, capacity);
            arguments = Arrays.copyOf(arguments, capacity * MAX_WORDS);
            results = Arrays.copyOf(results, capacity * MAX_WORDS);
            invoked = Arrays.copyOf(invoked, capacity);
            responded = Arrays.copyOf(responded, capacity);
        }

        private void appendTo(List<Operation> out, int process) {
            for (int i = 0; i < size; i++) {
                long[] args = Arrays.copyOfRange(arguments, i * MAX_WORDS, i * MAX_WORDS + argumentCounts[i]);
                boolean pending = responded[i] == NONE;
                long[] res = pending ? null : Arrays.copyOfRange(results, i * MAX_WORDS, i * MAX_WORDS + resultCounts[i]);
                out.add(new Operation(-1, process, thread, kinds[i], args, res, invoked[i],
                        pending ? Operation.PENDING : responded[i]));
            }
        }
    }
}
