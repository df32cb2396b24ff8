package io.remus.ds.object;

import io.remus.core.ComputeThread;
import io.remus.core.error.AllocationExhaustedException;
import io.remus.core.error.BadArgumentException;
import io.remus.core.memory.RemotePtr;
import io.remus.ds.identity.StructureIdentity;
import io.remus.ds.identity.StructureKind;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What a handle on each object with one root block ({@link RemoteCounter}, {@link RemoteMaxRegister},
 * {@link RemoteRegister}, {@link SharedStateTable}, {@link LockedObject}, {@link WaitFreeObject}) keeps and does the
 * same way: its compute thread, its identity of the object's root, and its close and destroy through that identity.
 * A slot or row the handle claimed stays claimed after its close. Used by the handle's owner only, like its compute
 * thread.
 */
abstract class ObjectHandle implements AutoCloseable {
    /** The open-handles count in the low bits of a handles word ({@link StructureIdentity}'s layout). */
    private static final long OPEN_HANDLES = 0x7FFF_FFFFL;

    /** The handle's compute thread. */
    final ComputeThread thread;
    /** The handle's identity of the object's root. */
    final StructureIdentity identity;
    /** The object's root. */
    final long ptr;
    private final long rootBytes;

    /**
     * @param thread    the handle's compute thread
     * @param identity  the handle's identity of the object's root
     * @param rootBytes bytes of the object's root, as given to {@link StructureIdentity#allocate}
     */
    ObjectHandle(ComputeThread thread, StructureIdentity identity, long rootBytes) {
        this.thread = thread;
        this.identity = identity;
        this.ptr = identity.ptr();
        this.rootBytes = rootBytes;
    }

    /**
     * Checks an object pointer handed to an {@code attach}: not null and 8-byte aligned.
     *
     * @throws BadArgumentException naming the pointer, when it is not
     */
    static void requireWord(long ptr) {
        if (RemotePtr.isNull(ptr) || (RemotePtr.address(ptr) & 7) != 0) {
            throw new BadArgumentException("an object pointer must be non-null and 8-byte aligned, got " + RemotePtr.toString(ptr));
        }
    }

    /**
     * {@link StructureIdentity#attach} of the object of {@code kind} at {@code ptr}, once the pointer is checked
     * ({@link #requireWord}): the root's first {@code root.byteSize()} bytes land in {@code root}, where
     * {@code checkRoot} checks them before the handle is counted in; an object destroyed there is a
     * {@link ClosedObjectException}.
     */
    static StructureIdentity attachRoot(ComputeThread thread, StructureKind kind, long ptr, MemorySegment root,
                                        Consumer<MemorySegment> checkRoot) {
        requireWord(ptr);
        return StructureIdentity.attach(thread, kind, ptr, root, ClosedObjectException::new, checkRoot);
    }

    /**
     * Claims the next of an object's {@code slots} slots for a handle being attached: one fetch-and-add of the
     * claims word at {@code claims}. When every slot is claimed already, reads the handles word (one READ), runs
     * {@code release} (which closes the identity the attach opened) and throws, naming the create parameter that
     * sized the object, its value, the handles open and how to size it.
     *
     * @param thread    the attaching thread
     * @param identity  the attach's identity of the object's root
     * @param claims    the object's claims word
     * @param slots     how many slots the object has: the value of its create's {@code parameter}
     * @param what      the slots and the object in words, e.g. {@code "rows of the SharedStateTable"}
     * @param parameter the name of the create parameter that gave {@code slots}, e.g. {@code "handles"}
     * @param release   closes the identity the attach opened
     * @return the slot claimed, {@code 0..slots-1}
     * @throws AllocationExhaustedException when every slot is claimed
     */
    static int claimSlot(ComputeThread thread, StructureIdentity identity, long claims, long slots, String what,
                         String parameter, Runnable release) {
        long claim = thread.fetchAndAdd(claims, 1);
        if (claim >= slots) {
            long open = (thread.read(identity.headerAddress()) & OPEN_HANDLES) - 1;
            release.run();
            throw new AllocationExhaustedException("all " + slots + " " + what + " at " + RemotePtr.toString(identity.ptr())
                    + " are claimed: it was created with " + parameter + " = " + slots + ", which bounds the handles"
                    + " that claim one over its whole life, the creator's included, and a closed handle keeps its claim; "
                    + "handles open now: " + open + ". Create it with " + parameter + " at least the number of such handles"
                    + " attached over its life");
        }
        return (int) claim;
    }

    /** {@return the object's root, to hand to its class's {@code attach}} */
    public final long ptr() {
        return ptr;
    }

    /**
     * Checks a call's segment argument before anything is done, in this order: it is given
     * ({@link NullPointerException} naming {@code name}), this handle is open ({@link ClosedObjectException}), and
     * it is {@code bytes} long ({@link BadArgumentException}: {@code holds}, the size and the segment's size).
     *
     * @param segment the argument
     * @param name    its parameter's name
     * @param bytes   the size it must have
     * @param holds   what holds {@code bytes} bytes, as the message starts, e.g. {@code "rows of this table hold"}
     */
    final void requireOpen(MemorySegment segment, String name, long bytes, String holds) {
        Objects.requireNonNull(segment, name);
        identity.requireOpen();
        if (segment.byteSize() != bytes) {
            throw new BadArgumentException(holds + " " + bytes + " bytes, got " + segment.byteSize());
        }
    }

    /**
     * Frees what the object holds outside its root block, once, when the last handle of the destroyed object
     * closes: nothing, unless the class says otherwise.
     */
    void freeOutsideRoot() {
    }

    /**
     * Frees what this handle keeps for itself (a spare block), as it closes or destroys: nothing, unless the class
     * says otherwise.
     */
    void freeHandleBlocks() {
    }

    /**
     * Closes this handle: frees what the handle keeps for itself (a {@link WaitFreeObject}'s spare state block), then
     * one fetch-and-add of the handles word ({@link StructureIdentity#close}); idempotent. Later calls of this handle
     * throw {@link ClosedObjectException}. When the object was destroyed and this was its last open handle, frees it
     * (the root block, and what the class says it holds outside it: a {@link RemoteRegister}'s value block, a
     * {@link WaitFreeObject}'s state block, each after one READ of its pointer).
     */
    @Override
    public final void close() {
        if (identity.isClosed()) {
            return;
        }
        try {
            freeHandleBlocks();
        } finally {
            identity.close(thread, rootBytes, this::freeOutsideRoot);
        }
    }

    /**
     * Destroys the object and closes this handle: frees what the handle keeps for itself, as {@link #close()} does,
     * then marks the object destroyed ({@link StructureIdentity#destroy}: one compare-and-swap of the handles word);
     * the object is freed here when no other handle is open, else by the last other handle's
     * {@link #close()}. Every call of any handle that starts after this returned throws {@link ClosedObjectException}
     * (for a {@link RemoteMaxRegister}, every such call that does an RDMA operation).
     *
     * @throws ClosedObjectException when this handle is closed, or another handle destroyed the object first (this
     *                               handle is closed after)
     */
    public final void destroy() {
        identity.requireOpen();
        try {
            freeHandleBlocks();
        } finally {
            identity.destroy(thread, rootBytes, this::freeOutsideRoot);
        }
    }
}
