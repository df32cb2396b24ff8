package io.remus.verbs.ffi.jextract;

import io.remus.verbs.ffi.conformance.ConstantDeclaration;
import io.remus.verbs.ffi.conformance.RawLayer;
import io.remus.verbs.ffi.conformance.RawLayerScanner;
import io.remus.verbs.ffi.conformance.StructDeclaration;
import io.remus.verbs.ffi.ibv_sge;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The jextract {@code --include-*} lines that correspond to the raw layer: one
 * {@code --include-struct} or {@code --include-union} per struct class, one
 * {@code --include-function} per exported function (not provider function pointers, which
 * jextract reaches through their structs, and not libc, which the raw layer links from the
 * default lookup), one {@code --include-constant} per constant (not libc's).
 *
 * <p>Run {@link #main} to refresh {@code jextract/includes.txt} after adding declarations.
 */
public final class IncludeList {
    private IncludeList() {
    }

    /**
     * @param layer what the raw layer declares
     * @return the include lines, structs and unions first, then functions, then constants,
     *         each group sorted by name
     */
    public static List<String> of(RawLayer layer) {
        List<String> lines = new ArrayList<>();
        for (StructDeclaration struct : layer.structs()) {
            lines.add((struct.isUnion() ? "--include-union " : "--include-struct ") + struct.tag());
        }
        layer.functions().stream()
                .filter(f -> !f.libc() && !f.function().isPointer())
                .map(f -> "--include-function " + f.function().name())
                .distinct().sorted().forEach(lines::add);
        layer.constants().stream()
                .filter(c -> !c.libc())
                .map(ConstantDeclaration::name)
                .distinct().sorted().map(name -> "--include-constant " + name).forEach(lines::add);
        return lines;
    }

    /** @return the include lines of the real raw layer {@code io.remus.verbs.ffi} */
    public static List<String> ofRawLayer() {
        return of(RawLayerScanner.scan(ibv_sge.class));
    }

    /**
     * @param text the contents of an includes file
     * @return its option lines, without blank lines and {@code #} comments
     */
    public static List<String> parse(String text) {
        return text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /** @return {@code jextract/includes.txt} of the source tree these test classes were built from */
    public static Path checkedInFile() {
        try {
            Path testClasses = Path.of(IncludeList.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return testClasses.getParent().getParent().getParent().resolve("jextract").resolve("includes.txt");
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the test classes", e);
        }
    }

    /**
     * Writes the include lines of the raw layer.
     *
     * @param args the file to write; {@code jextract/includes.txt} of this source tree when absent
     * @throws IOException when the file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Path file = args.length > 0 ? Path.of(args[0]) : checkedInFile();
        Files.writeString(file, String.join("\n", ofRawLayer()) + "\n");
        System.out.println("wrote " + file);
    }
}
