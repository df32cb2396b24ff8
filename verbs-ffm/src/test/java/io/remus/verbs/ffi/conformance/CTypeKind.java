package io.remus.verbs.ffi.conformance;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.Optional;

/**
 * Which Java layout a C type needs, decided from what gcc says of the type: its
 * {@code __builtin_classify_type} class and its {@code sizeof}. Typedefs ({@code socklen_t},
 * {@code __be64}, {@code nfds_t}) are thereby resolved by the compiler, not by a table here.
 *
 * <p>Pointers need {@code ADDRESS}; integers, enums and characters need the Java integral
 * layout of the same size ({@code JAVA_BYTE}, {@code JAVA_SHORT}, {@code JAVA_INT},
 * {@code JAVA_LONG}); floating types {@code JAVA_FLOAT} / {@code JAVA_DOUBLE}; a struct or
 * union by value a group layout of the same size.
 */
public final class CTypeKind {
    private static final int INTEGER = 1;
    private static final int CHAR = 2;
    private static final int ENUM = 3;
    private static final int BOOLEAN = 4;
    private static final int POINTER = 5;
    private static final int REAL = 8;
    private static final int RECORD = 12;
    private static final int UNION = 13;

    private CTypeKind() {
    }

    /**
     * The C expression that yields the type class of an expression of the given type.
     *
     * @param cType a C type name
     * @return a C expression of type {@code int}, evaluated at compile time
     */
    public static String classifyType(String cType) {
        return "__builtin_classify_type(*(__typeof__(" + cType + ") *)0)";
    }

    /**
     * The C expression that yields the type class of an expression (not evaluated).
     *
     * @param cExpression a C expression
     * @return a C expression of type {@code int}
     */
    public static String classifyExpression(String cExpression) {
        return "__builtin_classify_type(" + cExpression + ")";
    }

    /**
     * @param typeClass what {@code __builtin_classify_type} said
     * @param size      what {@code sizeof} said
     * @param java      the Java layout declared for it
     * @return why {@code java} does not fit the C type, or empty when it does
     */
    public static Optional<String> mismatch(long typeClass, long size, MemoryLayout java) {
        String expected = expected((int) typeClass, size);
        return fits((int) typeClass, size, java) ? Optional.empty()
                : Optional.of("C " + describe((int) typeClass, size) + " needs " + expected + ", Java has "
                + describe(java));
    }

    private static boolean fits(int typeClass, long size, MemoryLayout java) {
        return switch (typeClass) {
            case POINTER -> java instanceof AddressLayout;
            case INTEGER, CHAR, ENUM, BOOLEAN -> java instanceof ValueLayout v && v.byteSize() == size
                    && integral(v.carrier(), typeClass == BOOLEAN);
            case REAL -> java instanceof ValueLayout v && v.byteSize() == size
                    && (v.carrier() == float.class || v.carrier() == double.class);
            case RECORD, UNION -> java instanceof GroupLayout g && g.byteSize() == size;
            default -> false;
        };
    }

    private static boolean integral(Class<?> carrier, boolean bool) {
        return carrier == byte.class || carrier == short.class || carrier == int.class || carrier == long.class
                || (bool && carrier == boolean.class);
    }

    private static String expected(int typeClass, long size) {
        return switch (typeClass) {
            case POINTER -> "ADDRESS";
            case INTEGER, CHAR, ENUM, BOOLEAN -> switch ((int) size) {
                case 1 -> "JAVA_BYTE";
                case 2 -> "JAVA_SHORT";
                case 4 -> "JAVA_INT";
                case 8 -> "JAVA_LONG";
                default -> "an integral layout of " + size + " bytes";
            };
            case REAL -> size == 4 ? "JAVA_FLOAT" : size == 8 ? "JAVA_DOUBLE" : "a float layout of " + size + " bytes";
            case RECORD, UNION -> "a group layout of " + size + " bytes";
            default -> "nothing FFM can pass (gcc type class " + typeClass + ")";
        };
    }

    private static String describe(int typeClass, long size) {
        String kind = switch (typeClass) {
            case POINTER -> "pointer";
            case INTEGER, CHAR, ENUM, BOOLEAN -> "integer";
            case REAL -> "floating type";
            case RECORD -> "struct";
            case UNION -> "union";
            default -> "type of class " + typeClass;
        };
        return kind + " of " + size + " bytes";
    }

    /**
     * @param layout a Java layout
     * @return a short description naming its kind and size, e.g. {@code JAVA_INT (4 bytes)}
     */
    public static String describe(MemoryLayout layout) {
        if (layout instanceof AddressLayout) {
            return "ADDRESS";
        }
        if (layout instanceof ValueLayout v) {
            return "JAVA_" + v.carrier().getSimpleName().toUpperCase(Locale.ROOT) + " (" + v.byteSize()
                    + " bytes)";
        }
        String name = layout.name().map(n -> " " + n).orElse("");
        return (layout instanceof GroupLayout ? "group layout" : "layout") + name + " (" + layout.byteSize()
                + " bytes)";
    }
}
