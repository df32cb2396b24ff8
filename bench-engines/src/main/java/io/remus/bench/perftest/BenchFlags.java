package io.remus.bench.perftest;

import io.remus.core.error.BadArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A perftest-style run's flags as given (null where not given), checked against the engine's rules and
 * turned into {@link BenchSettings}. Every error is a {@link BadArgumentException} whose message names the
 * flag ({@code -s}, {@code -n}, {@code -D}, ...) and the bad value. The checks run in three steps, so that a
 * command can check flags of its own in between: {@link #wholeSeconds(Double)}, {@link #check()},
 * {@link #settings}.
 *
 * @param test          the test
 * @param size          {@code -s}
 * @param all           {@code -a}: every size from 2 to 8 MiB
 * @param repeat        {@code --repeat}: runs of each size in a row
 * @param iterations    {@code -n}
 * @param warmup        {@code --warmup} iterations
 * @param seconds       {@code -D}
 * @param marginSeconds {@code --margin}
 * @param txDepth       {@code -t}
 * @param queuePairs    {@code -q}
 * @param outstanding   {@code -o}
 * @param cqModeration  {@code -Q}
 * @param rxDepth       {@code -r}
 * @param qpTimeout     {@code -u}
 * @param inlineSize    {@code -I}
 * @param ibPort        {@code -i}
 * @param gidIndex      {@code -x}
 * @param atomicType    {@code -A}
 * @param timeout       {@code --timeout} in seconds
 */
public record BenchFlags(BenchTest test, Integer size, boolean all, int repeat, Long iterations, Long warmup,
                         Double seconds, Double marginSeconds, Integer txDepth, int queuePairs, Integer outstanding,
                         Integer cqModeration, int rxDepth, int qpTimeout, Integer inlineSize, int ibPort,
                         Integer gidIndex, AtomicType atomicType, double timeout) {
    /** The largest message size accepted. */
    public static final int MAX_SIZE = 1 << 28;
    /** The most iterations {@code -n} and {@code --warmup} accept: a run of them is days at any message rate. */
    public static final long MAX_ITERATIONS = 1_000_000_000_000L;
    /**
     * On the simulator, the most bytes a run with {@code -n} may move: every size (and {@code --repeat}) times
     * {@code -n} plus {@code --warmup}, times {@code -q} for bandwidth tests. The simulator copies every
     * request's bytes word by word in this process, so a run near the cap lasts minutes; a larger one is
     * refused before it starts, and {@code -D} bounds a run instead.
     */
    public static final long SIM_MAX_RUN_BYTES = 128L << 30;
    /**
     * On the simulator, the most bytes in flight at once: {@code -q} times {@code -t} times the largest size.
     * The posting thread executes what it posts, so this bounds how far one round of posts may run past
     * {@code -D} or {@code --timeout} (seconds, not minutes).
     */
    public static final long SIM_MAX_IN_FLIGHT_BYTES = 4L << 30;
    /** On the simulator, the most work requests in flight at once ({@code -q} times {@code -t}). */
    public static final int SIM_MAX_IN_FLIGHT = 1 << 16;
    /** The most runs of each size {@code --repeat} accepts. */
    public static final int MAX_REPEAT = 1000;
    /** perftest's default CQ moderation ({@code DEF_CQ_MOD}). */
    public static final int DEFAULT_CQ_MODERATION = 100;
    /** Above this message size perftest turns CQ moderation off unless asked ({@code MSG_SIZE_CQ_MOD_LIMIT}). */
    public static final int CQ_MODERATION_SIZE_LIMIT = 8192;
    private static final int ALL_SIZES_MAX = 1 << 23;
    /** Above this many bytes moved per run (all sizes, warm-up included) a run is warned about: hours at 1 GB/s. */
    public static final long LONG_RUN_BYTES = 1L << 40;
    /** The longest a verbs server waits for its client's next size or its end, in seconds. */
    public static final double MAX_IDLE_TIMEOUT_SECONDS = 86400;

    /**
     * The first step.
     *
     * @param seconds {@code -D}, or null
     * @return it in whole seconds, or null without it
     * @throws BadArgumentException when {@code -D} is not a whole number
     */
    public static Long wholeSeconds(Double seconds) {
        if (seconds != null && seconds != Math.rint(seconds)) {
            throw new BadArgumentException("-D must be a whole number of seconds, got " + seconds);
        }
        return seconds == null ? null : seconds.longValue();
    }

    /**
     * The second step: every flag in its range, and the flags that exclude each other.
     *
     * @throws BadArgumentException naming the flag and its value
     */
    public void check() {
        Long durationSeconds = wholeSeconds(seconds);
        boolean atomic = test.operation() == BenchOperation.ATOMIC;
        require(size == null || !all, "-s and -a exclude each other");
        require(size == null || (size >= 1 && size <= MAX_SIZE), "-s must be 1.." + MAX_SIZE + ", got " + size);
        require(!atomic || size == null || size == 8, "atomic tests use 8-byte messages, got -s " + size);
        require(repeat >= 1 && repeat <= MAX_REPEAT, "--repeat must be 1.." + MAX_REPEAT + ", got " + repeat);
        require(iterations == null || (iterations >= 1 && iterations <= MAX_ITERATIONS),
                "-n must be 1.." + MAX_ITERATIONS + ", got " + iterations);
        require(durationSeconds == null || durationSeconds >= 1, "-D must be at least 1 second, got " + durationSeconds);
        require(durationSeconds == null || iterations == null, "-D and -n exclude each other");
        require(marginSeconds == null || durationSeconds != null, "--margin applies only with -D");
        require(txDepth == null || (txDepth >= 1 && txDepth <= 16384), "-t must be 1..16384, got " + txDepth);
        require(queuePairs >= 1 && queuePairs <= 1024, "-q must be 1..1024, got " + queuePairs);
        require(outstanding == null || (outstanding >= 1 && outstanding <= 255), "-o must be 1..255, got " + outstanding);
        require(cqModeration == null || (cqModeration >= 1 && cqModeration <= 1024),
                "-Q must be 1..1024, got " + cqModeration);
        require(cqModeration == null || !test.isLatency(),
                "-Q applies to bandwidth tests (latency tests wait for every completion)");
        require(!test.isLatency() || (queuePairs == 1 && (txDepth == null || txDepth == 1)),
                "latency tests run one work request at a time on one QP (-q 1, -t 1), as in perftest");
        require(rxDepth >= 1 && rxDepth <= 16384, "-r must be 1..16384, got " + rxDepth);
        require(qpTimeout >= 0 && qpTimeout <= 31, "-u must be 0..31, got " + qpTimeout);
        require(inlineSize == null || inlineSize >= 0, "-I must not be negative, got " + inlineSize);
        require(ibPort >= 1 && ibPort <= 255, "-i must be 1..255, got " + ibPort);
        require(gidIndex == null || gidIndex >= 0, "-x must not be negative, got " + gidIndex);
        require(timeout > 0 && timeout <= 3600, "--timeout must be in (0, 3600] seconds, got " + timeout);
    }

    /**
     * The last step: the settings, with perftest's defaults for what was not given.
     *
     * @param notes where a setting that differs from what was asked is explained (the TX depth capped at
     *              {@code -n})
     * @return the settings
     * @throws BadArgumentException naming {@code --warmup} or {@code --margin} when out of range
     */
    public BenchSettings settings(List<String> notes) {
        Long durationSeconds = wholeSeconds(seconds);
        List<Integer> sizes = repeated(sizes());
        long n = iterations != null ? iterations : test.defaultIterations();
        require(warmup == null || (warmup >= 0 && warmup <= MAX_ITERATIONS),
                "--warmup must be 0.." + MAX_ITERATIONS + ", got " + warmup);
        long warm = warmup != null ? warmup : n / 10;
        Duration duration = durationSeconds == null ? null : Duration.ofSeconds(durationSeconds);
        Duration margin = null;
        if (duration != null) {
            margin = marginSeconds != null ? Duration.ofMillis(Math.round(marginSeconds * 1000))
                    : Duration.ofMillis(Math.min(2000, duration.toMillis() / 4));
            require(!margin.isNegative() && margin.multipliedBy(2).compareTo(duration) < 0,
                    "--margin must be at least 0 and less than half of -D");
        }
        int depth = txDepth != null ? txDepth : test.defaultTxDepth();
        if (duration == null && depth > n) {
            notes.add("TX depth " + depth + " capped at -n " + n + " (as perftest: no more work requests in "
                    + "flight than the run has)");
            depth = (int) n;
        }
        return new BenchSettings(test, sizes, n, warm, duration, margin, depth, queuePairs,
                outstanding == null ? BenchSettings.DEVICE_MOST_READS : outstanding,
                cqModeration(sizes, depth), atomicType, Duration.ofNanos(Math.round(timeout * 1e9)));
    }

    /**
     * The simulator's bounds on a run, checked before anything is allocated: at most
     * {@link #SIM_MAX_IN_FLIGHT} work requests and {@link #SIM_MAX_IN_FLIGHT_BYTES} in flight, and, without
     * {@code -D}, at most {@link #SIM_MAX_RUN_BYTES} moved. No bound applies on verbs, where the device
     * limits the queues and moves the bytes.
     *
     * @param s    the settings made of these flags
     * @param kind the fabric
     * @throws BadArgumentException naming the flags and the amount when a bound is passed
     */
    public void checkSimulatorBounds(BenchSettings s, FabricKind kind) {
        if (kind != FabricKind.SIM) {
            return;
        }
        int qps = test.isLatency() ? 1 : s.queuePairs();
        int depth = test.isLatency() ? 1 : Math.max(1, s.txDepth());
        long requests = (long) qps * depth;
        String t = !test.isLatency() && txDepth != null && txDepth != depth ? txDepth + " (" + depth + " after the cap at -n)"
                : String.valueOf(depth);
        require(requests <= SIM_MAX_IN_FLIGHT, "-q " + qps + " x -t " + t + " = " + requests + " work requests in "
                + "flight: the simulator holds at most " + SIM_MAX_IN_FLIGHT + " (it queues and executes each in this "
                + "process); lower -q or -t");
        long inFlight = requests * s.maxSize();
        if (inFlight > SIM_MAX_IN_FLIGHT_BYTES) {
            throw new BadArgumentException(String.format(Locale.ROOT, "-s %d with -q %d x -t %s puts %.1f GiB in flight: the "
                    + "simulator copies at most %d GiB per round of posts, so that -D and --timeout bound the run; "
                    + "lower -s, -q or -t", s.maxSize(), qps, t, inFlight / (double) (1L << 30),
                    SIM_MAX_IN_FLIGHT_BYTES >> 30));
        }
        if (s.durationMode()) {
            return;
        }
        double bytes = 0;
        for (int size : s.sizes()) {
            bytes += (double) size * ((double) s.iterations() + s.warmupIterations()) * qps;
        }
        if (bytes > SIM_MAX_RUN_BYTES) {
            throw new BadArgumentException(String.format(Locale.ROOT, "on the simulator this run moves %.1f GiB (-s %d, -n %d, "
                    + "--warmup %d%s), more than its cap of %d GiB per run (the simulator copies every byte in this "
                    + "process); lower -n or -s, or bound the run with -D", bytes / (1L << 30),
                    s.maxSize(), s.iterations(), s.warmupIterations(), test.isLatency() ? "" : ", -q " + qps,
                    SIM_MAX_RUN_BYTES >> 30));
        }
    }

    /**
     * @param s      the settings
     * @param kind   the fabric
     * @param memory this host's physical memory in bytes, or a negative value when unknown
     * @throws BadArgumentException when the run's buffers ({@code -s} or {@code -a} times {@code -q}) exceed it:
     *                              the simulator holds both sides' buffers in this process
     */
    public static void checkBuffers(BenchSettings s, FabricKind kind, long memory) {
        long bytes = bufferBytes(s) * (kind == FabricKind.SIM ? 2 : 1);
        require(memory <= 0 || bytes <= memory, "-s " + s.maxSize() + " with -q " + s.queuePairs() + " needs "
                + (bytes >> 20) + " MiB of buffers" + (kind == FabricKind.SIM ? " (both sides, in this process)" : "")
                + ", more than this host's " + (memory >> 20) + " MiB of memory");
    }

    /**
     * The flags of the verbs connection and of the simulator's injected latency, checked after {@link #check()}.
     *
     * @param server             the server address, or null on the server
     * @param idleTimeoutSeconds {@code --idle-timeout}
     * @param idleTimeoutGiven   whether {@code --idle-timeout} was given
     * @param tcpPort            {@code -p}
     * @param rdmaCm             {@code -R}
     * @param qpTimeoutGiven     whether {@code -u} was given
     * @param simLatencyNanos    {@code --sim-latency-ns}
     * @throws BadArgumentException naming the flag and its value when one is out of range, or flags that
     *                              exclude each other
     */
    public void checkConnection(String server, double idleTimeoutSeconds, boolean idleTimeoutGiven, int tcpPort,
                                boolean rdmaCm, boolean qpTimeoutGiven, long simLatencyNanos) {
        require(idleTimeoutSeconds > 0 && idleTimeoutSeconds <= MAX_IDLE_TIMEOUT_SECONDS,
                "--idle-timeout must be in (0, 86400] seconds, got " + idleTimeoutSeconds);
        require(server == null || !idleTimeoutGiven, "--idle-timeout is the server's wait for its client: not for a "
                + "client (server address " + server + ")");
        require(tcpPort >= 1 && tcpPort <= 65535, "-p must be 1..65535, got " + tcpPort);
        require(!rdmaCm || !qpTimeoutGiven, "-u and -R exclude each other: with -R rdma_cm chooses the QPs' ACK timeout");
        require(simLatencyNanos >= 0, "--sim-latency-ns must not be negative, got " + simLatencyNanos);
        require(simLatencyNanos <= timeout * 1e9, "--sim-latency-ns " + simLatencyNanos + " is longer than --timeout "
                + timeout + " s: every work request would time out");
    }

    /**
     * @param port   {@code -i}
     * @param device {@code -d}, or null for the first device
     * @param ports  how many ports the device has
     * @throws BenchFailedException when the device has no such port
     */
    public static void checkPort(int port, String device, int ports) {
        if (port > ports) {
            throw new BenchFailedException("-i " + port + ": " + (device != null ? "device " + device
                    : "the first RDMA device") + " has " + (ports == 1 ? "port 1 only" : "ports 1.." + ports));
        }
    }

    /**
     * @param s the settings
     * @return a digest of what both sides of a verbs run must agree on (stable across JVMs)
     */
    public static int signature(BenchSettings s) {
        return java.util.Objects.hash(s.test().commandName(), s.sizes(), s.iterations(), s.warmupIterations(),
                s.duration(), s.margin(), s.queuePairs());
    }

    /**
     * @param s the settings
     * @return a warning, one line, when an iteration-mode run moves more than {@link #LONG_RUN_BYTES} bytes
     *         (sizes times warm-up and measured iterations, times QPs), else null
     */
    public static String longRunWarning(BenchSettings s) {
        if (s.durationMode()) {
            return null;
        }
        boolean latency = s.test().isLatency();
        double bytes = 0;
        for (int size : s.sizes()) {
            bytes += (double) size * (s.iterations() + s.warmupIterations()) * (latency ? 1 : s.queuePairs());
        }
        if (bytes <= LONG_RUN_BYTES) {
            return null;
        }
        return String.format(Locale.ROOT, "this run moves %.1f TiB (-s %d, -n %d, --warmup %d%s): hours at 1 GB/s; "
                + "lower -n or -s, or give -D", bytes / LONG_RUN_BYTES, s.maxSize(), s.iterations(),
                s.warmupIterations(), latency ? "" : ", -q " + s.queuePairs());
    }

    /** @return this host's physical memory in bytes, or -1 when the JVM cannot tell ({@link #checkBuffers}'s) */
    public static long physicalMemoryBytes() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return -1;
    }

    /**
     * @param s the settings
     * @return the bytes of one side's buffers
     */
    public static long bufferBytes(BenchSettings s) {
        return Bandwidth.bufferBytes(s.maxSize(), s.queuePairs(), s.test() == BenchTest.SEND_BW);
    }

    /**
     * perftest's rule: 100, or what {@code -Q} says; 1 for a single size above 8192 bytes unless {@code -Q}
     * is given (there it buys nothing, and a completion per 100 large messages makes the last ones' time
     * coarse); never more than the TX depth. Latency tests: 1.
     */
    private int cqModeration(List<Integer> sizes, int depth) {
        if (test.isLatency()) {
            return 1;
        }
        int q = cqModeration != null ? cqModeration : DEFAULT_CQ_MODERATION;
        if (cqModeration == null && !all && sizes.getFirst() > CQ_MODERATION_SIZE_LIMIT) {
            q = 1;
        }
        return Math.min(q, depth);
    }

    private List<Integer> sizes() {
        if (test.operation() == BenchOperation.ATOMIC) {
            return List.of(8);
        }
        if (!all) {
            return List.of(size != null ? size : test.defaultSize());
        }
        List<Integer> sizes = new ArrayList<>();
        for (int s = 2; s <= ALL_SIZES_MAX; s *= 2) {
            sizes.add(s);
        }
        return sizes;
    }

    /** @return each of {@code sizes} {@code repeat} times in a row */
    private List<Integer> repeated(List<Integer> sizes) {
        List<Integer> runs = new ArrayList<>(sizes.size() * repeat);
        for (int s : sizes) {
            for (int r = 0; r < repeat; r++) {
                runs.add(s);
            }
        }
        return runs;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new BadArgumentException(message);
        }
    }
}
