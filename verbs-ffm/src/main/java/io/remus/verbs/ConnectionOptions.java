package io.remus.verbs;

/**
 * How a reliable-connected queue pair is moved to ready-to-receive and ready-to-send
 * ({@code ibv_modify_qp}). {@link #defaults()} suits Soft-RoCE and most NICs.
 *
 * <p>The default transport retry count is 6, not 7: Soft-RoCE treats 7 as "retry forever" (its
 * completer counts the retries down only when the count is not 7; the IB specification makes only
 * the RNR retry count 7 infinite), so at 7 a request to a peer whose queue pair is gone is
 * retransmitted for good there and never completes. At 6 every device completes it with
 * {@link CompletionStatus#RETRY_EXCEEDED} once seven timeouts in a row went unanswered (about
 * half a second at the default timeout); any answer from the peer starts the count again.
 *
 * @param pathMtu          the path MTU, or {@code null} for the port's active MTU
 * @param timeout          local ACK timeout exponent (4.096 us * 2^timeout), 0 to 31
 * @param retryCount       transport retries, 0 to 7 (7: forever on Soft-RoCE, see above)
 * @param rnrRetry         receiver-not-ready retries, 0 to 7 (7: retry forever)
 * @param minRnrTimer      receiver-not-ready NAK timer code, 0 to 31
 * @param maxReadAtomic    outstanding READs/atomics this side issues (capped by the device)
 * @param maxDestReadAtomic outstanding READs/atomics this side serves (capped by the device)
 * @param hopLimit         GRH hop limit (RoCE)
 */
public record ConnectionOptions(Mtu pathMtu, int timeout, int retryCount, int rnrRetry, int minRnrTimer,
                                int maxReadAtomic, int maxDestReadAtomic, int hopLimit) {
    /**
     * Checks every value against its range.
     *
     * @throws InvalidArgumentException if a value is out of its range
     */
    public ConnectionOptions {
        check("timeout", timeout, 0, 31);
        check("retryCount", retryCount, 0, 7);
        check("rnrRetry", rnrRetry, 0, 7);
        check("minRnrTimer", minRnrTimer, 0, 31);
        check("maxReadAtomic", maxReadAtomic, 1, 255);
        check("maxDestReadAtomic", maxDestReadAtomic, 1, 255);
        check("hopLimit", hopLimit, 1, 255);
    }

    /** {@return the port's MTU, timeout 14 (~67 ms), 6 retries, RNR retry forever, 16 outstanding READs/atomics} */
    public static ConnectionOptions defaults() {
        return new ConnectionOptions(null, 14, 6, 7, 12, 16, 16, 64);
    }

    private static void check(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }
}
