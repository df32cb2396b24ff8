package io.remus.core;

import io.remus.core.time.ThreadTime;
import io.remus.core.error.BadArgumentException;
import io.remus.core.error.BadNameException;
import io.remus.core.error.CorruptedControlBlockException;
import io.remus.core.error.CorruptedMemoryException;
import io.remus.core.error.NameDirectoryFullException;
import io.remus.core.error.NameNotPublishedException;
import io.remus.core.memory.ControlBlock;
import io.remus.core.memory.RemotePtr;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;

/**
 * A memory node's directory of named pointers, in the spirit of LITE's named memory regions: a program
 * publishes several pointers under names ({@code "users"}, {@code "jobs"}) and every thread of every node
 * looks them up by name, instead of sharing the one {@link Root} word. A name is bound once, to the first
 * pointer published under it, and stays bound for the directory's life: every {@link #publish} of the
 * name after that returns the pointer already bound, so "create or attach" races have exactly one winner
 * (remus-ds builds typed create-or-attach on it: {@code io.remus.ds.name}).
 *
 * <pre>{@code
 * NameDirectory names = NameDirectory.open(thread);              // node 0's directory, created on first use
 * long bound = names.publish("users", usersPtr);                 // usersPtr, unless "users" was bound before
 * long users = names.lookup("users");                            // RemotePtr.NULL while unbound
 * long jobs = names.await("jobs", Duration.ofSeconds(10));       // waits until some thread publishes "jobs"
 * }</pre>
 *
 * <p><b>Names</b> are 1..{@value #MAX_NAME_BYTES} characters of printable ASCII ({@code 0x21..0x7E}: no
 * space, no control character), stored inline in their slot and compared exactly; any other name is a
 * {@link BadNameException} naming it, thrown before any RDMA operation.
 *
 * <p><b>Layout.</b> The control block of the memory node's segment 0 holds the directory's pointer at
 * {@link ControlBlock#NAMES} (0 until the first {@link #open} creates the table and publishes it by one
 * compare-and-swap; it never changes after). The table is one allocator block of
 * {@code 8 + 40 * capacity} bytes on that node: a header word, then {@code capacity} slots of five words.
 *
 * <pre>
 *  table + 0            header: magic "RN" (bits 63..48) | version (bits 39..32) | capacity (bits 31..0)
 *  table + 8 + 40 * i   slot i:
 *            +0   name word 0: the name's length in byte 0, its first 7 characters in bytes 1..7
 *            +8   name word 1: characters 8..15  (0 when the name is shorter)
 *            +16  name word 2: characters 16..23
 *            +24  name word 3: characters 24..31
 *            +32  pointer word: the bound pointer, 0 while the name is unbound
 * </pre>
 *
 * (Bytes of a word in little-endian order; a name of {@code n} characters uses its first
 * {@code (n + 8) / 8} name words.) A name's home slot is a hash of its words modulo the capacity; slots are
 * probed linearly from there, wrapping around. Each word of a slot is changed only by RDMA compare-and-swap,
 * and only once: from 0 to its final value. A {@link #publish} claims a slot by storing the name's words in
 * order (a word whose slot already holds another name's word sends it to the next slot; a slot half claimed
 * by a name that stopped is completed by the next publish of the same name), then binds the name by one
 * compare-and-swap of the pointer word from 0, where it linearizes; a {@link #lookup} stops at the first slot
 * that holds the name, or that is empty or half claimed for it, where it linearizes.
 *
 * <p><b>Torn words.</b> An RDMA READ racing a compare-and-swap of the same word can return it half old and
 * half new on some providers (Soft-RoCE copies a READ's payload with memcpy). Since a word only goes from 0
 * to its final value once, a torn name word holds some of its final value's bytes and zeros elsewhere: a word
 * that could be a torn piece of the caller's own word makes the slot be read again (the second READ starts
 * after the first one ended, so after the store, and reads it whole); any other non-zero word is another
 * name's for sure. A pointer word read non-zero is read again alone before it is returned, for the same
 * reason.
 *
 * <p><b>Costs</b> (a directory on another node; on the thread's own node READs are CPU loads): a READ covers
 * up to {@value #WINDOW_SLOTS} consecutive slots (fewer where the thread's buffer is smaller).
 * <ul>
 *   <li>{@link #lookup}: 1 READ of the slots from the name's home when the name's slot, or the first empty
 *       one, is among them (1 round trip for a miss), plus 1 READ of the pointer word for a bound name (2 round
 *       trips); 1 READ more per further {@value #WINDOW_SLOTS} slots probed, and per slot read torn. Wait-free:
 *       each word of a slot is stored at most once, so a slot is read again at most 5
 *       times.</li>
 *   <li>{@link #publish}: the lookup's READs (without the pointer READ), then 1 compare-and-swap per name word
 *       not yet in the slot (1..4; none when the name is already there) and 1 compare-and-swap of the pointer
 *       word: 3 round trips for a new name of up to 7 characters. Wait-free: each slot's words change at most
 *       once, so a publish makes at most 5 compare-and-swaps per slot it visits.</li>
 *   <li>{@link #open}: 2 READs of the control word (the second because the creating compare-and-swap may race
 *       the first) and 1 READ of the header; the creator adds the allocation, the table's WRITEs (one per
 *       buffer's worth of bytes) and 1 compare-and-swap; a creator that loses the race frees its table.</li>
 * </ul>
 *
 * <p>One directory handle per compute thread, used by that thread. Names are never unbound and a slot is never
 * freed: a directory holds at most {@link #capacity()} names over its life ({@link NameDirectoryFullException}
 * after that).
 */
