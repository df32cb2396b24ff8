/**
 * The churn workload: a shared array of slots whose nodes are replaced and retired, read inside
 * guards by a checker that catches a read of freed or reused memory. Tests of the reclaimers and
 * their benchmark run it.
 */
package io.remus.bench.churn;
