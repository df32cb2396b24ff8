package io.remus.core.config;

import io.remus.core.error.BadArgumentException;

import java.util.Objects;

/**
 * Where a node's process listens for connection setup: one entry of {@link ClusterConfig#nodes()}
 * in the form {@code host} or {@code host:port}. The host is a name or an IPv4 literal (the verbs
 * fabric's connection manager listens on IPv4); an entry without a port gets
 * {@link #DEFAULT_BASE_PORT} plus the node id, so several nodes on one host need no ports written.
 *
 * @param host the host name or IPv4 literal
 * @param port the TCP port, 1..65535
 */
public record NodeAddress(String host, int port) {
    /** The port of node 0 when its entry names none; node {@code i} gets this plus {@code i}. */
    public static final int DEFAULT_BASE_PORT = 18515;

    /** Validates the address. */
    public NodeAddress {
        Objects.requireNonNull(host, "host");
        if (host.isBlank() || host.chars().anyMatch(c -> Character.isWhitespace(c) || c == ':')) {
            throw new BadArgumentException("bad host '" + host + "': expected a host name or IPv4 address");
        }
        if (port < 1 || port > 65535) {
            throw new BadArgumentException("port of " + host + " must be 1..65535, got " + port);
        }
    }

    /**
     * Parses a node list entry.
     *
     * @param entry  {@code host} or {@code host:port}
     * @param nodeId the node the entry belongs to (for the default port)
     * @return the address
     * @throws BadArgumentException when the entry is empty, has more than one colon or a bad port
     */
    public static NodeAddress parse(String entry, int nodeId) {
        String t = Objects.requireNonNull(entry, "entry").strip();
        int colon = t.indexOf(':');
        if (colon < 0) {
            return new NodeAddress(t, DEFAULT_BASE_PORT + nodeId);
        }
        if (t.indexOf(':', colon + 1) >= 0) {
            throw new BadArgumentException("bad node entry '" + entry + "': expected host or host:port (IPv6 is not supported)");
        }
        String port = t.substring(colon + 1);
        try {
            return new NodeAddress(t.substring(0, colon), Integer.parseInt(port));
        } catch (NumberFormatException e) {
            throw new BadArgumentException("bad node entry '" + entry + "': '" + port + "' is not a port number");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
