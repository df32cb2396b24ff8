package io.remus.bench.numa;

import io.remus.core.error.BadArgumentException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The machine's NUMA nodes, read from sysfs ({@code online}, {@code has_memory},
 * {@code node<N>/cpulist} under {@code /sys/devices/system/node}). A kernel without NUMA support
 * has no such directory: that reads as one node holding every CPU and all memory.
 *
 * @param nodes the online nodes, ascending by id
 */
public record NumaTopology(List<NumaNode> nodes) {
    /** The sysfs directory of NUMA nodes. */
    public static final Path SYSFS = Path.of("/sys/devices/system/node");
    private static final int MAX_ID = 4095;

    /** Copies the list. */
    public NumaTopology {
        nodes = List.copyOf(nodes);
    }

    /** @return this machine's topology */
    public static NumaTopology read() {
        return read(SYSFS);
    }

    /**
     * @param dir a directory laid out as {@link #SYSFS}
     * @return the topology it describes
     * @throws BadArgumentException when a file there is malformed
     */
    public static NumaTopology read(Path dir) {
        if (!Files.isDirectory(dir) || !Files.exists(dir.resolve("online"))) {
            List<Integer> cpus = new ArrayList<>();
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                cpus.add(i);
            }
            return new NumaTopology(List.of(new NumaNode(0, cpus, true)));
        }
        List<Integer> online = parseList(text(dir.resolve("online")));
        Path memoryFile = dir.resolve("has_memory");
        List<Integer> withMemory = Files.exists(memoryFile) ? parseList(text(memoryFile)) : online;
        List<NumaNode> nodes = new ArrayList<>();
        for (int id : online) {
            Path cpulist = dir.resolve("node" + id).resolve("cpulist");
            List<Integer> cpus = Files.exists(cpulist) ? parseList(text(cpulist)) : List.of();
            nodes.add(new NumaNode(id, cpus, withMemory.contains(id)));
        }
        return new NumaTopology(nodes);
    }

    /**
     * Parses a kernel list such as {@code 0-3,8,10-11} (an empty string is an empty list).
     *
     * @param list the text
     * @return the numbers, ascending as written
     * @throws BadArgumentException when it is malformed or a number exceeds 4095
     */
    public static List<Integer> parseList(String list) {
        List<Integer> out = new ArrayList<>();
        String s = list.strip();
        if (s.isEmpty()) {
            return out;
        }
        for (String part : s.split(",")) {
            String[] range = part.split("-", -1);
            if (range.length > 2) {
                throw new BadArgumentException("malformed list entry '" + part + "' in '" + list + "'");
            }
            int lo = number(range[0], list);
            int hi = range.length == 2 ? number(range[1], list) : lo;
            if (hi < lo) {
                throw new BadArgumentException("descending range '" + part + "' in '" + list + "'");
            }
            for (int i = lo; i <= hi; i++) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * @param id a node id
     * @return that node
     * @throws BadArgumentException when it is not online
     */
    public NumaNode node(int id) {
        for (NumaNode n : nodes) {
            if (n.id() == id) {
                return n;
            }
        }
        throw new BadArgumentException("NUMA node " + id + " is not online here (online: "
                + nodes.stream().map(n -> Integer.toString(n.id())).toList() + ")");
    }

    /** @return the highest node id */
    public int maxNodeId() {
        return nodes.stream().mapToInt(NumaNode::id).max().orElse(0);
    }

    private static int number(String s, String list) {
        try {
            int v = Integer.parseInt(s.strip());
            if (v < 0 || v > MAX_ID) {
                throw new BadArgumentException("number " + v + " out of 0.." + MAX_ID + " in '" + list + "'");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new BadArgumentException("malformed number '" + s + "' in '" + list + "'");
        }
    }

    private static String text(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new BadArgumentException("cannot read " + p + ": " + e.getMessage());
        }
    }
}
