package io.remus.memcached;

import io.remus.core.error.BadArgumentException;

/**
 * What a {@link MemcachedServer} listens on and how much it lets each connection hold.
 *
 * @param host               the address to bind, e.g. {@code 127.0.0.1}
 * @param port               the TCP port, 0..65535 (0: any free port)
 * @param maxConnections     the most open connections; one more is accepted, answered
 *                           {@code SERVER_ERROR Too many open connections} and closed, as memcached does
 * @param maxPendingOutput   bytes of responses a connection may have waiting for the client to read before the
 *                           server stops reading its commands, positive
 */
public record ServerConfig(String host, int port, int maxConnections, int maxPendingOutput) {
    /** The longest command line, in bytes: memcached closes a connection that sends more without a line's end. */
    public static final int MAX_LINE_BYTES = 2048;

    /**
     * Checks the values.
     *
     * @throws BadArgumentException naming the value, for one out of range
     */
    public ServerConfig {
        if (host == null || host.isBlank()) {
            throw new BadArgumentException("host must name an address, got " + host);
        }
        if (port < 0 || port > 65535) {
            throw new BadArgumentException("port must be in 0..65535, got " + port);
        }
        if (maxConnections < 1) {
            throw new BadArgumentException("maxConnections must be positive, got " + maxConnections);
        }
        if (maxPendingOutput < 1) {
            throw new BadArgumentException("maxPendingOutput must be positive, got " + maxPendingOutput);
        }
    }

    /**
     * A configuration with memcached's connection limit (4096 with room for listeners) and 1 MiB of pending
     * output per connection.
     *
     * @param host the address to bind
     * @param port the TCP port, 0 for any free one
     * @return the configuration
     */
    public static ServerConfig of(String host, int port) {
        return new ServerConfig(host, port, 4096, 1 << 20);
    }
}
