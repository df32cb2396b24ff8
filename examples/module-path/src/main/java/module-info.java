/**
 * A user's module on top of Remus for Java: it requires {@code io.remus.core} alone, as an
 * application does, and runs the README's example.
 *
 * <p>Run it on the module path, with native access granted to the module that makes the
 * downcalls ({@code io.remus.verbs}):
 * <pre>{@code
 * java --module-path remus-core.jar:remus-verbs.jar:remus-example-module-path.jar \
 *      --enable-native-access=io.remus.verbs -m io.remus.example/io.remus.example.ReadmeExample
 * }</pre>
 */
module io.remus.example {
    requires io.remus.core;

    exports io.remus.example;
}
