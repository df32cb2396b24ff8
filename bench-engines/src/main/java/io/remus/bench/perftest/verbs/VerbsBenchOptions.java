package io.remus.bench.perftest.verbs;

import io.remus.verbs.ConnectionOptions;

import java.time.Duration;

/**
 * How the verbs benchmark transport reaches its peer, with perftest's flags.
 *
 * @param device      the RDMA device ({@code -d}), or null for the first one listed
 * @param port        the device port ({@code -i})
 * @param gidIndex    the GID index ({@code -x}), or -1 for the first IPv4-mapped GID (RoCE)
 * @param tcpPort     the TCP port of the connection exchange, or of the rdma_cm listener with {@code -R} ({@code -p})
 * @param inlineSize  the largest WRITE or SEND sent inline ({@code -I}, or perftest's default:
 *                    {@link PerftestInline}); 0 sends nothing inline
 * @param rdmaCm      whether QPs are connected with rdma_cm ({@code -R}) instead of a TCP exchange
 * @param server      the server's address (client), or null (server)
 * @param connectWait how long to wait for the peer to appear
 * @param receiveDepth receives each QP holds posted for SEND tests ({@code -r}); 0 for one-sided tests
 * @param qpTimeout   the QPs' local ACK timeout exponent ({@code -u}: 4.096 us * 2^N, 0..31); with
 *                    {@code rdmaCm} rdma_cm chooses it and this is not used
 */
public record VerbsBenchOptions(String device, int port, int gidIndex, int tcpPort, int inlineSize, boolean rdmaCm,
                                String server, Duration connectWait, int receiveDepth, int qpTimeout) {
    /** Options of a one-sided test: no receives posted, the default ACK timeout. */
    public VerbsBenchOptions(String device, int port, int gidIndex, int tcpPort, int inlineSize, boolean rdmaCm,
                             String server, Duration connectWait) {
        this(device, port, gidIndex, tcpPort, inlineSize, rdmaCm, server, connectWait, 0,
                ConnectionOptions.defaults().timeout());
    }

    /** @return whether this side is the server (no address given) */
    public boolean isServer() {
        return server == null;
    }
}
