package io.remus.verbs.ffi.conformance;

import io.remus.verbs.ffi.NativeFunction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.GroupLayout;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Discovers what a raw-layer package declares, following the conventions of
 * {@code io.remus.verbs.ffi} (see its package-info): nothing is listed by hand, so a new struct
 * class, {@link NativeFunction} or constant is checked as soon as it is compiled.
 *
 * <ul>
 *   <li>a top-level class with a public static no-argument {@code layout()} returning a
 *       {@link GroupLayout} is a C struct (a union when the layout is a union layout) named as
 *       the class;</li>
 *   <li>every {@code public static final NativeFunction} field is a C function;</li>
 *   <li>every {@code public static final int} or {@code long} field named {@code IBV_*},
 *       {@code RDMA_*} or {@code RAI_*}, or upper-case in a libc class ({@code LibC}, or
 *       {@code Errno} for the errno values), is a C constant.</li>
 * </ul>
 */
public final class RawLayerScanner {
    private static final Set<String> LIBC_CLASSES = Set.of("LibC", "Errno");

    private RawLayerScanner() {
    }

    /**
     * Scans the package of {@code anchor} in the class-path entry (directory or jar) it was
     * loaded from.
     *
     * @param anchor any class of the package to scan
     * @return what the package declares, each list sorted by name
     */
    public static RawLayer scan(Class<?> anchor) {
        List<StructDeclaration> structs = new ArrayList<>();
        List<FunctionDeclaration> functions = new ArrayList<>();
        List<ConstantDeclaration> constants = new ArrayList<>();
        for (Class<?> type : classesOf(anchor)) {
            structOf(type).ifPresent(structs::add);
            for (Field field : type.getDeclaredFields()) {
                if (!isPublicStaticFinal(field)) {
                    continue;
                }
                if (field.getType() == NativeFunction.class) {
                    functions.add(new FunctionDeclaration(type.getSimpleName() + "." + field.getName(),
                            (NativeFunction) valueOf(field), LIBC_CLASSES.contains(type.getSimpleName())));
                } else if (isConstant(type, field)) {
                    Number value = (Number) valueOf(field);
                    constants.add(new ConstantDeclaration(type.getSimpleName(), field.getName(), value.longValue(),
                            field.getType() == int.class, LIBC_CLASSES.contains(type.getSimpleName())));
                }
            }
        }
        structs.sort(Comparator.comparing(StructDeclaration::tag));
        functions.sort(Comparator.comparing(FunctionDeclaration::field));
        constants.sort(Comparator.comparing(ConstantDeclaration::label));
        return new RawLayer(anchor.getPackageName(), List.copyOf(structs), List.copyOf(functions),
                List.copyOf(constants));
    }

    private static Optional<StructDeclaration> structOf(Class<?> type) {
        Method layout;
        try {
            layout = type.getMethod("layout");
        } catch (NoSuchMethodException e) {
            return Optional.empty();
        }
        if (!Modifier.isStatic(layout.getModifiers()) || !GroupLayout.class.isAssignableFrom(layout.getReturnType())) {
            return Optional.empty();
        }
        GroupLayout group;
        try {
            group = (GroupLayout) layout.invoke(null);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot call " + type.getName() + ".layout()", e);
        }
        Map<String, Long> offsets = new TreeMap<>();
        for (Field field : type.getDeclaredFields()) {
            if (isPublicStaticFinal(field) && field.getType() == long.class && field.getName().endsWith("$OFFSET")) {
                String member = field.getName().substring(0, field.getName().length() - "$OFFSET".length());
                offsets.put(member, (Long) valueOf(field));
            }
        }
        return Optional.of(new StructDeclaration(type.getSimpleName(), group, offsets));
    }

    private static boolean isConstant(Class<?> type, Field field) {
        if (field.getType() != int.class && field.getType() != long.class) {
            return false;
        }
        String name = field.getName();
        if (name.startsWith("IBV_") || name.startsWith("RDMA_") || name.startsWith("RAI_")) {
            return true;
        }
        return LIBC_CLASSES.contains(type.getSimpleName()) && name.matches("[A-Z][A-Z0-9_]*");
    }

    private static boolean isPublicStaticFinal(Field field) {
        int m = field.getModifiers();
        return Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m);
    }

    private static Object valueOf(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + field, e);
        }
    }

    private static List<Class<?>> classesOf(Class<?> anchor) {
        Path location;
        try {
            location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the classes of " + anchor.getName(), e);
        }
        String packagePath = anchor.getPackageName().replace('.', '/');
        try {
            if (Files.isDirectory(location)) {
                return classesIn(location.resolve(packagePath), anchor);
            }
            try (FileSystem jar = FileSystems.newFileSystem(location)) {
                return classesIn(jar.getPath(packagePath), anchor);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the classes of package " + anchor.getPackageName()
                    + " in " + location, e);
        }
    }

    private static List<Class<?>> classesIn(Path packageDir, Class<?> anchor) throws IOException {
        List<Class<?>> classes = new ArrayList<>();
        try (Stream<Path> files = Files.list(packageDir)) {
            for (Path file : files.sorted().toList()) {
                String fileName = file.getFileName().toString();
                if (!fileName.endsWith(".class") || fileName.contains("$") || fileName.equals("package-info.class")) {
                    continue;
                }
                String className = anchor.getPackageName() + "." + fileName.substring(0, fileName.length() - 6);
                try {
                    classes.add(Class.forName(className, false, anchor.getClassLoader()));
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("class file without class: " + file, e);
                }
            }
        }
        return classes;
    }
}
