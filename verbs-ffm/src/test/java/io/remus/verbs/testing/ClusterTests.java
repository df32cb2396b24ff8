package io.remus.verbs.testing;

import org.junit.jupiter.api.Assumptions;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The node a cluster test plays, from the environment: {@value #NODE_ENV} (0-based index),
 * {@value #SIZE_ENV} and {@value #ADDRS_ENV} (comma-separated IPv4 addresses by index).
 *
 * <p>None of them set: not in a cluster, and cluster tests are skipped with
 * {@link #SKIP_REASON}. Some set, or inconsistent: the test bed is broken, and the test fails.
 */
public final class ClusterTests {
    /** The JUnit tag of tests that play one node of a multi-host run. */
    public static final String TAG = "cluster";
    /** The environment variable with this node's index. */
    public static final String NODE_ENV = "REMUS_CLUSTER_NODE";
    /** The environment variable with the number of nodes. */
    public static final String SIZE_ENV = "REMUS_CLUSTER_SIZE";
    /** The environment variable with the nodes' addresses, comma-separated, by index. */
    public static final String ADDRS_ENV = "REMUS_CLUSTER_ADDRS";
    /** Why a cluster test is skipped outside a cluster. */
    public static final String SKIP_REASON = "not in a cluster: set " + NODE_ENV + ", " + SIZE_ENV + " and "
            + ADDRS_ENV + " (softroce/run-cluster does), see softroce/README.md";

    private ClusterTests() {
    }

    /**
     * @return this process's node, or empty where no cluster variable is set
     * @throws IllegalArgumentException where the variables are partial or inconsistent
     */
    public static Optional<ClusterNode> configuredNode() {
        return configuredNode(System.getenv());
    }

    /**
     * @param environment the environment to read
     * @return the node it configures, or empty where no cluster variable is set
     * @throws IllegalArgumentException where the variables are partial or inconsistent
     */
    static Optional<ClusterNode> configuredNode(Map<String, String> environment) {
        String node = blankToNull(environment.get(NODE_ENV));
        String size = blankToNull(environment.get(SIZE_ENV));
        String addrs = blankToNull(environment.get(ADDRS_ENV));
        if (node == null && size == null && addrs == null) {
            return Optional.empty();
        }
        if (node == null || size == null || addrs == null) {
            throw new IllegalArgumentException("set all of " + NODE_ENV + ", " + SIZE_ENV + ", " + ADDRS_ENV
                    + " or none; got " + NODE_ENV + "=" + node + " " + SIZE_ENV + "=" + size + " " + ADDRS_ENV + "=" + addrs);
        }
        List<String> addresses = Arrays.stream(addrs.split(",")).map(String::strip).toList();
        return Optional.of(new ClusterNode(parse(NODE_ENV, node), parse(SIZE_ENV, size), addresses));
    }

    /**
     * This process's node, for use inside a {@link ClusterTest}.
     *
     * @return the node
     * @throws org.opentest4j.TestAbortedException (the test is skipped) outside a cluster
     */
    public static ClusterNode node() {
        Optional<ClusterNode> node = configuredNode();
        Assumptions.assumeTrue(node.isPresent(), SKIP_REASON);
        return node.get();
    }

    private static int parse(String variable, String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(variable + "=" + value + " is not an integer", e);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
