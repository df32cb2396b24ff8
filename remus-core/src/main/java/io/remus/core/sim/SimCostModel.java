package io.remus.core.sim;

import io.remus.core.error.BadArgumentException;
import io.remus.core.fabric.Opcode;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A named cost model for the simulated NIC: how long a work request takes before its completion
 * becomes pollable, and how NIC atomics on one word wait for each other.
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
 *       {@code start + atomic/2}. Atomics on different words do not wait for each other.</li>
 * </ul>
 * Loopback (a node's request to its own memory) costs what a remote request costs: the simulator
 * does not tell them apart, as an RDMA NIC does not (the premise of the ALock paper). A CPU load or
 * store of a node's own memory does not pass through the fabric, so the simulator charges no cost
 * for it; {@link #localAccessNanos()} states the figure for code that models it itself.
 *
 * <p>The simulator never waits for a cost: a cost becomes the time at which a request executes and
 * the time from which its completion is pollable, and nothing executes before its time. The thread
 * waiting for a completion waits in its own loop ({@code ComputeThread}'s await and
 * {@code CompletionQueue.poll(out, timeout)} spin and then yield the processor between polls). Costs
 * of a few microseconds lie far below {@code LockSupport.parkNanos}'s granularity on Linux (about 50
 * to 100 us), so parking for them would multiply them; the model's absolute times are therefore lower
 * bounds, stretched by polling, scheduling and a loaded host, and what it is for is ratios: comparing
 * algorithms by how many round trips and how much atomic contention they cost on one fabric.
 *
 * <p>Presets: {@link #NONE} (every cost zero: the simulator's behaviour without a model, the default)
 * and {@link #CONNECTX5}.
 *
 * @param name                    the model's name, as {@link #byName(String)} finds it
 * @param readWriteRoundTripNanos round trip of a READ, WRITE, SEND or WRITE_WITH_IMMEDIATE of a few bytes
 * @param atomicRoundTripNanos    round trip of a COMPARE_AND_SWAP or FETCH_AND_ADD with no other atomic
 *                                waiting on its word
 * @param atomicUnitNanos         how long one atomic keeps its word's NIC atomic unit busy; a later atomic
 *                                on that word starts no earlier
 * @param picosPerByte            transfer cost per payload byte, in picoseconds (from the link's bandwidth)
 * @param localAccessNanos        a CPU access of local memory; stated, not charged by the simulator
 */
public record SimCostModel(String name, long readWriteRoundTripNanos, long atomicRoundTripNanos, long atomicUnitNanos,
                           long picosPerByte, long localAccessNanos) {
    /** The largest cost a model takes, in nanoseconds (one hour), so that times never overflow. */
    public static final long MAX_NANOS = 3_600_000_000_000L;
    /** The largest per-byte cost a model takes, in picoseconds (one millisecond). */
    public static final long MAX_PICOS_PER_BYTE = 1_000_000_000L;

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
     * remote access costs; the preset reproduces no single table of those papers.
     */
    public static final SimCostModel CONNECTX5 = new SimCostModel("connectx5", 2_000, 2_500, 2_500, 80, 100);

    /** The presets, by name. */
    public static final List<SimCostModel> PRESETS = List.of(NONE, CONNECTX5);

    /**
     * Validates the figures.
     *
     * @throws NullPointerException when {@code name} is null
     * @throws BadArgumentException when {@code name} is blank, a cost is negative or above
     *                              {@link #MAX_NANOS}, or {@code picosPerByte} is negative or above
     *                              {@link #MAX_PICOS_PER_BYTE}; the message names the value
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
    }

    private static void requireCost(String what, long value, long max) {
        if (value < 0 || value > max) {
            throw new BadArgumentException("cost model " + what + " must be 0.." + max + ", got " + value);
        }
    }

    /**
     * Finds a preset by name, ignoring case.
     *
     * @param name a preset's name: {@code none} or {@code connectx5}
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
        return readWriteRoundTripNanos == 0 && atomicRoundTripNanos == 0 && atomicUnitNanos == 0 && picosPerByte == 0;
    }

    /**
     * Describes the model in one line.
     *
     * @return one line naming the model and its figures, for a report's notes, such as
     *         {@code connectx5: READ/WRITE round trip 2000 ns, atomic 2500 ns holding its word's unit 2500 ns, 80 ps/byte}
     */
    public String describe() {
        return name + ": READ/WRITE round trip " + readWriteRoundTripNanos + " ns, atomic " + atomicRoundTripNanos
                + " ns holding its word's unit " + atomicUnitNanos + " ns, " + picosPerByte + " ps/byte";
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

    private long transferNanos(int length) {
        return Math.max(0, length) * picosPerByte / 1000;
    }
}