public final class NameDirectory {
    /** The longest name, in characters (bytes): 4 name words of 8 bytes less the length byte. */
    public static final int MAX_NAME_BYTES = 31;
    /** The capacity of a directory that {@link #open(ComputeThread)} creates: 10,248 bytes of table. */
    public static final int DEFAULT_CAPACITY = 256;
    /** The largest capacity: a table of 655,368 bytes, in one block of the largest size class. */
    public static final int MAX_CAPACITY = 16_384;
    /** Bytes of the table's header word. */
    public static final int HEADER_BYTES = 8;
    /** Bytes of one slot: 4 name words and the pointer word. */
    public static final int SLOT_BYTES = 40;
    /** Offset of the pointer word in a slot. */
    public static final int POINTER = 32;
    /** Slots a READ covers at most. */
    public static final int WINDOW_SLOTS = 8;

    private static final int NAME_WORDS = 4;
    private static final int SLOT_WORDS = SLOT_BYTES / 8;
    private static final long MAGIC = 0x524EL;
    private static final int VERSION = 1;
    private static final int OTHER = 0;
    private static final int OPEN = 1;
    private static final int SUSPECT = 2;
    private static final int MINE = 3;
    /** Re-reads of one slot at most: each of its 5 words is stored once, so each can be read torn once. */
    private static final int MAX_REREADS = SLOT_WORDS;
    private static final long FIRST_PAUSE_NANOS = 10_000;
    private static final long LAST_PAUSE_NANOS = 1_000_000;

    private final ComputeThread thread;
    private final int nodeId;
    private final long table;
    private final int capacity;
    private final int window;
    private final long[] slots;
    private final MemorySegment slotsView;
    private final long[] words = new long[NAME_WORDS];
    private int nameWords;

    private NameDirectory(ComputeThread thread, int nodeId, long table, int capacity) {
        this.thread = thread;
        this.nodeId = nodeId;
        this.table = table;
        this.capacity = capacity;
        this.window = Math.max(1, Math.min(WINDOW_SLOTS, thread.config().bufferSizePerThread() / SLOT_BYTES));
        this.slots = new long[window * SLOT_WORDS];
        this.slotsView = MemorySegment.ofArray(slots);
    }

