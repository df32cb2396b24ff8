package io.remus.ds.delegate;

import io.remus.core.ComputeThread;
import io.remus.core.DoorbellBatch;
import io.remus.core.WriteOrder;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.RemoteOperationException;
import io.remus.core.error.RemoteTimeoutException;
import io.remus.core.memory.RemotePtr;
import io.remus.core.memory.SizeClasses;
import io.remus.core.time.ThreadTime;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A thread that owns objects ("properties") and runs every operation on them on behalf of clients:
 * Trust&lt;T&gt; / Gossamer's trustee (UIC 2025), with ffwd's transport shape (Roghanchi, Eriksson and
 * Basu, "ffwd: delegation is (much) faster than you think", SOSP 2017) carried over one-sided RDMA.
 * Properties are plain Java objects held here; no lock guards them, because only the trustee's thread
 * touches them.
 *
 * <h2>Life cycle</h2>
 * {@link #create} allocates the trustee's block on its compute thread's node; {@link #register}
 * registers operations by id and {@link #entrust} hands it properties; clients join with
 * {@link TrusteeClient#connect} given {@link #ptr()}. The caller's thread serves: it calls
 * {@link #serveOnce()} in its own loop, or {@link #serve(Duration)}; the class starts no thread. Every
 * method runs on the compute thread's owner.
 *
 * <p>A property is reference counted, as Trust&lt;T&gt;'s are: {@link #entrust} gives it one reference, the
 * entrusting caller's; a client takes one more with {@link TrusteeClient#share} (a request the trustee serves
 * like any other: 1 round trip from another node) and drops it with {@link Trust#release}; the trustee drops
 * its own with {@link #release}. When the last goes, the trustee drops the property (closing it when it is
 * {@link AutoCloseable}) in the same pass, and every later request naming it fails with
 * {@link DelegatedOperationException}. Handles from {@link TrusteeClient#trust} hold no reference: they are
 * valid while someone else holds one. {@link #close()} marks the trustee closed, so that pending
 * and later requests fail fast with {@link TrusteeClosedException}; a trustee whose thread simply stops
 * serving (or dies) makes them fail with {@link TrusteeTimeoutException} at each caller's deadline.
 *
 * <h2>Layout</h2>
 * One block on the trustee's node:
 * <pre>
 *   0  shape: MAGIC &lt;&lt; 48 | payloadBytes / 8 &lt;&lt; 32 | maxClients &lt;&lt; 16 | slotsPerClient
 *   8  state: 0 open, 1 closed (CPU store of the trustee)
 *  16  claims: client places handed out (RDMA fetch-and-add of joining clients)
 *  64  client 0: [response block pointer, set by compare-and-swap when the client joins]
 *                [slot 0: issue &lt;&lt; 48 | op &lt;&lt; 32 | payload flag &lt;&lt; 31 | property][argument]
 *                [payloadBytes of payload][check][sequence]  ... slot slotsPerClient-1
 *      client 1 ...
 * </pre>
 * Each client's response block is on the client's own node, or on the trustee's for a client on a node
 * without memory: a closed word the trustee sets on {@link #close()}, then per slot
 * [result][status][payloadBytes of payload][check][sequence][closed] (the slot's closed word is set on close in response
 * blocks on the trustee's node, for clients that poll them by RDMA READ). A slot's check word holds the
 * sequence of the request or response its body belongs to.
 *
 * <h2>Protocol and costs</h2>
 * Requests and responses follow the library's ordering rule for WRITEs (docs/DATA-STRUCTURES.md,
 * "Ordering rule for WRITEs"). A remote client writes a request's body (first two words, the whole payload
 * area and the check word, last) and then its sequence word as two RDMA WRITEs, in one doorbell by default
 * ({@link WriteOrder#ONE_DOORBELL}) or the sequence once the body completed
 * ({@link TrusteeClient#connect(ComputeThread, long, WriteOrder)}); a client on the trustee's node stores
 * them with the CPU and no RDMA. {@link #serveOnce()} visits every joined client round-robin (starting one
 * client further each pass) and each of its slots once, with CPU loads of this node's memory: a slot holds
 * a new request when its sequence word equals the last one served there plus one (an exact match, so a
 * torn store of the word is never taken for a request) and its check word equals it too; a sequence
 * without its check is a body that has not landed yet: the pass leaves it for a later one and counts it
 * ({@link #orderViolations()}).
 * A client's new requests are served in the order the client made them (each carries the client's
 * request count modulo 2<sup>16</sup>; at most {@link #MAX_SLOTS_PER_CLIENT} are in flight), whichever
 * slots they sit in: a request is served only after every request the client made before it, so one
 * that the pass sees before an earlier one waits for the earlier one's pass. It runs each request's operation (the <b>linearization point</b> of the client's call) and stores the
 * response: with CPU stores for a client on this node, else into a doorbell batch of two RDMA WRITEs per
 * response (the body: result, status, payload area and check word; then the sequence word, which the
 * client polls beside the check word in the same way), one batch per client node at the end of the
 * pass, every batch posted before any is awaited. A pass therefore costs no RDMA for local clients, 2
 * WRITEs per response to another node, one doorbell per node with responses (per
 * {@code wrsPerBatch / 2} responses) and <b>1 round trip</b> in all while the batches fit the
 * operations a compute thread may have in flight and its buffer; a trustee created with
 * {@link WriteOrder#COMPLETION} sends the bodies, awaits them and then the sequence words: <b>2 round
 * trips</b> per pass. A pass serves each client at most
 * {@code slotsPerClient} requests, and every request that was in place, with all of its client's earlier
 * ones, before the pass reached its client, so no client starves: a request waits at most one pass behind every other client's. Serving is blocking (the caller's thread
 * serves); one {@link #serveOnce()} finishes in a bounded number of steps when the registered operations
 * do, waiting only for its response WRITEs' completions (each bounded by the operation timeout).
 *
 * <p>A client node that fails a response WRITE (it stopped answering, or its queue pair broke) costs
 * the pass the transport timeout once; the trustee then gives up every client on that node for good
 * ({@link #droppedClients()}), whose calls fail at their deadlines, and serves the others on. A client
 * thread that dies leaves its slots idle and costs the others nothing.
 *
 * <h2>Payloads</h2>
 * A trustee made with {@code payloadBytes > 0} also runs {@link TrusteePayloadOperation}s: a request
 * carries up to {@code payloadBytes} bytes in its slot (its argument word holds their count) and the
 * response as many back (its result word holds theirs), so a larger request costs what a word request
 * does: 2 WRITEs there (the first one longer: it covers the whole payload area, zeroed past the payload,
 * so that its check word stays last) and 2 back. Every slot has room for the largest payload
 * both ways, so the trustee's block and each response block grow by {@code payloadBytes} per slot, and
 * the trustee keeps {@code maxClients * slotsPerClient * payloadBytes} bytes of staging for responses to
 * other nodes. A word request to a payload operation, or a payload request to a word operation, is
 * refused with {@link DelegatedOperationException}.
 *
 * <p>The class has no public constructor and is not meant to be extended.
 *
 * @param <T> the type of the properties
 */
public class Trustee<T> implements AutoCloseable {
    /** The most operation ids: ids run 0..{@code MAX_OPERATIONS - 1}. */
    public static final int MAX_OPERATIONS = (1 << 16) - 2;
    /** The reserved operation id of a request that takes one more reference to its property ({@link TrusteeClient#share}). */
    static final int RETAIN = 0xFFFF;
    /** The reserved operation id of a request that drops a reference to its property ({@link Trust#release}). */
    static final int RELEASE = 0xFFFE;
    /** The most clients one trustee takes. */
    public static final int MAX_CLIENTS = 1 << 12;
    /** The most request slots (requests in flight) per client. */
    public static final int MAX_SLOTS_PER_CLIENT = 256;
    /** The largest payload a request or a response may carry, in bytes. */
    public static final int MAX_PAYLOAD_BYTES = 4096;
    /** The most bytes a trustee keeps to stage payload responses to other nodes ({@code maxClients * slots * payloadBytes}). */
    public static final long MAX_PAYLOAD_STAGING_BYTES = 64L << 20;
    /** The bit of a request's property word that marks a payload request. */
    static final long PAYLOAD_FLAG = 1L << 31;

    static final long MAGIC = 0x7457;

    /** A request's first word: the client's issue number (16 bits), the operation id (16) and the property id (32). */
    static long requestHead(int issue, int opId, int propertyId) {
        return (long) (issue & 0xFFFF) << 48 | (long) (opId & 0xFFFF) << 32 | (propertyId & 0x7FFF_FFFFL);
    }
    static final long HEADER_BYTES = 64;
    static final long SHAPE = 0;
    static final long STATE = 8;
    static final long CLAIMS = 16;
    /** A request slot without payload; a slot is {@link SlotLayout#requestBytes} long. */
    static final long REQUEST_BYTES = 32;
    static final long REQUEST_OP = 0;
    static final long REQUEST_ARG = 8;
    static final long REQUEST_PAYLOAD = 16;
    /** The check word's offset in a request or response slot without payload; see {@link SlotLayout#check}. */
    static final long REQUEST_CHECK = 16;
    /** The sequence word's offset in a request or response slot without payload; see {@link SlotLayout#sequence}. */
    static final long REQUEST_SEQUENCE = 24;
    static final long RESPONSE_HEADER_BYTES = 8;
    static final long RESPONSE_RESULT = 0;
    static final long RESPONSE_STATUS = 8;
    static final long RESPONSE_PAYLOAD = 16;
    static final long STATUS_OK = 0;
    static final long STATUS_UNKNOWN_OPERATION = 1;
    static final long STATUS_UNKNOWN_PROPERTY = 2;
    static final long STATUS_OPERATION_THREW = 3;
    static final long STATUS_RELEASED_PROPERTY = 4;
    static final long STATUS_WORD_OPERATION = 5;
    static final long STATUS_PAYLOAD_OPERATION = 6;
    static final long STATUS_BAD_PAYLOAD = 7;
    static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();
    private static final long GONE = -1;

    private final ComputeThread thread;
    private final long ptr;
    private final MemorySegment block;
    private final int maxClients;
    private final int slots;
    private final SlotLayout layout;
    private final long clientBytes;
    private final int payloadBytes;
    private final long requestBytes;
    private final long requestSequence;
    private final long requestCheck;
    private final long responseSequence;
    private final long responseCheck;
    private final WriteOrder order;
    private long orderViolations;
    private final long responseBytes;
    private final List<TrusteeOperation<T>> operations = new ArrayList<>();
    private final List<TrusteePayloadOperation<T>> payloadOperations = new ArrayList<>();
    /** Scratch the payload operations write their responses into. */
    private final MemorySegment responseScratch;
    /** Per response to another node in the pass (by its index there): its payload, at {@code index * payloadBytes}. */
    private final MemorySegment outPayload;
    private final List<T> properties = new ArrayList<>();
    /** Per property: its references; 0 once released (the property is then null). */
    private final List<Integer> references = new ArrayList<>();
    private final long[] responseBlock;
    private final MemorySegment[] localResponses;
    private final long[] lastSequence;
    private final int batchResponses;
    private final int batchesInFlight;
    private final int[] outClient;
    private final int[] outSlot;
    private final long[] outResult;
    private final int[] outLength;
    private final long[] outStatus;
    private final long[] outSequence;
    /** Per response of the pass: sent in the current phase of {@link #flush()}. */
    private final boolean[] outSent;
    private final long[] inFlight;
    private final int[] inFlightNode;
    private int outCount;
    private int dropped;
    private int inFlightCount;
    private int joined;
    private int rotation;
    /** Per client: the issue number (modulo 2<sup>16</sup>) of the request it made after the last one served. */
    private final int[] nextIssue;
    /** Scratch of one client's ready slots in a pass, in the client's issue order. */
    private final int[] readySlot;
    private final int[] readyOrder;
    private boolean closed;

    Trustee(ComputeThread thread, long ptr, MemorySegment block, int maxClients, int slots, int payloadBytes) {
        this(thread, ptr, block, maxClients, slots, payloadBytes, WriteOrder.ONE_DOORBELL);
    }

    Trustee(ComputeThread thread, long ptr, MemorySegment block, int maxClients, int slots, int payloadBytes,
            WriteOrder order) {
        this.thread = thread;
        this.order = order;
        this.ptr = ptr;
        this.block = block;
        this.maxClients = maxClients;
        this.slots = slots;
        this.payloadBytes = payloadBytes;
        this.layout = new SlotLayout(slots, payloadBytes);
        this.clientBytes = layout.clientBytes();
        this.requestBytes = layout.requestBytes();
        this.requestSequence = layout.sequence();
        this.requestCheck = layout.check();
        this.responseSequence = layout.sequence();
        this.responseCheck = layout.check();
        this.responseBytes = layout.responseBytes();
        this.responseScratch = MemorySegment.ofArray(new long[payloadBytes / 8]);
        this.outPayload = MemorySegment.ofArray(new long[maxClients * slots * (payloadBytes / 8)]);
        this.responseBlock = new long[maxClients];
        this.localResponses = new MemorySegment[maxClients];
        this.lastSequence = new long[maxClients * slots];
        this.nextIssue = new int[maxClients];
        this.readySlot = new int[slots];
        this.readyOrder = new int[slots];
        this.batchResponses = (int) Math.max(1, Math.min(thread.config().wrsPerBatch() / 2,
                thread.buffer().byteSize() / responseBytes));
        this.batchesInFlight = (int) Math.max(1, Math.min(thread.config().opsInFlightPerThread(),
                thread.buffer().byteSize() / (batchResponses * responseBytes)));
        int most = maxClients * slots;
        this.outClient = new int[most];
        this.outSlot = new int[most];
        this.outResult = new long[most];
        this.outLength = new int[most];
        this.outStatus = new long[most];
        this.outSequence = new long[most];
        this.outSent = new boolean[most];
        this.inFlight = new long[batchesInFlight];
        this.inFlightNode = new int[batchesInFlight];
    }

    static long blockBytes(int maxClients, int slots, int payloadBytes) {
        return new SlotLayout(slots, payloadBytes).blockBytes(maxClients);
    }

    /**
     * Creates a trustee on {@code thread}'s node: allocates and zeroes its block (the allocator's
     * costs; the block is written with CPU stores). No operation is registered and no property
     * entrusted yet.
     *
     * @param thread         the trustee's compute thread; its owner serves
     * @param maxClients     client places, 1..{@value #MAX_CLIENTS}: every {@link TrusteeClient#connect} takes one for
     *                       good, a closed client's too, so count every connect over the trustee's life
     * @param slotsPerClient requests each client may have in flight, 1..{@value #MAX_SLOTS_PER_CLIENT}
     * @param <T>            the type of the properties
     * @return the trustee
     * @throws BadArgumentException naming the value, for a count out of range, a block larger than one
     *                              allocation, or a thread on a node without memory
     */
    public static <T> Trustee<T> create(ComputeThread thread, int maxClients, int slotsPerClient) {
        return create(thread, maxClients, slotsPerClient, 0);
    }

    /**
     * Creates a trustee that also runs {@link TrusteePayloadOperation}s, whose requests and responses carry
     * up to {@code payloadBytes} bytes each (see the class comment for the memory this takes); otherwise as
     * {@link #create(ComputeThread, int, int)}.
     *
     * @param thread         the trustee's compute thread; its owner serves
     * @param maxClients     client places, 1..{@value #MAX_CLIENTS}: every {@link TrusteeClient#connect} takes one for
     *                       good, a closed client's too, so count every connect over the trustee's life
     * @param slotsPerClient requests each client may have in flight, 1..{@value #MAX_SLOTS_PER_CLIENT}
     * @param payloadBytes   the largest payload of a request or a response: 0..{@value #MAX_PAYLOAD_BYTES}, a
     *                       multiple of 8; 0 makes a trustee of word operations only
     * @param <T>            the type of the properties
     * @return the trustee
     * @throws BadArgumentException naming the value, for a count or size out of range, a block larger than one
     *                              allocation, response staging above {@value #MAX_PAYLOAD_STAGING_BYTES} bytes, or
     *                              a thread on a node without memory
     */
    public static <T> Trustee<T> create(ComputeThread thread, int maxClients, int slotsPerClient, int payloadBytes) {
        return create(thread, maxClients, slotsPerClient, payloadBytes, WriteOrder.ONE_DOORBELL);
    }

    /**
     * Creates a trustee whose responses to clients on other nodes are written in {@code order}; otherwise as
     * {@link #create(ComputeThread, int, int, int)}. With {@link WriteOrder#COMPLETION} a pass sends every
     * response body, awaits them, then sends the sequence words: 2 round trips per pass with responses to
     * other nodes instead of 1.
     *
     * @param thread         the trustee's compute thread; its owner serves
     * @param maxClients     client places, 1..{@value #MAX_CLIENTS}: every {@link TrusteeClient#connect} takes one for
     *                       good, a closed client's too, so count every connect over the trustee's life
     * @param slotsPerClient requests each client may have in flight, 1..{@value #MAX_SLOTS_PER_CLIENT}
     * @param payloadBytes   the largest payload of a request or a response: 0..{@value #MAX_PAYLOAD_BYTES}, a
     *                       multiple of 8; 0 makes a trustee of word operations only
     * @param order          how a response's body WRITE and its sequence WRITE are ordered
     * @param <T>            the type of the properties
     * @return the trustee
     * @throws BadArgumentException naming the value, as {@link #create(ComputeThread, int, int, int)}
     */
    public static <T> Trustee<T> create(ComputeThread thread, int maxClients, int slotsPerClient, int payloadBytes,
                                        WriteOrder order) {
        Objects.requireNonNull(thread, "thread");
        Objects.requireNonNull(order, "order");
        long ptr = allocate(thread, maxClients, slotsPerClient, payloadBytes);
        long bytes = blockBytes(maxClients, slotsPerClient, payloadBytes);
        return new Trustee<>(thread, ptr, thread.localSegment(ptr, bytes), maxClients, slotsPerClient, payloadBytes, order);
    }

    /** {@return how this trustee orders a response's body WRITE and its sequence WRITE} */
    public WriteOrder writeOrder() {
        return order;
    }

    /**
     * {@return how many times a pass found a request slot's new sequence word beside an old check word: the
     *         client's two WRITEs landed out of order, and the pass left the request for a later one instead
     *         of serving a stale body}
     */
    public long orderViolations() {
        return orderViolations;
    }

    static long allocate(ComputeThread thread, int maxClients, int slotsPerClient, int payloadBytes) {
        if (maxClients < 1 || maxClients > MAX_CLIENTS) {
            throw new BadArgumentException("maxClients must be 1.." + MAX_CLIENTS + ", got " + maxClients);
        }
        if (slotsPerClient < 1 || slotsPerClient > MAX_SLOTS_PER_CLIENT) {
            throw new BadArgumentException("slotsPerClient must be 1.." + MAX_SLOTS_PER_CLIENT + ", got " + slotsPerClient);
        }
        if (payloadBytes < 0 || payloadBytes > MAX_PAYLOAD_BYTES || payloadBytes % 8 != 0) {
            throw new BadArgumentException("payloadBytes must be a multiple of 8 in 0.." + MAX_PAYLOAD_BYTES + ", got "
                    + payloadBytes);
        }
        long staging = (long) maxClients * slotsPerClient * payloadBytes;
        if (staging > MAX_PAYLOAD_STAGING_BYTES) {
            throw new BadArgumentException("a trustee of " + maxClients + " clients with " + slotsPerClient + " slots of "
                    + payloadBytes + " payload bytes stages " + staging + " bytes of responses, more than "
                    + MAX_PAYLOAD_STAGING_BYTES);
        }
        SlotLayout layout = new SlotLayout(slotsPerClient, payloadBytes);
        if (thread.buffer().byteSize() < layout.responseBytes()) {
            throw new BadArgumentException("compute thread buffer of " + thread.buffer().byteSize() + " bytes cannot stage one "
                    + layout.responseBytes() + "-byte response of " + payloadBytes + " payload bytes");
        }
        long bytes = layout.blockBytes(maxClients);
        if (bytes > SizeClasses.MAX) {
            throw new BadArgumentException("a trustee of " + maxClients + " clients with " + slotsPerClient + " slots"
                    + (payloadBytes == 0 ? "" : " of " + payloadBytes + " payload bytes") + " takes "
                    + bytes + " bytes, more than one allocation's " + SizeClasses.MAX);
        }
        if (!thread.config().memoryNodes().contains(thread.nodeId())) {
            throw new BadArgumentException("node " + thread.nodeId() + " has no memory for a trustee's block");
        }
        long ptr = thread.allocator().allocate(bytes, thread.nodeId());
        MemorySegment view = thread.localSegment(ptr, bytes);
        view.fill((byte) 0);
        WORD.setVolatile(view, SHAPE, MAGIC << 48 | (long) (payloadBytes / 8) << 32 | (long) maxClients << 16 | slotsPerClient);
        return ptr;
    }

    /** {@return the trustee's block, for {@link TrusteeClient#connect}} */
    public long ptr() {
        return ptr;
    }

    /** {@return the node the trustee serves on} */
    public int nodeId() {
        return thread.nodeId();
    }

    /** {@return how many clients have joined and been seen by a pass} */
    public int clients() {
        return joined;
    }

    /**
     * Registers an operation under {@code opId}, replacing none. No RDMA.
     *
     * @param opId      0..{@code MAX_OPERATIONS - 1}, not registered yet
     * @param operation what requests naming {@code opId} run
     * @return this trustee
     * @throws BadArgumentException naming the id, when it is out of range or already registered
     */
    public Trustee<T> register(int opId, TrusteeOperation<T> operation) {
        Objects.requireNonNull(operation, "operation");
        checkFree(opId);
        operations.set(opId, operation);
        return this;
    }

    /**
     * Registers a payload operation under {@code opId}, replacing none: requests call it with
     * {@link Trust#apply(int, MemorySegment, MemorySegment, Duration)}. No RDMA.
     *
     * @param opId      0..{@code MAX_OPERATIONS - 1}, not registered yet (as either kind)
     * @param operation what payload requests naming {@code opId} run
     * @return this trustee
     * @throws BadArgumentException naming the id, when it is out of range or already registered, or when this
     *                              trustee was made without payloads
     */
    public Trustee<T> register(int opId, TrusteePayloadOperation<T> operation) {
        Objects.requireNonNull(operation, "operation");
        if (payloadBytes == 0) {
            throw new BadArgumentException("trustee " + RemotePtr.toString(ptr) + " carries no payloads (payloadBytes 0); "
                    + "payload operation " + opId + " could never be called");
        }
        checkFree(opId);
        payloadOperations.set(opId, operation);
        return this;
    }

    private void checkFree(int opId) {
        thread.checkOwnerThread();
        if (opId < 0 || opId >= MAX_OPERATIONS) {
            throw new BadArgumentException("opId must be 0.." + (MAX_OPERATIONS - 1) + ", got " + opId);
        }
        while (operations.size() <= opId) {
            operations.add(null);
            payloadOperations.add(null);
        }
        if (operations.get(opId) != null || payloadOperations.get(opId) != null) {
            throw new BadArgumentException("opId " + opId + " is registered on trustee " + RemotePtr.toString(ptr) + " already");
        }
    }

    /** {@return the largest payload a request or response carries; 0 for a trustee of word operations only} */
    public int payloadBytes() {
        return payloadBytes;
    }

    /**
     * Takes {@code property} into the trustee's care and returns its id, the next one from 0, with one
     * reference, the caller's: drop it with {@link #release}. No RDMA.
     *
     * @param property the object; only operations run by this trustee should touch it from now on
     * @return its property id, for {@link TrusteeClient#trust} and {@link TrusteeClient#share}
     */
    public int entrust(T property) {
        Objects.requireNonNull(property, "property");
        thread.checkOwnerThread();
        properties.add(property);
        references.add(1);
        return properties.size() - 1;
    }

    /**
     * Drops one reference to a property on the trustee's own thread, as {@link Trust#release} does from a
     * client: when none is left the property is dropped (closed first when it is {@link AutoCloseable}), and
     * later requests naming it fail with {@link DelegatedOperationException}. Its id is not reused. No RDMA.
     *
     * @param propertyId an id {@link #entrust} returned, not released yet
     * @return the references left
     * @throws BadArgumentException naming the id, when no live property has it
     */
    public int release(int propertyId) {
        thread.checkOwnerThread();
        live(propertyId);
        return dropReference(propertyId);
    }

    /**
     * Counts a property's references.
     *
     * @param propertyId an id {@link #entrust} returned
     * @return its references: 1 for the entrusting caller's until {@link #release}, plus one per
     *         {@link TrusteeClient#share} not released yet; 0 once released
     * @throws BadArgumentException naming the id, when no property ever had it
     */
    public int references(int propertyId) {
        thread.checkOwnerThread();
        if (propertyId < 0 || propertyId >= properties.size()) {
            throw new BadArgumentException("no property " + propertyId + " on trustee " + RemotePtr.toString(ptr) + " ("
                    + properties.size() + " entrusted)");
        }
        return references.get(propertyId);
    }

    private void live(int propertyId) {
        if (references(propertyId) == 0) {
            throw new BadArgumentException("property " + propertyId + " on trustee " + RemotePtr.toString(ptr)
                    + " was released");
        }
    }

    /** Drops a reference of a live property, and the property with the last one; returns the references left. */
    private int dropReference(int propertyId) {
        int left = references.get(propertyId) - 1;
        references.set(propertyId, left);
        if (left == 0) {
            T property = properties.set(propertyId, null);
            if (property instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new DelegatedOperationException("property " + propertyId + " on trustee " + RemotePtr.toString(ptr)
                            + " was released, and closing it threw " + e);
                }
            }
        }
        return left;
    }

    /**
     * Looks up a live property.
     *
     * @param propertyId an id {@link #entrust} returned
     * @return the property, for the trustee's own thread
     * @throws BadArgumentException naming the id, when no property has it or it was released
     */
    public T property(int propertyId) {
        thread.checkOwnerThread();
        live(propertyId);
        return properties.get(propertyId);
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * One pass over every client's slots, round-robin: runs each new request and sends its response (see
     * the class comment for the costs: no RDMA for clients on this node; for the others 2 WRITEs per
     * response and 1 round trip per pass, 2 with {@link WriteOrder#COMPLETION}). A request whose sequence
     * word is there before its check word is left for a later pass and counted ({@link #orderViolations()}).
     * Bounded when the operations are: it waits only for its WRITEs' completions.
     *
     * @return how many requests the pass served
     * @throws TrusteeClosedException after {@link #close()}
     */
    public int serveOnce() {
        thread.checkOwnerThread();
        if (closed) {
            throw new TrusteeClosedException("trustee " + RemotePtr.toString(ptr) + " is closed");
        }
        int claimed = (int) Math.min(maxClients, (long) WORD.getVolatile(block, CLAIMS));
        if (joined < claimed) {
            admit(claimed);
        }
        int n = claimed;
        if (n == 0) {
            return 0;
        }
        int start = rotation++ % n;
        if (rotation >= n) {
            rotation = 0;
        }
        int served = 0;
        for (int k = 0; k < n; k++) {
            int c = start + k < n ? start + k : start + k - n;
            if (responseBlock[c] == 0 || responseBlock[c] == GONE) {
                continue;
            }
            long base = HEADER_BYTES + c * clientBytes + 8;
            int ready = 0;
            for (int s = 0; s < slots; s++) {
                long slot = base + s * requestBytes;
                long expected = lastSequence[c * slots + s] + 1;
                if ((long) WORD.getAcquire(block, slot + requestSequence) == expected) {
                    if (!bodyLanded((long) WORD.getAcquire(block, slot + requestCheck), expected)) {
                        orderViolations++;
                        continue;
                    }
                    // Insertion by the client's issue order, counted from the next request it expects.
                    long head = block.get(ValueLayout.JAVA_LONG, slot + REQUEST_OP);
                    int order = (int) ((head >>> 48) - nextIssue[c]) & 0xFFFF;
                    int at = ready++;
                    while (at > 0 && readyOrder[at - 1] > order) {
                        readySlot[at] = readySlot[at - 1];
                        readyOrder[at] = readyOrder[at - 1];
                        at--;
                    }
                    readySlot[at] = s;
                    readyOrder[at] = order;
                }
            }
            // Only the run of requests that continues the client's order: a later request seen before an
            // earlier one (its WRITEs landed while this pass was past the earlier one's slot) waits for it.
            for (int r = 0; r < ready && readyOrder[r] == r; r++) {
                int s = readySlot[r];
                long slot = base + s * requestBytes;
                int index = c * slots + s;
                long sequence = ++lastSequence[index];
                long head = block.get(ValueLayout.JAVA_LONG, slot + REQUEST_OP);
                long arg = block.get(ValueLayout.JAVA_LONG, slot + REQUEST_ARG);
                nextIssue[c] = (int) (head >>> 48) + 1;
                serve(c, s, (int) (head >>> 32) & 0xFFFF, (int) (head & 0x7FFF_FFFFL), (head & PAYLOAD_FLAG) != 0,
                        slot, arg, sequence);
                served++;
            }
        }
        flush();
        return served;
    }

    private void serve(int client, int slot, int opId, int propertyId, boolean payload, long request, long arg, long sequence) {
        TrusteeOperation<T> op = opId < operations.size() ? operations.get(opId) : null;
        TrusteePayloadOperation<T> payloadOp = opId < payloadOperations.size() ? payloadOperations.get(opId) : null;
        long result = 0;
        long status;
        int responseLength = 0;
        if (propertyId >= properties.size()) {
            status = opId == RETAIN || opId == RELEASE || op != null || payloadOp != null ? STATUS_UNKNOWN_PROPERTY
                    : STATUS_UNKNOWN_OPERATION;
        } else if (references.get(propertyId) == 0) {
            status = STATUS_RELEASED_PROPERTY;
        } else if (opId == RETAIN) {
            result = references.get(propertyId) + 1;
            references.set(propertyId, (int) result);
            status = STATUS_OK;
        } else if (opId == RELEASE) {
            try {
                result = dropReference(propertyId);
                status = STATUS_OK;
            } catch (DelegatedOperationException closeThrew) {
                status = STATUS_OPERATION_THREW;
            }
        } else if (payload) {
            if (payloadOp == null) {
                status = op != null ? STATUS_WORD_OPERATION : STATUS_UNKNOWN_OPERATION;
            } else if (arg < 0 || arg > payloadBytes) {
                status = STATUS_BAD_PAYLOAD;
            } else {
                try {
                    int n = payloadOp.apply(properties.get(propertyId), block.asSlice(request + REQUEST_PAYLOAD, arg).asReadOnly(),
                            responseScratch);
                    if (n < 0 || n > payloadBytes) {
                        status = STATUS_BAD_PAYLOAD;
                    } else {
                        result = n;
                        responseLength = n;
                        status = STATUS_OK;
                    }
                } catch (RuntimeException e) {
                    status = STATUS_OPERATION_THREW;
                }
            }
        } else if (op == null) {
            status = payloadOp != null ? STATUS_PAYLOAD_OPERATION : STATUS_UNKNOWN_OPERATION;
        } else {
            try {
                result = run(op, properties.get(propertyId), arg);
                status = STATUS_OK;
            } catch (RuntimeException e) {
                status = STATUS_OPERATION_THREW;
            }
        }
        respond(client, slot, result, status, responseLength, sequence);
    }

    /**
     * Whether a request slot whose sequence word holds {@code sequence} holds that request's body too: its
     * check word, the body WRITE's last word, holds the same sequence.
     */
    boolean bodyLanded(long check, long sequence) {
        return check == sequence;
    }

    /** Runs one request's operation: the linearization point of the client's call. */
    long run(TrusteeOperation<T> op, T state, long arg) {
        return op.apply(state, arg);
    }

    private void respond(int client, int slot, long result, long status, int responseLength, long sequence) {
        long offset = RESPONSE_HEADER_BYTES + slot * responseBytes;
        MemorySegment local = localResponses[client];
        if (local != null) {
            local.set(ValueLayout.JAVA_LONG, offset + RESPONSE_RESULT, result);
            local.set(ValueLayout.JAVA_LONG, offset + RESPONSE_STATUS, status);
            MemorySegment.copy(responseScratch, 0, local, offset + RESPONSE_PAYLOAD, responseLength);
            local.set(ValueLayout.JAVA_LONG, offset + responseCheck, sequence);
            WORD.setRelease(local, offset + responseSequence, sequence);
            return;
        }
        MemorySegment.copy(responseScratch, 0, outPayload, (long) outCount * payloadBytes, responseLength);
        outClient[outCount] = client;
        outSlot[outCount] = slot;
        outResult[outCount] = result;
        outLength[outCount] = responseLength;
        outStatus[outCount] = status;
        outSequence[outCount] = sequence;
        outCount++;
    }

    /**
     * Sends the pass's responses to clients on other nodes: one doorbell batch per node (more where a
     * node has more than {@code batchResponses} responses), every batch posted before any is awaited. With
     * {@link WriteOrder#ONE_DOORBELL} each response is its body WRITE and its sequence WRITE in one batch;
     * with {@link WriteOrder#COMPLETION} every body goes first, and the sequence words once they completed.
     */
    private void flush() {
        if (order == WriteOrder.COMPLETION) {
            send(true, false);
            send(false, true);
        } else {
            send(true, true);
        }
        outCount = 0;
    }

    /**
     * Zeroes {@code [from, to)} of {@code buffer}, {@code to} 8-byte aligned: the payload bytes of a staged slot
     * past its payload, so that no byte of an earlier request or response is sent with it.
     */
    static void zeroTail(MemorySegment buffer, long from, long to) {
        long aligned = Math.min(to, (from + 7) & ~7L);
        for (long b = from; b < aligned; b++) {
            buffer.set(ValueLayout.JAVA_BYTE, b, (byte) 0);
        }
        for (long w = aligned; w < to; w += 8) {
            buffer.set(ValueLayout.JAVA_LONG, w, 0L);
        }
    }

    /** One phase of {@link #flush()}: the bodies, the sequence words, or both, of every response not given up. */
    private void send(boolean bodies, boolean sequences) {
        int left = outCount;
        MemorySegment buffer = thread.buffer();
        for (int i = 0; i < outCount; i++) {
            outSent[i] = outClient[i] < 0;
            if (outSent[i]) {
                left--;
            }
        }
        while (left > 0) {
            int node = -1;
            DoorbellBatch batch = thread.batch();
            int inBatch = 0;
            for (int i = 0; i < outCount; i++) {
                if (outSent[i]) {
                    continue;
                }
                int c = outClient[i];
                if (responseBlock[c] == GONE) {
                    outSent[i] = true;
                    left--;
                    continue;
                }
                if (node >= 0 && RemotePtr.node(responseBlock[c]) != node) {
                    continue;
                }
                node = RemotePtr.node(responseBlock[c]);
                long staging = ((long) inFlightCount * batchResponses + inBatch) * responseBytes;
                long target = responseBlock[c] + RESPONSE_HEADER_BYTES + outSlot[i] * responseBytes;
                if (bodies) {
                    int length = outLength[i];
                    buffer.set(ValueLayout.JAVA_LONG, staging + RESPONSE_RESULT, outResult[i]);
                    buffer.set(ValueLayout.JAVA_LONG, staging + RESPONSE_STATUS, outStatus[i]);
                    MemorySegment.copy(outPayload, (long) i * payloadBytes, buffer, staging + RESPONSE_PAYLOAD, length);
                    zeroTail(buffer, staging + RESPONSE_PAYLOAD + length, staging + responseCheck);
                    buffer.set(ValueLayout.JAVA_LONG, staging + responseCheck, outSequence[i]);
                    batch.write(target, staging, (int) responseSequence);
                }
                if (sequences) {
                    buffer.set(ValueLayout.JAVA_LONG, staging + responseSequence, outSequence[i]);
                    batch.write(target + responseSequence, staging + responseSequence, 8);
                }
                outSent[i] = true;
                left--;
                if (++inBatch == batchResponses) {
                    post(batch, node);
                    inBatch = 0;
                }
            }
            if (inBatch > 0) {
                post(batch, node);
            }
        }
        awaitPosted();
    }

    private void post(DoorbellBatch batch, int node) {
        try {
            inFlight[inFlightCount] = batch.post();
            inFlightNode[inFlightCount] = node;
            inFlightCount++;
        } catch (RemoteOperationException | RemoteTimeoutException e) {
            batch.clear();
            drop(node);
        }
        if (inFlightCount == batchesInFlight) {
            awaitPosted();
        }
    }

    private void awaitPosted() {
        for (int i = 0; i < inFlightCount; i++) {
            try {
                thread.await(inFlight[i]);
            } catch (RemoteOperationException | RemoteTimeoutException e) {
                drop(inFlightNode[i]);
            }
        }
        inFlightCount = 0;
    }

    /** Gives up every client on {@code node}, whose memory failed a response WRITE. */
    private void drop(int node) {
        for (int c = 0; c < maxClients; c++) {
            long block = responseBlock[c];
            if (block != 0 && block != GONE && RemotePtr.node(block) == node) {
                responseBlock[c] = GONE;
                localResponses[c] = null;
                dropped++;
            }
        }
    }

    /**
     * {@return how many clients this trustee gave up because their node failed a response WRITE (it
     *         stopped answering or its queue pair broke): it serves them no more}
     */
    public int droppedClients() {
        return dropped;
    }

    private void admit(int claimed) {
        int all = 0;
        for (int c = 0; c < claimed; c++) {
            if (responseBlock[c] == 0) {
                long response = (long) WORD.getVolatile(block, HEADER_BYTES + c * clientBytes);
                if (response != 0) {
                    responseBlock[c] = response;
                    if (RemotePtr.node(response) == thread.nodeId()) {
                        localResponses[c] = thread.localSegment(response, layout.responseBlockBytes());
                    }
                }
            }
            if (responseBlock[c] != 0) {
                all++;
            }
        }
        joined = all;
    }

    /**
     * Serves passes until {@code duration} has passed, yielding the processor after a pass that found
     * nothing. Blocking for {@code duration}.
     *
     * @param duration how long to serve, not negative
     * @return how many requests were served
     * @throws BadArgumentException naming the value, for a negative duration
     */
    public long serve(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new BadArgumentException("duration must not be negative, got " + duration);
        }
        long deadline = ThreadTime.nanoTime() + duration.toNanos();
        long served = 0;
        do {
            int n = serveOnce();
            served += n;
            if (n == 0) {
                ThreadTime.yield();
            }
        } while (ThreadTime.nanoTime() - deadline < 0);
        return served;
    }

    /**
     * Marks the trustee closed: a CPU store of its state word, then the closed word of every joined
     * client's response block (a CPU store for a response block on this node, one RDMA WRITE for each
     * other: one round trip each); in a response block on this node it also sets every slot's closed
     * word. Requests not served yet are never served; their callers, and every
     * later call, fail with {@link TrusteeClosedException}. The block stays allocated, since clients may
     * still look at it. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        thread.checkOwnerThread();
        closed = true;
        WORD.setVolatile(block, STATE, 1L);
        admit((int) Math.min(maxClients, (long) WORD.getVolatile(block, CLAIMS)));
        for (int c = 0; c < maxClients; c++) {
            MemorySegment local = localResponses[c];
            if (local != null) {
                for (int s = 0; s < slots; s++) {
                    WORD.setVolatile(local, RESPONSE_HEADER_BYTES + s * responseBytes + layout.responseClosed(), 1L);
                }
                WORD.setVolatile(local, 0L, 1L);
            } else if (responseBlock[c] != 0 && responseBlock[c] != GONE) {
                try {
                    thread.write(responseBlock[c], 1L);
                } catch (RemoteOperationException | RemoteTimeoutException e) {
                    drop(RemotePtr.node(responseBlock[c]));
                }
            }
        }
    }
}
