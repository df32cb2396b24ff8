package io.remus.verbs.ffi.conformance;

import io.remus.verbs.ffi.NativeFunction;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks one function declaration: that its C prototype is compatible with the header's
 * declaration ({@code __builtin_types_compatible_p} against {@code &name}, or against the
 * member's type for a provider function pointer {@code struct.member}), and that its FFM
 * descriptor fits the prototype (return and each fixed parameter, decided by gcc's size and
 * type class of each C type, see {@link CTypeKind}). A variadic function's descriptor may carry
 * more arguments than the fixed parameters; those are not checked.
 *
 * @param declaration the Java declaration
 * @param prototype   its parsed C prototype
 */
public record FunctionCheck(FunctionDeclaration declaration, CPrototype prototype) implements ProbeCheck {

    @Override
    public String label() {
        return declaration.label();
    }

    @Override
    public List<String> cExpressions() {
        List<String> expressions = new ArrayList<>();
        expressions.add("__builtin_types_compatible_p(__typeof__(" + declared() + "), " + prototype.pointerType() + ")");
        if (!prototype.returnsVoid()) {
            expressions.add("sizeof(" + prototype.returnType() + ")");
            expressions.add(CTypeKind.classifyType(prototype.returnType()));
        }
        for (String parameter : prototype.parameterTypes()) {
            expressions.add("sizeof(" + parameter + ")");
            expressions.add(CTypeKind.classifyType(parameter));
        }
        return expressions;
    }

    @Override
    public List<String> mismatches(long[] cValues) {
        List<String> mismatches = new ArrayList<>();
        if (cValues[0] == 0) {
            mismatches.add(label() + ": prototype `" + declaration.function().cPrototype()
                    + "` is not compatible with the header's " + (function().isPointer() ? "member " : "declaration ")
                    + declared());
        }
        FunctionDescriptor descriptor = function().descriptor();
        int next = 1;
        Optional<MemoryLayout> returned = descriptor.returnLayout();
        if (prototype.returnsVoid()) {
            returned.ifPresent(r -> mismatches.add(label() + ": returns void in C, descriptor returns "
                    + CTypeKind.describe(r)));
        } else {
            if (returned.isEmpty()) {
                mismatches.add(label() + ": returns " + prototype.returnType() + " in C, descriptor returns nothing");
            } else {
                CTypeKind.mismatch(cValues[next + 1], cValues[next], returned.get())
                        .ifPresent(why -> mismatches.add(label() + ": return: " + why));
            }
            next += 2;
        }
        List<MemoryLayout> arguments = descriptor.argumentLayouts();
        int fixed = prototype.parameterTypes().size();
        if (arguments.size() < fixed || (!prototype.variadic() && arguments.size() != fixed)) {
            mismatches.add(label() + ": C has " + fixed + (prototype.variadic() ? " fixed" : "")
                    + " parameters, descriptor has " + arguments.size());
        }
        for (int i = 0; i < Math.min(fixed, arguments.size()); i++, next += 2) {
            int index = i;
            CTypeKind.mismatch(cValues[next + 1], cValues[next], arguments.get(i))
                    .ifPresent(why -> mismatches.add(label() + ": parameter " + (index + 1) + " ("
                            + prototype.parameterTypes().get(index) + "): " + why));
        }
        return mismatches;
    }

    private NativeFunction function() {
        return declaration.function();
    }

    private String declared() {
        NativeFunction function = function();
        if (function.isPointer()) {
            String owner = function.name().substring(0, function.name().indexOf('.'));
            return "((struct " + owner + " *)0)->" + function.symbol();
        }
        return "&" + function.name();
    }
}