    /**
     * The directory of the cluster's first memory node, created with {@value #DEFAULT_CAPACITY} slots when it
     * has none (or the one that a racing thread created first, whatever its capacity).
     *
     * @param thread the caller's compute thread; the handle is for its use only
     * @return the caller's handle on the directory
     * @throws CorruptedControlBlockException when the node's directory pointer names no directory
     */
    public static NameDirectory open(ComputeThread thread) {
        Objects.requireNonNull(thread, "thread");
        return open(thread, thread.config().memoryNodes().first(), DEFAULT_CAPACITY, false);
    }

    /**
     * The directory of memory node {@code nodeId}, created with {@value #DEFAULT_CAPACITY} slots when it has none
     * (or the one that a racing thread created first, whatever its capacity).
     *
     * @param thread the caller's compute thread; the handle is for its use only
     * @param nodeId a memory node
     * @return the caller's handle on the directory
     * @throws BadArgumentException           when {@code nodeId} is not a memory node
     * @throws CorruptedControlBlockException when the node's directory pointer names no directory
     */
    public static NameDirectory open(ComputeThread thread, int nodeId) {
        Objects.requireNonNull(thread, "thread");
        return open(thread, nodeId, DEFAULT_CAPACITY, false);
    }

    /**
     * The directory of memory node {@code nodeId}, which must have {@code capacity} slots: created so when the
     * node has none.
     *
     * @param thread   the caller's compute thread; the handle is for its use only
     * @param nodeId   a memory node
     * @param capacity the directory's slot count, 1..{@value #MAX_CAPACITY}
     * @return the caller's handle on the directory
     * @throws BadArgumentException           when {@code nodeId} is not a memory node, the capacity is out of
     *                                        range, or the node's directory has another capacity
     * @throws CorruptedControlBlockException when the node's directory pointer names no directory
     */
    public static NameDirectory open(ComputeThread thread, int nodeId, int capacity) {
        Objects.requireNonNull(thread, "thread");
        return open(thread, nodeId, capacity, true);
    }

