package io.remus.verbs.ffi.conformance;

import java.util.List;

/**
 * Everything one package of the raw layer declares, as found by {@link RawLayerScanner}.
 *
 * @param packageName the scanned package
 * @param structs     its structs and unions, by tag
 * @param functions   its function declarations, by field
 * @param constants   its constants, by field
 */
public record RawLayer(String packageName, List<StructDeclaration> structs,
                       List<FunctionDeclaration> functions, List<ConstantDeclaration> constants) {
}
