/**
 * The perftest engine's transport on a real device: one side per process, connected by a TCP
 * exchange of queue pair numbers, keys and addresses (as perftest) or by rdma_cm.
 */
package io.remus.bench.perftest.verbs;
