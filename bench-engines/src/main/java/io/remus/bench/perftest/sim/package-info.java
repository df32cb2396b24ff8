/**
 * The perftest engine's transport on the embedded simulator: server and client sides in this JVM.
 */
package io.remus.bench.perftest.sim;
