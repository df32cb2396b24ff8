package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A named cost model for the simulated NIC: how long a work request takes before its completion
 * becomes pollable, how NIC atomics on one word wait for each other, and, where the model gives a NIC
 * message rate, how requests to one node wait for its NIC.
 *
 * <p>How the simulator applies it, per work request posted at time {@code t} (on top of
 * {@link SimOptions#executionLatencyNanos()} and {@link SimOptions#completionDelayNanos()}, which
 * add to it):
 * <ul>
 *   <li>READ: it executes (reads the target's memory) at {@code t + rtt/2} and completes at
 *       {@code t + rtt + bytes * picosPerByte / 1000}, the data riding the response;</li>
 *   <li>WRITE, SEND, WRITE_WITH_IMMEDIATE: it executes (the data lands, the receive completes) at
 *       {@code t + rtt/2 + bytes * picosPerByte / 1000} and completes {@code rtt/2} later;</li>
 *   <li>COMPARE_AND_SWAP, FETCH_AND_ADD: the target NIC's atomic unit of the addressed 8-byte word
 *       serves one atomic at a time. The request reaches it at {@code t + atomic/2}, starts when the
 *       unit is free ({@code start = max(t + atomic/2, free)}), keeps the unit busy for
 *       {@code atomicUnitNanos} ({@code free = start + atomicUnitNanos}) and completes at
 *       {@code start + atomic/2}. Atomics on different words do not wait for each other's units.</li>
 *   <li>NIC message rate ({@link #nicRequestPicos()} above zero): the target node's NIC serves, as
 *       responder, one request at a time, each for {@code max(nicRequestPicos, bytes * picosPerByte)}
 *       picoseconds (its message rate, or its link when the payload is large), in the order requests
 *       reach it: a request that would execute at {@code e} above executes at {@code max(e, free)}
 *       instead, and completes that much later. The limit is the responder's because the published
 *       rates are inbound ones (a server NIC answering many clients) and because a loopback request,
 *       which is both, is charged once. A model without a message rate has neither this limit nor a
 *       link that requests share: each request is charged its own transfer only.</li>
 *   <li>NIC atomic rate ({@link #nicAtomicPicos()} above zero): the target NIC executes one atomic at
 *       a time across all words, each for {@code nicAtomicPicos}, before the word's own unit.</li>
 * </ul>
 * Loopback (a node's request to its own memory) costs what a remote request costs: the simulator
 * does not tell them apart, as an RDMA NIC does not (the premise of the ALock paper). A CPU load or
 * store of a node's own memory does not pass through the fabric: on host threads it costs what the host
 * takes; under virtual time {@link VirtualTimeOptions#withCpu} charges it {@link #localAccessNanos()}.
 *
 * <p>The simulator never waits for a cost: a cost becomes the time at which a request executes and
 * the time from which its completion is pollable, and nothing executes before its time. The thread
 * waiting for a completion waits in its own loop ({@code ComputeThread}'s await and
 * {@code CompletionQueue.poll(out, timeout)} spin and then yield the processor between polls). Costs
 * of a few microseconds lie far below {@code LockSupport.parkNanos}'s granularity on Linux (about 50
 * to 100 us), so parking for them would multiply them; in real time the model's absolute times are
 * therefore lower bounds, stretched by polling, scheduling and a loaded host. Under virtual time they
 * are the times.
 *
 * <p>What a model implies, by its own arithmetic: an 8-byte READ takes {@code readWriteRoundTripNanos}
 * (plus 8 bytes' transfer); FETCH_AND_ADD on one word runs at most {@code 1e9 / atomicUnitNanos} per
 * second; across many words at most {@code 1e12 / max(nicAtomicPicos, nicRequestPicos)} per second
 * (unbounded by the model when both are zero); a window of 4 KiB READs to one node moves at most
 * {@code 1e12 / picosPerByte} bytes per second (only with a message rate).
 *
 * <p>Presets: {@link #NONE} (every cost zero: the simulator's behaviour without a model, the default),
 * {@link #CONNECTX3}, {@link #CONNECTX5} and {@link #CONNECTX6}; each states the source of each figure.
 *
 * @param name                    the model's name, as {@link #byName(String)} finds it
 * @param readWriteRoundTripNanos round trip of a READ, WRITE, SEND or WRITE_WITH_IMMEDIATE of a few bytes
 * @param atomicRoundTripNanos    round trip of a COMPARE_AND_SWAP or FETCH_AND_ADD with no other atomic
 *                                waiting on its word
 * @param atomicUnitNanos         how long one atomic keeps its word's NIC atomic unit busy; a later atomic
 *                                on that word starts no earlier
 * @param picosPerByte            transfer cost per payload byte, in picoseconds (from the link's bandwidth)
 * @param localAccessNanos        a CPU access of local memory; charged only under virtual time
 *                                ({@link VirtualTimeOptions#withCpu})
 * @param nicRequestPicos         how long one request keeps the responder NIC busy, in picoseconds
 *                                ({@code 1e12 /} its message rate); 0: no message rate and no shared link
 * @param nicAtomicPicos          how long one atomic keeps the responder NIC's atomic engine busy, across
 *                                all words, in picoseconds ({@code 1e12 /} its atomic rate); 0: no such limit
 */
public record SimCostModel(String name, long readWriteRoundTripNanos, long atomicRoundTripNanos, long atomicUnitNanos,
                           long picosPerByte, long localAccessNanos, long nicRequestPicos, long nicAtomicPicos) {
    /** The largest cost a model takes, in nanoseconds (one hour), so that times never overflow. */
    public static final long MAX_NANOS = 3_600_000_000_000L;
    /** The largest per-byte cost a model takes, in picoseconds (one millisecond). */
    public static final long MAX_PICOS_PER_BYTE = 1_000_000_000L;
    /** The largest per-request NIC cost a model takes, in picoseconds (one millisecond). */
    public static final long MAX_NIC_PICOS = 1_000_000_000L;

    /** No cost: every request executes when posted and completes at once (as without a model). */
    public static final SimCostModel NONE = new SimCostModel("none", 0, 0, 0, 0, 0);

    /**
     * A ConnectX-5-like NIC on a 100 Gb/s link: READ/WRITE round trip 2 us, atomic round trip 2.5 us,
     * atomics on one word one at a time (each keeps the word's unit busy for its whole 2.5 us, the
     * conservative reading of "serialized per address"), 80 ps per byte (100 Gb/s = 12.5 GB/s), local CPU
     * access 100 ns, loopback as remote. The figures are round numbers of the magnitude reported for
     * ConnectX-class NICs by Kalia, Kaminsky and Andersen, "Design Guidelines for High Performance RDMA
     * Systems" (USENIX ATC 2016) and "FaSST" (OSDI 2016), which also show NIC atomics on one address
     * serialized inside the NIC, and by Baran, Nelson-Slivon, Tseng and Palmieri, "ALock: Asymmetric
     * Lock Primitive for RDMA Systems" (SPAA 2024), which shows loopback through the NIC costing what a
     * remote access costs; the preset reproduces no single table of those papers. Its figures are its
     * own round numbers, and published results in docs/ were measured with them, so they stay as they are:
     * the link's 100 Gb/s is the ConnectX-5 product brief's; the round trips are assumptions (the brief's
     * "sub-600ns latency" is one-way); its one-word atomic rate, 0.4 million per second, is far below the
     * 2.7 million measured on ConnectX-3 (see {@link #CONNECTX3}) and is an assumption on the conservative
     * side. It has no NIC message rate (ConnectX-5's is about 200 million per second, "1 msg/5ns" in
     * Hoefler et al.'s sPIN talk): requests to one node never queue for its NIC, and 4 KiB READs in flight
     * together do not share a link.
     */
    public static final SimCostModel CONNECTX5 = new SimCostModel("connectx5", 2_000, 2_500, 2_500, 80, 100);

    /**
     * A ConnectX-3 on a 56 Gb/s FDR InfiniBand link, as in the CloudLab r320 nodes (one Xeon E5-2450, a
     * Mellanox ConnectX-3) on which Baran, Nelson-Slivon, Tseng and Palmieri evaluated "ALock: Asymmetric
     * Lock Primitive for RDMA Systems" (SPAA 2024). Each figure and its source:
     * <ul>
     *   <li>READ/WRITE round trip 2,000 ns: approximate, the magnitude of a small READ's latency on
     *       ConnectX-3 FDR in the latency microbenchmarks of Kalia, Kaminsky and Andersen, "Using RDMA
     *       Efficiently for Key-Value Services" (HERD, SIGCOMM 2014) and "FaSST" (OSDI 2016); neither gives
     *       it in a table, so take it as about 2 us, not to the nanosecond;</li>
     *   <li>atomic round trip 2,370 ns: an assumption, the READ round trip plus one atomic's time in the
     *       unit below (an atomic is a READ-like round trip plus the responder's read-modify-write);</li>
     *   <li>atomic unit 370 ns, that is 2.7 million atomics per second on one word, and NIC atomic engine
     *       370,370 ps, 2.7 million per second across all words: the atomics benchmark that Kalia et al.
     *       published with "Design Guidelines for High Performance RDMA Systems" (USENIX ATC 2016),
     *       repository efficient/rdma_bench, {@code atomics-sequencer/main.h}, states that on ConnectX-3
     *       "atomics throughput drops from 2.7 Mops to 1.8 Mops" once the counters outgrow the CPU's cache,
     *       for clients picking among an array of 8-byte counters at random: ConnectX-3 atomics reach
     *       about 2.7 Mops across many words, no more than on one;</li>
     *   <li>NIC message rate 26 million requests per second (38,462 ps each): HERD's abstract reports 26
     *       million key-value operations per second on ConnectX-3 and that this is "similar to native RDMA
     *       read throughput", the inbound READ rate of one server NIC;</li>
     *   <li>143 ps per byte: the FDR link's 56 Gb/s signalling rate (Mellanox ConnectX-3 announcement:
     *       "FDR, running at 56Gb/sec"); the data rate after 64b/66b encoding is 54.5 Gb/s, and a measured
     *       READ bandwidth lies below both;</li>
     *   <li>local CPU access 100 ns: an assumption, a DRAM access's magnitude.</li>
     * </ul>
     */
    public static final SimCostModel CONNECTX3 = new SimCostModel("connectx3", 2_000, 2_370, 370, 143, 100,
            38_462, 370_370);

    /**
     * A ConnectX-6 on a 200 Gb/s link (HDR InfiniBand or 200GbE). Each figure and its source:
     * <ul>
     *   <li>READ/WRITE round trip 1,600 ns: twice the "sub 0.8usec latency" of the Mellanox ConnectX-6 EN
     *       product brief, which is a one-way figure; an assumption that a READ's round trip is two of
     *       them;</li>
     *   <li>NIC message rate 215 million per second (4,651 ps each): the same product brief's "215 million
     *       messages per second";</li>
     *   <li>40 ps per byte: the brief's 200 Gb/s;</li>
     *   <li>atomic unit 370 ns (2.7 million atomics per second on one word) and atomic round trip 1,970 ns:
     *       assumptions; no source found gives ConnectX-6's one-word atomic rate, so the ConnectX-3 figure
     *       is kept, and the round trip is the READ round trip plus one atomic's time in the unit;</li>
     *   <li>no NIC-wide atomic limit beyond the message rate: an assumption (later ConnectX generations
     *       serve atomics on different words in parallel);</li>
     *   <li>local CPU access 100 ns: an assumption.</li>
     * </ul>
     */
    public static final SimCostModel CONNECTX6 = new SimCostModel("connectx6", 1_600, 1_970, 370, 40, 100,
            4_651, 0);

    /** The presets, by name. */
    public static final List<SimCostModel> PRESETS = List.of(NONE, CONNECTX3, CONNECTX5, CONNECTX6);

    /**
     * Validates the figures.
     *
     * @throws NullPointerException when {@code name} is null
     * @throws BadArgumentException when {@code name} is blank, a cost is negative or above
     *                              {@link #MAX_NANOS}, {@code picosPerByte} is negative or above
     *                              {@link #MAX_PICOS_PER_BYTE}, or {@code nicRequestPicos} or
     *                              {@code nicAtomicPicos} is negative or above {@link #MAX_NIC_PICOS};
     *                              the message names the value
     */
    public SimCostModel {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new BadArgumentException("cost model name must not be blank, got '" + name + "'");
        }
        requireCost("readWriteRoundTripNanos", readWriteRoundTripNanos, MAX_NANOS);
        requireCost("atomicRoundTripNanos", atomicRoundTripNanos, MAX_NANOS);
        requireCost("atomicUnitNanos", atomicUnitNanos, MAX_NANOS);
        requireCost("picosPerByte", picosPerByte, MAX_PICOS_PER_BYTE);
        requireCost("localAccessNanos", localAccessNanos, MAX_NANOS);
        requireCost("nicRequestPicos", nicRequestPicos, MAX_NIC_PICOS);
        requireCost("nicAtomicPicos", nicAtomicPicos, MAX_NIC_PICOS);
    }

    /**
     * A model without a NIC message rate or NIC-wide atomic rate ({@code nicRequestPicos} and
     * {@code nicAtomicPicos} zero): requests wait only for their word's atomic unit.
     *
     * @param name                    the model's name
     * @param readWriteRoundTripNanos round trip of a READ, WRITE, SEND or WRITE_WITH_IMMEDIATE of a few bytes
     * @param atomicRoundTripNanos    round trip of an atomic with no other atomic waiting on its word
     * @param atomicUnitNanos         how long one atomic keeps its word's NIC atomic unit busy
     * @param picosPerByte            transfer cost per payload byte, in picoseconds
     * @param localAccessNanos        a CPU access of local memory; charged only under virtual time
     * @throws NullPointerException when {@code name} is null
     * @throws BadArgumentException as the canonical constructor
     */
    public SimCostModel(String name, long readWriteRoundTripNanos, long atomicRoundTripNanos, long atomicUnitNanos,
                        long picosPerByte, long localAccessNanos) {
        this(name, readWriteRoundTripNanos, atomicRoundTripNanos, atomicUnitNanos, picosPerByte, localAccessNanos, 0, 0);
    }

    private static void requireCost(String what, long value, long max) {
        if (value < 0 || value > max) {
            throw new BadArgumentException("cost model " + what + " must be 0.." + max + ", got " + value);
        }
    }

    /**
     * Finds a preset by name, ignoring case.
     *
     * @param name a preset's name: {@code none}, {@code connectx3}, {@code connectx5} or {@code connectx6}
     * @return the preset
     * @throws NullPointerException when {@code name} is null
     * @throws BadArgumentException when no preset has that name; the message names it and the presets
     */
    public static SimCostModel byName(String name) {
        Objects.requireNonNull(name, "name");
        String key = name.trim().toLowerCase(Locale.ROOT);
        for (SimCostModel m : PRESETS) {
            if (m.name.equals(key)) {
                return m;
            }
        }
        throw new BadArgumentException("no simulator cost model named '" + name + "'; presets: "
                + PRESETS.stream().map(SimCostModel::name).toList());
    }

    /**
     * Whether the simulator runs as without a model.
     *
     * @return whether every cost the simulator charges is zero
     */
    public boolean isFree() {
        return readWriteRoundTripNanos == 0 && atomicRoundTripNanos == 0 && atomicUnitNanos == 0 && picosPerByte == 0
                && nicRequestPicos == 0 && nicAtomicPicos == 0;
    }

    /**
     * Describes the model in one line.
     *
     * @return one line naming the model and its figures, for a report's notes, such as
     *         {@code connectx5: READ/WRITE round trip 2000 ns, atomic 2500 ns holding its word's unit 2500 ns, 80 ps/byte};
     *         a NIC message rate and atomic rate follow when the model has them
     */
    public String describe() {
        String d = name + ": READ/WRITE round trip " + readWriteRoundTripNanos + " ns, atomic " + atomicRoundTripNanos
                + " ns holding its word's unit " + atomicUnitNanos + " ns, " + picosPerByte + " ps/byte";
        if (nicRequestPicos > 0) {
            d += ", NIC " + nicRequestPicos + " ps/request";
        }
        if (nicAtomicPicos > 0) {
            d += ", NIC atomics " + nicAtomicPicos + " ps each";
        }
        return d;
    }

    /** {@return the time from posting a request of {@code op} and {@code length} bytes to its reaching the target} */
    long outboundNanos(Opcode op, int length) {
        return switch (op) {
            case COMPARE_AND_SWAP, FETCH_AND_ADD -> atomicRoundTripNanos / 2;
            case READ -> readWriteRoundTripNanos / 2;
            default -> readWriteRoundTripNanos / 2 + transferNanos(length);
        };
    }

    /** {@return the time from a request's execution at the target to its completion} */
    long returnNanos(Opcode op, int length) {
        return switch (op) {
            case COMPARE_AND_SWAP, FETCH_AND_ADD -> atomicRoundTripNanos - atomicRoundTripNanos / 2;
            case READ -> readWriteRoundTripNanos - readWriteRoundTripNanos / 2 + transferNanos(length);
            default -> readWriteRoundTripNanos - readWriteRoundTripNanos / 2;
        };
    }

    /** {@return how long a request of {@code length} payload bytes keeps the responder NIC busy, in picoseconds} */
    long nicBusyPicos(int length) {
        return Math.max(nicRequestPicos, Math.max(0, length) * picosPerByte);
    }

    private long transferNanos(int length) {
        return Math.max(0, length) * picosPerByte / 1000;
    }
}
