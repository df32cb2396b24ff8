package io.remus.verbs.ffi.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A C function prototype taken apart: return type, parameter types without their names, and
 * whether it is variadic. {@code int fcntl(int fd, int cmd, ...)} has return type {@code int},
 * parameter types {@code [int, int]} and is variadic.
 *
 * @param name           the function name
 * @param returnType     the return type, e.g. {@code struct ibv_device **}
 * @param parameterTypes the types of the fixed parameters, names dropped, arrays as pointers
 * @param variadic       whether the parameter list ends with {@code ...}
 */
public record CPrototype(String name, String returnType, List<String> parameterTypes, boolean variadic) {
    private static final Pattern FUNCTION_POINTER_NAME = Pattern.compile("\\(\\s*\\*\\s*[A-Za-z_]\\w*\\s*\\)");
    private static final Pattern ARRAY = Pattern.compile("^(.*?)\\s*([A-Za-z_]\\w*)?\\s*\\[[^]]*]$");
    private static final Pattern TRAILING_IDENTIFIER = Pattern.compile("^(.*?)([A-Za-z_]\\w*)$");
    private static final Set<String> TYPE_WORDS = Set.of("void", "char", "short", "int", "long", "float",
            "double", "signed", "unsigned", "_Bool", "const", "volatile", "restrict");
    private static final Set<String> TAG_WORDS = Set.of("struct", "union", "enum");

    /**
     * Parses a prototype such as {@code struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr,
     * size_t length, int access)}.
     *
     * @param prototype one C function declaration, without the trailing semicolon
     * @return its parts
     * @throws IllegalArgumentException if it is not of the form {@code RET NAME(PARAMS)}
     */
    public static CPrototype parse(String prototype) {
        String text = prototype.strip();
        if (text.endsWith(";")) {
            text = text.substring(0, text.length() - 1).strip();
        }
        int open = text.indexOf('(');
        if (open < 0 || !text.endsWith(")")) {
            throw new IllegalArgumentException("not a C prototype RET NAME(PARAMS): " + prototype);
        }
        Matcher head = TRAILING_IDENTIFIER.matcher(text.substring(0, open).strip());
        if (!head.matches() || head.group(1).isBlank()) {
            throw new IllegalArgumentException("no return type and name in C prototype: " + prototype);
        }
        List<String> parameters = new ArrayList<>();
        boolean variadic = false;
        for (String parameter : splitTopLevel(text.substring(open + 1, text.length() - 1))) {
            if (parameter.equals("...")) {
                variadic = true;
            } else if (!parameter.isEmpty()) {
                parameters.add(typeOf(parameter));
            }
        }
        if (parameters.equals(List.of("void"))) {
            parameters = List.of();
        }
        return new CPrototype(head.group(2), normalize(head.group(1)), List.copyOf(parameters), variadic);
    }

    /** @return whether the function returns nothing */
    public boolean returnsVoid() {
        return returnType.equals("void");
    }

    /**
     * @return the C type name of a pointer to this function, e.g. {@code int (*)(int, int, ...)}
     */
    public String pointerType() {
        List<String> all = new ArrayList<>(parameterTypes);
        if (variadic) {
            all.add("...");
        }
        if (all.isEmpty()) {
            all.add("void");
        }
        return returnType + " (*)(" + String.join(", ", all) + ")";
    }

    private static String typeOf(String parameter) {
        String p = FUNCTION_POINTER_NAME.matcher(parameter).replaceFirst("(*)");
        Matcher array = ARRAY.matcher(p);
        if (array.matches()) {
            String element = array.group(2) == null || isTypeWord(array.group(1), array.group(2))
                    ? (array.group(1) + " " + (array.group(2) == null ? "" : array.group(2)))
                    : array.group(1);
            return normalize(element) + " *";
        }
        Matcher named = TRAILING_IDENTIFIER.matcher(p);
        if (named.matches() && !isTypeWord(named.group(1), named.group(2))) {
            return normalize(named.group(1));
        }
        return normalize(p);
    }

    private static boolean isTypeWord(String before, String identifier) {
        if (before.isBlank() || TYPE_WORDS.contains(identifier)) {
            return true;
        }
        String[] words = before.strip().split("\\s+");
        return TAG_WORDS.contains(words[words.length - 1]);
    }

    private static List<String> splitTopLevel(String parameters) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < parameters.length(); i++) {
            char c = parameters.charAt(i);
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(parameters.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(parameters.substring(start).strip());
        return parts;
    }

    private static String normalize(String type) {
        return type.strip().replaceAll("\\s+", " ").replaceAll("\\s*\\*", " *").replace("* *", "**")
                .replace("* *", "**").strip();
    }
}