    private static NameDirectory open(ComputeThread thread, int nodeId, int capacity, boolean exact) {
        if (!thread.config().memoryNodes().contains(nodeId)) {
            throw new BadArgumentException("a name directory lives on a memory node (" + thread.config().memoryNodes()
                    + "), got node " + nodeId);
        }
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new BadArgumentException("a name directory's capacity must be 1.." + MAX_CAPACITY + ", got " + capacity);
        }
        long word = RemotePtr.offset(thread.segmentBase(nodeId, 0), ControlBlock.NAMES);
        long table = thread.read(word);
        if (table != RemotePtr.NULL) {
            table = thread.read(word);
        } else {
            table = create(thread, nodeId, capacity, word);
        }
        if (RemotePtr.node(table) != nodeId || !thread.isPublished(table, HEADER_BYTES)) {
            throw new CorruptedControlBlockException(word, table, "the name directory pointer of memory node " + nodeId
                    + " (" + RemotePtr.toString(word) + ") holds " + RemotePtr.toString(table)
                    + ", which names no memory of the node's segments");
        }
        long header = thread.read(table);
        long found = header & 0xFFFF_FFFFL;
        if (header >>> 48 != MAGIC || ((header >>> 32) & 0xFFFF) != VERSION || found < 1 || found > MAX_CAPACITY
                || !thread.isPublished(table, bytes((int) found))) {
            throw new CorruptedControlBlockException(word, table, "the name directory pointer of memory node " + nodeId
                    + " (" + RemotePtr.toString(word) + ") holds " + RemotePtr.toString(table) + ", whose header 0x"
                    + Long.toHexString(header) + " is no name directory's of version " + VERSION);
        }
        if (exact && found != capacity) {
            throw new BadArgumentException("the name directory of memory node " + nodeId + " at " + RemotePtr.toString(table)
                    + " has " + found + " slots, not the " + capacity + " asked for");
        }
        return new NameDirectory(thread, nodeId, table, (int) found);
    }

    private static long create(ComputeThread thread, int nodeId, int capacity, long word) {
        long bytes = bytes(capacity);
        long block = thread.allocator().allocate(bytes, nodeId);
        long[] image = new long[(int) (bytes / 8)];
        image[0] = (MAGIC << 48) | ((long) VERSION << 32) | capacity;
        MemorySegment source = MemorySegment.ofArray(image);
        long chunk = thread.config().bufferSizePerThread() & ~7L;
        for (long at = 0; at < bytes; at += chunk) {
            thread.write(RemotePtr.offset(block, at), source.asSlice(at, Math.min(chunk, bytes - at)));
        }
        long was = thread.compareAndSwap(word, RemotePtr.NULL, block);
        if (was != RemotePtr.NULL) {
            thread.allocator().deallocate(block, bytes);
            return was;
        }
        return block;
    }

    /** {@return the bytes of a table of {@code capacity} slots: the header and the slots} */
    private static long bytes(int capacity) {
        return HEADER_BYTES + (long) SLOT_BYTES * capacity;
    }

    /** {@return the memory node that holds the directory} */
    public int nodeId() {
        return nodeId;
    }

    /** {@return the directory's table (its header word)} */
    public long ptr() {
        return table;
    }

    /** {@return how many names the directory holds at most over its life} */
    public int capacity() {
        return capacity;
    }

    /** {@return the compute thread this handle uses} */
    public ComputeThread thread() {
        return thread;
    }

    /**
     * The pointer bound to {@code name}. Wait-free; linearizable with {@link #publish}. Costs in the class
     * documentation: 1 READ for an unbound name, 2 for a bound one, when its slot is among the
     * {@value #WINDOW_SLOTS} from its home.
     *
     * @param name the name, 1..{@value #MAX_NAME_BYTES} printable ASCII characters
     * @return the bound pointer, or {@link RemotePtr#NULL} while the name is unbound
     * @throws BadNameException when the name is empty, too long or has a character outside printable ASCII
     */
    public long lookup(String name) {
        encode(name);
        return find();
    }

    /**
     * Binds {@code name} to {@code ptr} unless it is bound already, and returns the pointer it is bound to:
     * {@code ptr} when this call bound it (or an earlier publish bound it to the same pointer), else the
     * pointer of the publish that won. Of any number of racing publishes of one name, in any threads and
     * nodes, exactly one binds it. Wait-free; linearizes at its compare-and-swap of the pointer word. Costs
     * in the class documentation: 1 READ and 2 compare-and-swaps for a new name of up to 7 characters.
     *
     * @param name the name, 1..{@value #MAX_NAME_BYTES} printable ASCII characters
     * @param ptr  the pointer to bind, not {@link RemotePtr#NULL}
     * @return the pointer the name is bound to
     * @throws BadNameException           when the name is empty, too long or has a character outside printable
     *                                    ASCII
     * @throws BadArgumentException       when {@code ptr} is {@link RemotePtr#NULL}
     * @throws NameDirectoryFullException when the name is not in the directory and no slot is left for it; the
     *                                    directory is unchanged for every other name
     */
    public long publish(String name, long ptr) {
        encode(name);
        if (ptr == RemotePtr.NULL) {
            throw new BadArgumentException("the pointer published as " + BadNameException.quote(name)
                    + " must not be null (0 means unbound)");
        }
        int slot = home();
        int probed = 0;
        while (probed < capacity) {
            int n = readWindow(slot, capacity - probed);
            for (int k = 0; k < n; k++) {
                if (classify(slot + k, k) != OTHER && claim(slot + k, k)) {
                    long was = thread.compareAndSwap(pointerAddress(slot + k), RemotePtr.NULL, ptr);
                    return was == RemotePtr.NULL ? ptr : was;
                }
            }
            probed += n;
            slot = (slot + n) % capacity;
        }
        throw new NameDirectoryFullException(name, capacity, "the name directory of memory node " + nodeId + " at "
                + RemotePtr.toString(table) + " is full: all of its " + capacity + " slots hold other names, none is left"
                + " for " + BadNameException.quote(name));
    }

    /**
     * Waits until {@code name} is bound and returns its pointer: {@link #lookup} again and again, pausing 10 us
     * at first and up to 1 ms between lookups, until one finds the name or {@code timeout} has passed since the
     * call (then one last lookup). Blocking: it depends on a publish by another thread.
     *
     * @param name    the name, 1..{@value #MAX_NAME_BYTES} printable ASCII characters
     * @param timeout how long to wait, not negative; zero looks once
     * @return the bound pointer
     * @throws BadNameException          when the name is empty, too long or has a character outside printable
     *                                   ASCII
     * @throws BadArgumentException      when {@code timeout} is negative
     * @throws NameNotPublishedException when the name is still unbound at the deadline
     */
    public long await(String name, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        encode(name);
        if (timeout.isNegative()) {
            throw new BadArgumentException("the timeout to wait for " + BadNameException.quote(name)
                    + " must not be negative, got " + timeout);
        }
        long start = ThreadTime.nanoTime();
        long nanos = timeout.compareTo(Duration.ofDays(365)) > 0 ? Duration.ofDays(365).toNanos() : timeout.toNanos();
        long pause = FIRST_PAUSE_NANOS;
        while (true) {
            long ptr = find();
            if (ptr != RemotePtr.NULL) {
                return ptr;
            }
            long left = nanos - (ThreadTime.nanoTime() - start);
            if (left <= 0) {
                throw new NameNotPublishedException(name, timeout, "no thread published " + BadNameException.quote(name)
                        + " in the name directory of memory node " + nodeId + " at " + RemotePtr.toString(table)
                        + " within " + timeout);
            }
            ThreadTime.parkNanos(null, Math.min(pause, left));
            pause = Math.min(2 * pause, LAST_PAUSE_NANOS);
        }
    }

    @Override
    public String toString() {
        return "name directory of memory node " + nodeId + " at " + RemotePtr.toString(table) + " (" + capacity + " slots)";
    }

    /** Looks the encoded name up ({@link #lookup}). */
    private long find() {
        int slot = home();
        int probed = 0;
        while (probed < capacity) {
            int n = readWindow(slot, capacity - probed);
            for (int k = 0; k < n; k++) {
                int state = classify(slot + k, k);
                if (state == OPEN) {
                    return RemotePtr.NULL;
                }
                if (state == MINE) {
                    return slots[k * SLOT_WORDS + NAME_WORDS] == RemotePtr.NULL
                            ? RemotePtr.NULL : thread.read(pointerAddress(slot + k));
                }
            }
            probed += n;
            slot = (slot + n) % capacity;
        }
        return RemotePtr.NULL;
    }

    /**
     * Reads up to {@link #window} slots from {@code slot} into {@link #slots}: one READ, stopping at the end of the
     * table and after {@code left} slots.
     *
     * @return how many slots it read
     */
    private int readWindow(int slot, int left) {
        int n = Math.min(window, Math.min(left, capacity - slot));
        thread.read(slotAddress(slot), slotsView.asSlice(0, (long) n * SLOT_BYTES));
        return n;
    }

    /**
     * Whose slot {@code slot} is, as read at index {@code k} of {@link #slots}: {@link #OTHER}, {@link #OPEN}
     * (empty, or claimed as far as it holds the name's words), or {@link #MINE}. A slot with a word that may be a
     * torn piece of the name's word is read again until none is: each word is torn at most once, since it is
     * stored at most once.
     */
    private int classify(int slot, int k) {
        for (int reread = 0; ; reread++) {
            boolean open = false;
            boolean suspect = false;
            for (int j = 0; j < nameWords; j++) {
                long seen = slots[k * SLOT_WORDS + j];
                if (seen == words[j]) {
                    continue;
                }
                if (seen == 0) {
                    open = true;
                } else if (isPieceOf(seen, words[j])) {
                    suspect = true;
                } else {
                    return OTHER;
                }
            }
            if (!suspect) {
                return open ? OPEN : MINE;
            }
            if (reread == MAX_REREADS) {
                throw new CorruptedMemoryException(slotAddress(slot), slots[k * SLOT_WORDS], "slot " + slot + " of the " + this
                        + " still holds a piece of a word of " + describeName() + " after " + MAX_REREADS + " READs: no"
                        + " publish stores that");
            }
            thread.read(slotAddress(slot), slotsView.asSlice((long) k * SLOT_BYTES, SLOT_BYTES));
        }
    }

    /**
     * Stores the name's words that slot {@code slot} (read at index {@code k}) does not hold yet, in order, each by
     * a compare-and-swap from 0.
     *
     * @return true when the slot holds all of the name's words; false when one of them is another name's
     */
    private boolean claim(int slot, int k) {
        for (int j = 0; j < nameWords; j++) {
            if (slots[k * SLOT_WORDS + j] == words[j]) {
                continue;
            }
            long was = thread.compareAndSwap(RemotePtr.offset(slotAddress(slot), 8L * j), 0, words[j]);
            if (was != 0 && was != words[j]) {
                return false;
            }
        }
        return true;
    }

    /** {@return the encoded name, quoted} */
    private String describeName() {
        StringBuilder b = new StringBuilder();
        int n = (int) (words[0] & 0xFF);
        for (int i = 1; i <= n; i++) {
            b.append((char) ((words[i / 8] >>> (8 * (i % 8))) & 0xFF));
        }
        return BadNameException.quote(b.toString());
    }

    /** {@return whether every non-zero byte of {@code seen} is {@code word}'s byte in the same place} */
    private static boolean isPieceOf(long seen, long word) {
        for (int b = 0; b < 64; b += 8) {
            long s = (seen >>> b) & 0xFF;
            if (s != 0 && s != ((word >>> b) & 0xFF)) {
                return false;
            }
        }
        return true;
    }

    private long slotAddress(int slot) {
        return RemotePtr.offset(table, HEADER_BYTES + (long) SLOT_BYTES * slot);
    }

    private long pointerAddress(int slot) {
        return RemotePtr.offset(slotAddress(slot), POINTER);
    }

    /** {@return the name's home slot: a hash of its words modulo the capacity} */
    private int home() {
        long h = 0x9E3779B97F4A7C15L;
        for (int j = 0; j < nameWords; j++) {
            h = (h ^ words[j]) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        h = (h ^ (h >>> 29)) * 0x94D049BB133111EBL;
        h ^= h >>> 32;
        return (int) Long.remainderUnsigned(h, capacity);
    }

    /** Checks {@code name} and puts its words in {@link #words} and their count in {@link #nameWords}. */
    private void encode(String name) {
        Objects.requireNonNull(name, "name");
        int n = name.length();
        if (n == 0) {
            throw new BadNameException(name, "a name has 1.." + MAX_NAME_BYTES + " characters, this one none");
        }
        if (n > MAX_NAME_BYTES) {
            throw new BadNameException(name, "a name has 1.." + MAX_NAME_BYTES + " characters, this one " + n);
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new BadNameException(name, String.format("character %d is U+%04X; a name is printable ASCII"
                        + " (0x21..0x7E: no space, no control character)", i, (int) c));
            }
        }
        Arrays.fill(words, 0);
        words[0] = n;
        for (int i = 0; i < n; i++) {
            int at = i + 1;
            words[at / 8] |= (long) name.charAt(i) << (8 * (at % 8));
        }
        nameWords = (n + 8) / 8;
    }
}
