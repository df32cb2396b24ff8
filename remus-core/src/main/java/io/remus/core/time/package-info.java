/**
 * The clock and the waits of a thread, real or virtual: {@link io.remus.core.time.ThreadTime}.
 *
 * {@snippet :
 * long start = ThreadTime.nanoTime();          // System.nanoTime(), or a scheduled thread's virtual clock
 * ThreadTime.parkNanos(null, 1_000);           // a host park, or 1 us of virtual time while others run
 * long waited = ThreadTime.nanoTime() - start;
 * }
 *
 * <p>The library reads the clock and waits only through {@code ThreadTime}, so that the simulator's
 * virtual-time scheduler can run every thread of a run one at a time, in an order decided by virtual
 * time and a seed: the same seed then gives the same interleaving on any host under any load. On a host
 * thread each method is the JDK's own. A scheduled thread's clock and waits are its
 * {@link io.remus.core.time.ScheduledHandle}: a platform thread ({@link io.remus.core.time.ScheduledThread})
 * carries it, a Java virtual thread has it bound.
 */
package io.remus.core.time;
