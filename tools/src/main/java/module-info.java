/**
 * The {@code remus} command: lists RDMA devices, and runs the benchmarks and experiments of
 * {@code io.remus.bench.engines} on the verbs fabric or the embedded simulator, printing or plotting their
 * results. Its commands parse, validate and print; the engines do the measuring.
 */
module io.remus.tools {
    requires io.remus.core;
    requires io.remus.alock;
    requires io.remus.ds;
    requires io.remus.memcached;
    requires io.remus.bench.engines;
    requires java.management;
    requires jdk.management;
    requires java.desktop;
    requires io.remus.verbs;
    requires info.picocli;
    requires HdrHistogram;
    requires org.knowm.xchart;

    exports io.remus.tools;
    exports io.remus.tools.report;
    exports io.remus.tools.devices;
    exports io.remus.tools.experiment;
    exports io.remus.tools.experiment.numa;
    exports io.remus.tools.plot;
    exports io.remus.tools.cli;
    exports io.remus.tools.lock;
    exports io.remus.tools.reclaim;
    exports io.remus.tools.object;
    exports io.remus.tools.log;
    exports io.remus.tools.index;
    exports io.remus.tools.ds;

    opens io.remus.tools to info.picocli;
    opens io.remus.tools.cli to info.picocli;
}
