package io.remus.verbs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the project's rule for nulls: a null passed where an object is required is a
 * {@link NullPointerException} whose message is the parameter's name (for a builder's setter,
 * the setter's name), thrown before any other check; null is accepted only where the
 * documentation says what it means.
 *
 * <p>{@link #publicRecords} finds every public record of a module's exported packages from its
 * compiled classes, so a new record is checked without being listed. Each reference component
 * is passed null in turn, the others a sample of their type; a type without a sample fails the
 * check, naming the type to add.
 */
public final class NullRule {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\[\\d+])?");

    private NullRule() {
    }

    /**
     * @param anchor   a class of the module (its compiled classes are searched)
     * @param packages the packages to search (exported ones)
     * @return the public records of those packages, nested ones included, by name
     */
    public static List<Class<?>> publicRecords(Class<?> anchor, Set<String> packages) {
        Path root;
        try {
            root = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<Class<?>> records = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                name = name.substring(0, name.length() - ".class".length());
                int dot = name.lastIndexOf('.');
                if (dot < 0 || !packages.contains(name.substring(0, dot)) || name.endsWith("package-info")
                        || name.endsWith("module-info")) {
                    continue;
                }
                Class<?> type = Class.forName(name, false, anchor.getClassLoader());
                if (type.isRecord() && isPublicAllTheWay(type)) {
                    records.add(type);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return records;
    }

    private static boolean isPublicAllTheWay(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            if (!Modifier.isPublic(c.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Passes null for each reference component of {@code record}'s canonical constructor.
     *
     * @param record   a record class
     * @param samples  a non-null value for each reference type the components use (enums and
     *                 arrays need none)
     * @param nullable components documented as accepting null, as {@code Record.component}
     * @return one line per violation, empty when the record keeps the rule
     */
    public static List<String> checkRecord(Class<?> record, Map<Class<?>, Object> samples, Set<String> nullable) {
        RecordComponent[] components = record.getRecordComponents();
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        Constructor<?> canonical;
        try {
            canonical = record.getDeclaredConstructor(types);
            canonical.setAccessible(true);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        List<String> violations = new ArrayList<>();
        for (int i = 0; i < components.length; i++) {
            String where = record.getName() + "." + components[i].getName();
            if (types[i].isPrimitive() || nullable.contains(record.getSimpleName() + "." + components[i].getName())) {
                continue;
            }
            Object[] args = new Object[components.length];
            for (int j = 0; j < components.length; j++) {
                if (j != i) {
                    args[j] = sample(types[j], samples, record);
                }
            }
            String problem = expectNullPointer(() -> canonical.newInstance(args), components[i].getName());
            if (problem != null) {
                violations.add(where + ": " + problem);
            }
        }
        return violations;
    }

    /**
     * Calls each public method of {@code builder} that takes one reference parameter with null.
     *
     * @param builder  a fresh builder
     * @param nullable setters documented as accepting null, by method name
     * @return one line per violation
     */
    public static List<String> checkBuilder(Object builder, Set<String> nullable) {
        List<String> violations = new ArrayList<>();
        for (Method m : builder.getClass().getMethods()) {
            if (m.getDeclaringClass() != builder.getClass() || Modifier.isStatic(m.getModifiers())
                    || m.getParameterCount() != 1 || m.getParameterTypes()[0].isPrimitive()
                    || nullable.contains(m.getName())) {
                continue;
            }
            String problem = expectNullPointer(() -> m.invoke(builder, new Object[] {null}), m.getName());
            if (problem != null) {
                violations.add(builder.getClass().getName() + "." + m.getName() + ": " + problem);
            }
        }
        return violations;
    }

    /**
     * Calls each public static method of {@code type} once per reference parameter, with null
     * there and samples elsewhere; the message must be an identifier (a parameter's name, not
     * the JVM's helpful text about a dereference).
     *
     * @param type     a class of static factories or parsers (nothing with side effects)
     * @param samples  values for the other parameters
     * @param nullable parameters documented as accepting null, as {@code method#index}
     * @return one line per violation
     */
    public static List<String> checkStaticMethods(Class<?> type, Map<Class<?>, Object> samples, Set<String> nullable) {
        List<String> violations = new ArrayList<>();
        for (Method m : type.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || !Modifier.isStatic(m.getModifiers())
                    || (type.isEnum() && m.getName().equals("valueOf"))) {
                continue;
            }
            Class<?>[] types = m.getParameterTypes();
            for (int i = 0; i < types.length; i++) {
                if (types[i].isPrimitive() || nullable.contains(m.getName() + "#" + i)) {
                    continue;
                }
                Object[] args = new Object[types.length];
                for (int j = 0; j < types.length; j++) {
                    if (j != i) {
                        args[j] = sample(types[j], samples, type);
                    }
                }
                String problem = expectNullPointer(() -> m.invoke(null, args), null);
                if (problem != null) {
                    violations.add(type.getName() + "." + m.getName() + " parameter " + i + ": " + problem);
                }
            }
        }
        return violations;
    }

    /**
     * Calls each public constructor of {@code type} once per reference parameter, with null there
     * and samples elsewhere; the message must be an identifier (a parameter's name).
     *
     * @param type     a public class that is not a record (records: {@link #checkRecord})
     * @param samples  values for the other parameters
     * @param nullable parameters documented as accepting null, as {@code SimpleName#index}
     * @return one line per violation
     */
    public static List<String> checkConstructors(Class<?> type, Map<Class<?>, Object> samples, Set<String> nullable) {
        List<String> violations = new ArrayList<>();
        for (Constructor<?> c : type.getConstructors()) {
            Class<?>[] types = c.getParameterTypes();
            for (int i = 0; i < types.length; i++) {
                if (types[i].isPrimitive() || nullable.contains(type.getSimpleName() + "#" + i)) {
                    continue;
                }
                Object[] args = arguments(types, i, samples, type);
                String problem = expectNullPointer(() -> c.newInstance(args), null);
                if (problem != null) {
                    violations.add(type.getName() + " constructor " + Arrays.toString(types) + " parameter " + i + ": "
                            + problem);
                }
            }
        }
        return violations;
    }

    /**
     * Calls each public instance method that {@code target}'s class declares once per reference
     * parameter, with null there and samples elsewhere; the message must be an identifier (a
     * parameter's name). With the rule kept, no call does anything but throw.
     *
     * @param target   an object of the API (a handle, an options record)
     * @param samples  values for the other parameters
     * @param nullable parameters documented as accepting null, as {@code method#index}
     * @return one line per violation
     */
    public static List<String> checkInstanceMethods(Object target, Map<Class<?>, Object> samples, Set<String> nullable) {
        List<String> violations = new ArrayList<>();
        Class<?> type = target.getClass();
        for (Method m : type.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || Modifier.isStatic(m.getModifiers()) || m.isSynthetic()
                    || m.isBridge() || (m.getName().equals("equals") && m.getParameterCount() == 1)) {
                continue;
            }
            Class<?>[] types = m.getParameterTypes();
            for (int i = 0; i < types.length; i++) {
                if (types[i].isPrimitive() || nullable.contains(m.getName() + "#" + i)) {
                    continue;
                }
                Object[] args = arguments(types, i, samples, type);
                String problem = expectNullPointer(() -> m.invoke(target, args), null);
                if (problem != null) {
                    violations.add(type.getName() + "." + m.getName() + " parameter " + i + ": " + problem);
                }
            }
        }
        return violations;
    }

    private static Object[] arguments(Class<?>[] types, int nullAt, Map<Class<?>, Object> samples, Class<?> owner) {
        Object[] args = new Object[types.length];
        for (int j = 0; j < types.length; j++) {
            if (j != nullAt) {
                args[j] = sample(types[j], samples, owner);
            }
        }
        return args;
    }

    /** Samples for the JDK types the project's records use. */
    public static Map<Class<?>, Object> jdkSamples() {
        return Map.of(String.class, "x", List.class, List.of(), Duration.class, Duration.ofSeconds(1),
                MemorySegment.class, MemorySegment.NULL);
    }

    private interface Call {
        Object run() throws ReflectiveOperationException;
    }

    private static String expectNullPointer(Call call, String expectedMessage) {
        try {
            call.run();
            return "accepted null";
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (!(t instanceof NullPointerException)) {
                return "threw " + t + " instead of NullPointerException";
            }
            String message = t.getMessage();
            if (expectedMessage != null && !expectedMessage.equals(message)) {
                return "NullPointerException says '" + message + "', expected '" + expectedMessage + "'";
            }
            if (message == null || !IDENTIFIER.matcher(message).matches()) {
                return "NullPointerException does not name the parameter: '" + message + "'";
            }
            return null;
        } catch (ReflectiveOperationException e) {
            return "could not be called: " + e;
        }
    }

    private static Object sample(Class<?> type, Map<Class<?>, Object> samples, Class<?> owner) {
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == boolean.class) {
            return false;
        }
        if (type == byte.class) {
            return (byte) 0;
        }
        if (type == short.class) {
            return (short) 0;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        if (type.isArray()) {
            return java.lang.reflect.Array.newInstance(type.getComponentType(), 0);
        }
        Object sample = samples.get(type);
        if (sample == null) {
            throw new IllegalStateException("no sample of " + type.getName() + " (used by " + owner.getName()
                    + "): add one to the samples");
        }
        return sample;
    }
}
