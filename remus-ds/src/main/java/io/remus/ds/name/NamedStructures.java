package io.remus.ds.name;

import io.remus.core.ComputeThread;
import io.remus.core.NameDirectory;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.BadNameException;
import io.remus.core.error.NameDirectoryFullException;
import io.remus.core.error.NameNotPublishedException;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.identity.StructureKind;
import io.remus.ds.identity.WrongStructureException;
import io.remus.ds.map.Codec;
import io.remus.ds.map.RemoteHashMap;
import io.remus.ds.map.TypedRemoteHashMap;
import io.remus.ds.object.RemoteCounter;
import io.remus.ds.queue.MpmcScqQueue;
import io.remus.ds.reclaim.Reclaimer;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Structures of remus-ds found by name: create-or-attach over a memory node's {@link NameDirectory}. The first
 * caller of a name creates the structure and binds the name to its root; every other caller, in any thread and
 * node, attaches to that structure. Of racing callers exactly one structure survives: each racer that found the
 * name unbound creates its own, the one whose {@link NameDirectory#publish} binds the name keeps it, and every
 * other destroys its own (freeing what it allocated: nobody else knew its pointer) and attaches to the winner's.
 *
 * <pre>{@code
 * NamedStructures names = NamedStructures.open(thread);                  // the first memory node's directory
 * RemoteCounter hits = names.counter("hits", 0, 0);                      // created by the first caller
 * TypedRemoteHashMap<String, String> users = names.hashMap("users", reclaimer, 1, 1024, 32, 256,
 *         Codec.UTF8, Codec.UTF8);
 * MpmcScqQueue jobs = names.attach("jobs", StructureKind.MPMC_SCQ_QUEUE,  // waits for another program to create it
 *         ptr -> MpmcScqQueue.attach(thread, ptr), Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>A name bound to another kind of structure is a {@link WrongNamedStructureException} naming the name, the kind
 * asked for and the kind found, before anything is created. A name is bound for the directory's life: the winner's
 * parameters (a map's buckets, a queue's capacity) are the structure's, whatever a later caller passes, and a
 * structure destroyed later stays bound (an attach then throws the structure's closed exception).
 *
 * <p>Costs: {@link #createOrAttach} makes one {@link NameDirectory#lookup} (1 READ for an unbound name, 2 for a
 * bound one); a caller that finds the name bound then pays the structure's attach; one that creates pays the
 * structure's create and one {@link NameDirectory#publish} (2 compare-and-swaps more for a new name of up to 7
 * characters), and a loser also the destroy of its own structure and the attach. Lock-free: a caller creates at
 * most one structure and publishes once.
 *
 * <p>One instance per compute thread, used by that thread, as the directory handle it wraps.
 */
public final class NamedStructures {
    private final NameDirectory directory;
    private final ComputeThread thread;

    private NamedStructures(NameDirectory directory) {
        this.directory = directory;
        this.thread = directory.thread();
    }

    /**
     * Named structures in the directory of the cluster's first memory node ({@link NameDirectory#open(ComputeThread)}).
     *
     * @param thread the caller's compute thread
     * @return the caller's handle
     */
    public static NamedStructures open(ComputeThread thread) {
        return new NamedStructures(NameDirectory.open(thread));
    }

    /**
     * Named structures in the directory of memory node {@code nodeId} ({@link NameDirectory#open(ComputeThread, int)}).
     *
     * @param thread the caller's compute thread
     * @param nodeId a memory node
     * @return the caller's handle
     * @throws BadArgumentException when {@code nodeId} is not a memory node
     */
    public static NamedStructures open(ComputeThread thread, int nodeId) {
        return new NamedStructures(NameDirectory.open(thread, nodeId));
    }

    /**
     * Named structures in {@code directory}, used by the directory's thread.
     *
     * @param directory a directory handle
     * @return a handle over it
     */
    public static NamedStructures of(NameDirectory directory) {
        return new NamedStructures(Objects.requireNonNull(directory, "directory"));
    }

    /** {@return the directory handle, for raw pointers and lookups} */
    public NameDirectory directory() {
        return directory;
    }

    /**
     * The structure named {@code name}: attached when the name is bound, else created by {@code creator} and bound
     * to the name; when another caller binds the name first, the created structure is destroyed by
     * {@code destroyer} and the winner's is attached. Costs and progress in the class documentation.
     *
     * @param name      the name, 1..{@value NameDirectory#MAX_NAME_BYTES} printable ASCII characters
     * @param kind      the structure's kind, as {@code attacher} checks it
     * @param creator   creates a structure on this handle's thread (its first handle)
     * @param attacher  attaches to the structure at a root pointer, on this handle's thread; throws
     *                  {@link WrongStructureException} for a root of another kind
     * @param ptrOf     a structure's root pointer, what {@code attacher} takes
     * @param destroyer destroys a structure that nobody else knows, freeing its memory
     * @param <T>       the structure's handle type
     * @return this thread's handle on the named structure: the one {@code creator} made, or an attached one
     * @throws BadNameException              when the name is empty, too long or has a character outside printable
     *                                       ASCII, before any RDMA operation
     * @throws WrongNamedStructureException  when the name is bound to another kind of structure, or to no
     *                                       structure; nothing was created
     * @throws NameDirectoryFullException    when the name is unbound and the directory has no slot left; the
     *                                       created structure was destroyed
     * @throws RuntimeException              what {@code creator} or {@code attacher} throws, such as the
     *                                       structure's closed exception when the named structure was destroyed
     */
    public <T> T createOrAttach(String name, StructureKind kind, Supplier<? extends T> creator,
                               LongFunction<? extends T> attacher, ToLongFunction<? super T> ptrOf,
                               Consumer<? super T> destroyer) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(creator, "creator");
        Objects.requireNonNull(attacher, "attacher");
        Objects.requireNonNull(ptrOf, "ptrOf");
        Objects.requireNonNull(destroyer, "destroyer");
        long bound = directory.lookup(name);
        if (bound != RemotePtr.NULL) {
            return attach(name, kind, bound, attacher);
        }
        T mine = Objects.requireNonNull(creator.get(), "the creator's structure");
        long ptr;
        try {
            ptr = ptrOf.applyAsLong(mine);
            bound = directory.publish(name, ptr);
        } catch (RuntimeException | Error e) {
            try {
                destroyer.accept(mine);
            } catch (RuntimeException | Error suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (bound == ptr) {
            return mine;
        }
        destroyer.accept(mine);
        return attach(name, kind, bound, attacher);
    }

    /**
     * The structure named {@code name}, attached once some caller has bound the name: waits for the binding as
     * {@link NameDirectory#await} does (blocking, up to {@code timeout}), then attaches.
     *
     * @param name     the name, 1..{@value NameDirectory#MAX_NAME_BYTES} printable ASCII characters
     * @param kind     the structure's kind, as {@code attacher} checks it
     * @param attacher attaches to the structure at a root pointer, on this handle's thread
     * @param timeout  how long to wait for the name to be bound, not negative
     * @param <T>      the structure's handle type
     * @return this thread's handle on the named structure
     * @throws BadNameException             when the name is empty, too long or has a character outside printable
     *                                      ASCII, before any RDMA operation
     * @throws NameNotPublishedException    when the name is still unbound at the deadline
     * @throws WrongNamedStructureException when the name is bound to another kind of structure, or to no structure
     * @throws RuntimeException             what {@code attacher} throws otherwise
     */
    public <T> T attach(String name, StructureKind kind, LongFunction<? extends T> attacher, Duration timeout) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(attacher, "attacher");
        Objects.requireNonNull(timeout, "timeout");
        return attach(name, kind, directory.await(name, timeout), attacher);
    }

    /**
     * The {@link RemoteCounter} named {@code name}: {@link #createOrAttach} with
     * {@link RemoteCounter#create(ComputeThread, int, long)} and {@link RemoteCounter#attach}.
     *
     * @param name    the name
     * @param nodeId  the memory node of a counter this call creates
     * @param initial the value of a counter this call creates
     * @return this thread's handle on the named counter
     * @throws WrongNamedStructureException when the name is bound to something else
     */
    public RemoteCounter counter(String name, int nodeId, long initial) {
        return createOrAttach(name, StructureKind.REMOTE_COUNTER, () -> RemoteCounter.create(thread, nodeId, initial),
                ptr -> RemoteCounter.attach(thread, ptr), RemoteCounter::ptr, RemoteCounter::destroy);
    }

    /**
     * The {@link RemoteHashMap} named {@code name} (8-byte keys): {@link #createOrAttach} with
     * {@link RemoteHashMap#create(ComputeThread, Reclaimer, int, int, int)} and {@link RemoteHashMap#attach}.
     *
     * @param name          the name
     * @param reclaimer     this thread's reclaimer, for the handle
     * @param nodeId        the memory node of a map this call creates
     * @param buckets       the buckets of a map this call creates
     * @param maxValueBytes the longest value of a map this call creates
     * @return this thread's handle on the named map
     * @throws WrongNamedStructureException when the name is bound to something else
     */
    public RemoteHashMap hashMap(String name, Reclaimer reclaimer, int nodeId, int buckets, int maxValueBytes) {
        Objects.requireNonNull(reclaimer, "reclaimer");
        return createOrAttach(name, StructureKind.REMOTE_HASH_MAP,
                () -> RemoteHashMap.create(thread, reclaimer, nodeId, buckets, maxValueBytes),
                ptr -> RemoteHashMap.attach(thread, reclaimer, ptr), RemoteHashMap::ptr, RemoteHashMap::destroy);
    }

    /**
     * The {@link TypedRemoteHashMap} named {@code name}: {@link #createOrAttach} with
     * {@link TypedRemoteHashMap#create} and {@link TypedRemoteHashMap#attach}.
     *
     * @param name          the name
     * @param reclaimer     this thread's reclaimer, for the handle
     * @param nodeId        the memory node of a map this call creates
     * @param buckets       the buckets of a map this call creates
     * @param maxKeyBytes   the longest key encoding of a map this call creates
     * @param maxValueBytes the longest value encoding of a map this call creates
     * @param keys          the key codec
     * @param values        the value codec
     * @param <K>           the key type
     * @param <V>           the value type
     * @return this thread's handle on the named map
     * @throws WrongNamedStructureException when the name is bound to something else
     */
    public <K, V> TypedRemoteHashMap<K, V> hashMap(String name, Reclaimer reclaimer, int nodeId, int buckets,
                                                   int maxKeyBytes, int maxValueBytes, Codec<K> keys, Codec<V> values) {
        Objects.requireNonNull(reclaimer, "reclaimer");
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        return createOrAttach(name, StructureKind.REMOTE_HASH_MAP,
                () -> TypedRemoteHashMap.create(thread, reclaimer, nodeId, buckets, maxKeyBytes, maxValueBytes, keys, values),
                ptr -> TypedRemoteHashMap.attach(thread, reclaimer, ptr, keys, values), TypedRemoteHashMap::ptr,
                map -> map.bytes().destroy());
    }

    /**
     * The {@link MpmcScqQueue} named {@code name}: {@link #createOrAttach} with
     * {@link MpmcScqQueue#create(ComputeThread, int)} and {@link MpmcScqQueue#attach}.
     *
     * @param name     the name
     * @param capacity the capacity of a queue this call creates
     * @return this thread's handle on the named queue
     * @throws WrongNamedStructureException when the name is bound to something else
     */
    public MpmcScqQueue scqQueue(String name, int capacity) {
        return createOrAttach(name, StructureKind.MPMC_SCQ_QUEUE, () -> MpmcScqQueue.create(thread, capacity),
                ptr -> MpmcScqQueue.attach(thread, ptr), MpmcScqQueue::ptr, MpmcScqQueue::destroy);
    }

    private static <T> T attach(String name, StructureKind kind, long ptr, LongFunction<? extends T> attacher) {
        try {
            return attacher.apply(ptr);
        } catch (WrongNamedStructureException e) {
            throw e;
        } catch (WrongStructureException e) {
            throw new WrongNamedStructureException(name, ptr, kind, e);
        }
    }
}
