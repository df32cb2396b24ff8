package io.remus.verbs;

import java.util.Objects;

/**
 * The first state of a reliable-connected queue pair: what it is built with. {@link #build()}
 * creates it and moves it to INIT ({@link PreparedQueuePair}); connecting that gives the
 * {@link ConnectedQueuePair} on which work is posted. A builder can build any number of queue
 * pairs, which is how a queue pair in the error state is replaced.
 */
public final class QueuePairBuilder {
    private final ProtectionDomain pd;
    private CompletionQueue sendQueue;
    private CompletionQueue receiveQueue;
    private SharedReceiveQueue sharedReceiveQueue;
    private int maxSendWorkRequests = 64;
    private int maxReceiveWorkRequests = 64;
    private int maxSendScatterGather = 1;
    private int maxReceiveScatterGather = 1;
    private int maxInlineData = 64;
    private int port = 1;
    private int gidIndex = -1;

    QueuePairBuilder(ProtectionDomain pd) {
        this.pd = pd;
    }

    /**
     * Sets the completion queue of send requests.
     *
     * @param cq the queue send completions go to
     * @return this builder
     */
    public QueuePairBuilder sendCompletionQueue(CompletionQueue cq) {
        this.sendQueue = Objects.requireNonNull(cq, "sendCompletionQueue");
        return this;
    }

    /**
     * Sets the completion queue of receive requests.
     *
     * @param cq the queue receive completions go to
     * @return this builder
     */
    public QueuePairBuilder receiveCompletionQueue(CompletionQueue cq) {
        this.receiveQueue = Objects.requireNonNull(cq, "receiveCompletionQueue");
        return this;
    }

    /**
     * Sets one completion queue for both send and receive requests.
     *
     * @param cq the queue both send and receive completions go to
     * @return this builder
     */
    public QueuePairBuilder completionQueue(CompletionQueue cq) {
        Objects.requireNonNull(cq, "completionQueue");
        return sendCompletionQueue(cq).receiveCompletionQueue(cq);
    }

    /**
     * Sets the shared receive queue.
     *
     * @param srq the shared receive queue the QP takes receives from (instead of its own), or {@code null}
     * @return this builder
     */
    public QueuePairBuilder sharedReceiveQueue(SharedReceiveQueue srq) {
        this.sharedReceiveQueue = srq;
        return this;
    }

    /**
     * Sets the size of the send queue.
     *
     * @param n outstanding send requests, 1 to the device's {@code max_qp_wr} (default 64)
     * @return this builder
     */
    public QueuePairBuilder maxSendWorkRequests(int n) {
        this.maxSendWorkRequests = n;
        return this;
    }

    /**
     * Sets the size of the receive queue.
     *
     * @param n outstanding receive requests, 1 to the device's {@code max_qp_wr} (default 64)
     * @return this builder
     */
    public QueuePairBuilder maxReceiveWorkRequests(int n) {
        this.maxReceiveWorkRequests = n;
        return this;
    }

    /**
     * Sets the scatter/gather entries per send request.
     *
     * @param n scatter/gather entries per send request, 1 to the device's {@code max_sge} (default 1)
     * @return this builder
     */
    public QueuePairBuilder maxSendScatterGather(int n) {
        this.maxSendScatterGather = n;
        return this;
    }

    /**
     * Sets the scatter/gather entries per receive request.
     *
     * @param n scatter/gather entries per receive request, 1 to the device's {@code max_sge} (default 1)
     * @return this builder
     */
    public QueuePairBuilder maxReceiveScatterGather(int n) {
        this.maxReceiveScatterGather = n;
        return this;
    }

    /**
     * Sets the inline data limit.
     *
     * @param bytes the most data an inline send or write may carry (default 64; 0 for none)
     * @return this builder
     */
    public QueuePairBuilder maxInlineData(int bytes) {
        this.maxInlineData = bytes;
        return this;
    }

    /**
     * Sets the device port.
     *
     * @param port the device port, from 1 (default 1)
     * @return this builder
     */
    public QueuePairBuilder port(int port) {
        this.port = port;
        return this;
    }

    /**
     * Sets the GID index of the local address.
     *
     * @param index the GID table index of the local address, or -1 (default) for the first
     *              IPv4-mapped GID on Ethernet (RoCEv2), else 0
     * @return this builder
     */
    public QueuePairBuilder gidIndex(int index) {
        this.gidIndex = index;
        return this;
    }

    /**
     * Creates the queue pair and moves it to INIT.
     *
     * @return the prepared queue pair, which exposes its endpoint for the peer
     * @throws InvalidArgumentException if a setting is missing, out of the device's range, or
     *                                  from another protection domain or context
     * @throws VerbsException           if {@code ibv_create_qp} or {@code ibv_modify_qp} fails
     */
    public PreparedQueuePair build() {
        check();
        return new PreparedQueuePair(new QueuePairHandle(this, null));
    }

    /**
     * Checks every setting against the device before anything reaches native code.
     *
     * @throws InvalidArgumentException if a setting is wrong
     */
    void check() {
        pd.requireOpen();
        if (sendQueue == null || receiveQueue == null) {
            throw new InvalidArgumentException("a queue pair needs send and receive completion queues");
        }
        sendQueue.requireOpen();
        receiveQueue.requireOpen();
        Context context = pd.context();
        if (sendQueue.context() != context || receiveQueue.context() != context) {
            throw new InvalidArgumentException("the completion queues belong to another context than the protection domain");
        }
        if (sharedReceiveQueue != null) {
            sharedReceiveQueue.requireOpen();
            if (sharedReceiveQueue.protectionDomain() != pd) {
                throw new InvalidArgumentException("the shared receive queue belongs to another protection domain");
            }
        }
        DeviceAttributes a = context.queryDevice();
        range("maxSendWorkRequests", maxSendWorkRequests, 1, a.maxQueuePairWorkRequests());
        range("maxReceiveWorkRequests", maxReceiveWorkRequests, 1, a.maxQueuePairWorkRequests());
        range("maxSendScatterGather", maxSendScatterGather, 1, a.maxScatterGather());
        range("maxReceiveScatterGather", maxReceiveScatterGather, 1, a.maxScatterGather());
        range("maxInlineData", maxInlineData, 0, 1 << 16);
        context.checkPort(port);
        if (gidIndex < -1) {
            throw new InvalidArgumentException("gidIndex must be -1 (automatic) or a table index, got " + gidIndex);
        }
    }

    private static void range(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidArgumentException(name + " must be in [" + min + ", " + max + "], got " + value);
        }
    }

    ProtectionDomain protectionDomain() {
        return pd;
    }

    CompletionQueue sendQueue() {
        return sendQueue;
    }

    CompletionQueue receiveQueue() {
        return receiveQueue;
    }

    SharedReceiveQueue sharedReceiveQueueOrNull() {
        return sharedReceiveQueue;
    }

    int maxSendWorkRequests() {
        return maxSendWorkRequests;
    }

    int maxReceiveWorkRequests() {
        return maxReceiveWorkRequests;
    }

    int maxSendScatterGather() {
        return maxSendScatterGather;
    }

    int maxReceiveScatterGather() {
        return maxReceiveScatterGather;
    }

    int maxInlineData() {
        return maxInlineData;
    }

    int port() {
        return port;
    }

    int gidIndex() {
        return gidIndex;
    }
}
