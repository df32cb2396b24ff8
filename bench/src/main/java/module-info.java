/**
 * JMH benchmarks of the per-operation software cost of Remus for Java: {@code RemotePtr}
 * arithmetic, posting and polling on the simulated fabric, {@code ComputeThread} operations on a
 * simulated cluster, delegated requests on a simulated cluster, RPC calls on the simulated fabric,
 * and posting and polling on a real
 * verbs device. Built into an executable
 * JMH jar ({@code bench/target/benchmarks.jar}); see {@code bench/README.md}.
 */
module io.remus.bench {
    requires io.remus.core;
    requires io.remus.verbs;
    requires io.remus.ds;
    requires jmh.core;
}
