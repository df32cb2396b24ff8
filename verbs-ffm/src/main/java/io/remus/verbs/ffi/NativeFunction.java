package io.remus.verbs.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The declaration of one C function the raw layer calls: its C prototype (as the rdma-core
 * headers spell it), its FFM descriptor, and how to link it.
 *
 * <p>Declaring a function links nothing; {@link #downcall()} does, on first use of the header
 * class's holder. The conformance test reads every {@code static final NativeFunction} field
 * of the raw layer and checks, by compiling C against the installed headers, that the
 * prototype matches the header and that the descriptor matches the prototype.
 *
 * @param name          the C symbol, or {@code struct.member} for a provider function pointer
 *                      (e.g. {@code ibv_context_ops.post_send}), which has no symbol
 * @param cPrototype    the C declaration, e.g. {@code int ibv_close_device(struct ibv_context *context)}
 * @param descriptor    the FFM descriptor matching the prototype
 * @param capturesErrno whether the downcall captures errno (its Java method then takes a
 *                      call-state segment from {@link Errno#allocate} as first argument)
 * @param critical      whether the call is linked with {@link Linker.Option#critical(boolean)}
 *                      (only for calls that never block: post, poll)
 * @param library       where the symbol is looked up (unused for function pointers)
 */
public record NativeFunction(String name, String cPrototype, FunctionDescriptor descriptor,
                             boolean capturesErrno, boolean critical, Supplier<SymbolLookup> library) {

    /** A function of libibverbs that reports failure through its return value. */
    static NativeFunction ibverbs(String cPrototype, FunctionDescriptor descriptor) {
        return new NativeFunction(nameOf(cPrototype), cPrototype, descriptor, false, false, NativeLibraries.ibverbsLibrary());
    }

    /** A function of libibverbs that reports failure through errno. */
    static NativeFunction ibverbsErrno(String cPrototype, FunctionDescriptor descriptor) {
        return new NativeFunction(nameOf(cPrototype), cPrototype, descriptor, true, false, NativeLibraries.ibverbsLibrary());
    }

    /** A function of librdmacm that reports failure through its return value. */
    static NativeFunction rdmacm(String cPrototype, FunctionDescriptor descriptor) {
        return new NativeFunction(nameOf(cPrototype), cPrototype, descriptor, false, false, NativeLibraries.rdmacmLibrary());
    }

    /** A function of librdmacm that reports failure through errno. */
    static NativeFunction rdmacmErrno(String cPrototype, FunctionDescriptor descriptor) {
        return new NativeFunction(nameOf(cPrototype), cPrototype, descriptor, true, false, NativeLibraries.rdmacmLibrary());
    }

    /** A function of the C library (the linker's default lookup) that reports failure through errno. */
    static NativeFunction libcErrno(String cPrototype, FunctionDescriptor descriptor) {
        return new NativeFunction(nameOf(cPrototype), cPrototype, descriptor, true, false,
                () -> Linker.nativeLinker().defaultLookup());
    }

    /**
     * A provider function pointer (member {@code member} of {@code struct owner}); the
     * prototype names the pointer's function type with the member's name as the function name.
     */
    static NativeFunction pointer(String owner, String cPrototype, FunctionDescriptor descriptor, boolean critical) {
        return new NativeFunction(owner + "." + nameOf(cPrototype), cPrototype, descriptor, false, critical, null);
    }

    /** {@return whether this is a provider function pointer rather than an exported symbol} */
    public boolean isPointer() {
        return name.indexOf('.') >= 0;
    }

    /** {@return the C symbol (the member name for a function pointer)} */
    public String symbol() {
        return name.substring(name.indexOf('.') + 1);
    }

    /** {@return the linker options this function is linked with} */
    public Linker.Option[] options() {
        List<Linker.Option> options = new ArrayList<>(2);
        if (capturesErrno) {
            options.add(Linker.Option.captureCallState("errno"));
        }
        if (critical) {
            options.add(Linker.Option.critical(false));
        }
        return options.toArray(Linker.Option[]::new);
    }

    /**
     * Links the exported symbol.
     *
     * @return a handle taking the call-state segment first when {@link #capturesErrno()}
     * @throws RuntimeException the {@link MissingLibraryReport}'s exception if the library cannot
     *                          be loaded or lacks the symbol
     */
    public MethodHandle downcall() {
        if (isPointer()) {
            throw new IllegalStateException(name + " is a function pointer: use downcallUnbound()");
        }
        NativeLibraries.Missing missing = missing();
        if (missing != null) {
            throw missing.exception();
        }
        MemorySegment address = library.get().find(name).orElseThrow();
        return Linker.nativeLinker().downcallHandle(address, descriptor, options());
    }

    /** {@return why the exported symbol cannot be linked, or {@code null}} */
    private NativeLibraries.Missing missing() {
        if (library instanceof NativeLibraries.Library lib) {
            return lib.missing(name);
        }
        return library.get().find(name).isPresent() ? null
                : new NativeLibraries.Missing("the C library has no symbol " + name, null);
    }

    /**
     * Links the exported symbol for a header class's holder, whose static initializer must not
     * fail: where the library or the symbol is missing, the handle returned has the downcall's
     * type and throws a new exception (the {@link MissingLibraryReport}'s, same message) on every
     * call. The handle is stored in a {@code static final} field either way, so the JIT folds it.
     *
     * @return the downcall, or a handle of its type that throws the typed failure
     */
    public MethodHandle link() {
        NativeLibraries.Missing missing = isPointer() ? null : missing();
        return missing == null ? downcall() : failing(missing);
    }

    /** {@return the Java type of {@link #downcall()}'s handle, without linking anything} */
    public MethodType type() {
        MethodType type = descriptor.toMethodType();
        return capturesErrno ? type.insertParameterTypes(0, MemorySegment.class) : type;
    }

    private MethodHandle failing(NativeLibraries.Missing failure) {
        MethodType type = type();
        MethodHandle thrower = MethodHandles.throwException(type.returnType(), RuntimeException.class);
        MethodHandle fresh = MethodHandles.collectArguments(thrower, 0, FRESH_FAILURE.bindTo(failure));
        return MethodHandles.dropArguments(fresh, 0, type.parameterList());
    }

    private static final MethodHandle FRESH_FAILURE;

    static {
        try {
            FRESH_FAILURE = MethodHandles.lookup().findStatic(NativeFunction.class, "freshFailure",
                    MethodType.methodType(RuntimeException.class, NativeLibraries.Missing.class));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static RuntimeException freshFailure(NativeLibraries.Missing failure) {
        return failure.exception();
    }

    /** {@return a handle whose first argument is the function's address (for function pointers)} */
    public MethodHandle downcallUnbound() {
        return Linker.nativeLinker().downcallHandle(descriptor, options());
    }

    private static String nameOf(String cPrototype) {
        int paren = cPrototype.indexOf('(');
        int start = paren;
        while (start > 0 && isIdentifier(cPrototype.charAt(start - 1))) {
            start--;
        }
        return cPrototype.substring(start, paren);
    }

    private static boolean isIdentifier(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }
}
