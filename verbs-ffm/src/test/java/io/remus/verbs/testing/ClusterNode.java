package io.remus.verbs.testing;

import java.util.List;

/**
 * This process's place in a multi-host test run.
 *
 * @param index     this node's index, 0 to {@code size - 1}; node 0 is the server / listener
 * @param size      how many nodes take part
 * @param addresses every node's IPv4 address, by index
 */
public record ClusterNode(int index, int size, List<String> addresses) {
    /**
     * Checks the values are consistent.
     *
     * @throws IllegalArgumentException if the size is below 2, the index out of range, or the
     *                                  address count differs from the size
     */
    public ClusterNode {
        addresses = List.copyOf(addresses);
        if (size < 2) {
            throw new IllegalArgumentException("a cluster has at least 2 nodes, not " + size);
        }
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("node index " + index + " is not in [0, " + size + ")");
        }
        if (addresses.size() != size) {
            throw new IllegalArgumentException(size + " nodes but " + addresses.size() + " addresses: " + addresses);
        }
    }

    /** @return whether this is node 0, the one that listens */
    public boolean isLeader() {
        return index == 0;
    }

    /** @return this node's own address */
    public String address() {
        return addresses.get(index);
    }

    /**
     * @param node a node index
     * @return that node's address
     */
    public String address(int node) {
        return addresses.get(node);
    }
}
