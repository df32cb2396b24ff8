package io.remus.verbs.ffi.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a raw-layer package against the installed rdma-core and libc headers with one gcc run:
 * every struct and union (size, alignment, each member's offset, size and kind, each
 * {@code $OFFSET} constant), every function (prototype against the header, descriptor against
 * the prototype) and every constant (value).
 *
 * <p>When a declaration names something C does not have, the probe does not compile: gcc's
 * errors are reported (each under the declaration's name), and the probe is compiled once more
 * without those declarations so that all other mismatches are reported too.
 */
public final class ConformanceChecker {
    private ConformanceChecker() {
    }

    /**
     * @param layer what a package declares (from {@link RawLayerScanner#scan})
     * @return every mismatch, one line each, naming the declaration; empty when all conform
     */
    public static List<String> check(RawLayer layer) {
        List<ProbeCheck> checks = checksOf(layer);
        Path directory = probeDirectory(layer.packageName());
        GccProbe.Result result = GccProbe.run(ProbeSource.render(checks), directory);
        List<String> mismatches = new ArrayList<>();
        if (!result.compileErrors().isEmpty()) {
            report(result, mismatches);
            Set<String> broken = result.compileErrors().stream()
                    .map(line -> line.substring(0, Math.max(0, line.indexOf(':'))))
                    .collect(Collectors.toSet());
            List<ProbeCheck> rest = checks.stream().filter(check -> !broken.contains(check.label())).toList();
            if (rest.size() == checks.size()) {
                return mismatches;
            }
            checks = rest;
            result = GccProbe.run(ProbeSource.render(checks), directory.resolve("without-errors"));
            if (!result.compileErrors().isEmpty()) {
                report(result, mismatches);
                return mismatches;
            }
        }
        Map<Integer, long[]> values = parse(result.output());
        for (int i = 0; i < checks.size(); i++) {
            ProbeCheck check = checks.get(i);
            long[] c = values.get(i);
            if (check.cExpressions().isEmpty()) {
                mismatches.addAll(check.mismatches(new long[0]));
            } else if (c == null || c.length != check.cExpressions().size()) {
                mismatches.add(check.label() + ": the probe printed no values for it");
            } else {
                mismatches.addAll(check.mismatches(c));
            }
        }
        return mismatches;
    }

    private static void report(GccProbe.Result result, List<String> mismatches) {
        mismatches.add("the C probe " + result.directory().resolve("probe.c")
                + " does not compile against the installed headers; gcc says (file:line names the declaration):");
        result.compileErrors().forEach(line -> mismatches.add("  " + line));
    }

    /**
     * @param layer what a package declares
     * @return the checks of all its declarations
     */
    public static List<ProbeCheck> checksOf(RawLayer layer) {
        List<ProbeCheck> checks = new ArrayList<>();
        layer.structs().forEach(struct -> checks.addAll(StructChecks.of(struct)));
        for (FunctionDeclaration function : layer.functions()) {
            CPrototype prototype;
            try {
                prototype = function.prototype();
            } catch (IllegalArgumentException e) {
                checks.add(new DeclarationProblem(function.label(), e.getMessage()));
                continue;
            }
            if (!prototype.name().equals(function.function().symbol())) {
                checks.add(new DeclarationProblem(function.label(), "the prototype declares "
                        + prototype.name() + ", not " + function.function().symbol()));
                continue;
            }
            checks.add(new FunctionCheck(function, prototype));
        }
        layer.constants().forEach(constant -> checks.add(new ConstantCheck(constant)));
        return checks;
    }

    private static Map<Integer, long[]> parse(List<String> output) {
        Map<Integer, long[]> values = new HashMap<>();
        for (String line : output) {
            String[] fields = line.strip().split(" ");
            long[] numbers = Arrays.stream(fields, 1, fields.length).mapToLong(Long::parseLong).toArray();
            values.put(Integer.parseInt(fields[0]), numbers);
        }
        return values;
    }

    private static Path probeDirectory(String packageName) {
        try {
            Path classes = Path.of(ConformanceChecker.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isDirectory(classes) && classes.getParent() != null) {
                return classes.getParent().resolve("conformance-probe").resolve(packageName);
            }
            return Files.createTempDirectory("remus-conformance-");
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the test classes", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
