/**
 * Linearizability checking for the tests of Remus objects: a history recorder and a checker.
 * See {@code io.remus.check}.
 */
module io.remus.check {
    requires io.remus.core;

    exports io.remus.check;
    exports io.remus.check.spec;
}
