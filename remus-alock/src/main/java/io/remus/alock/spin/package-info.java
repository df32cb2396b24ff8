/** The baseline RDMA spin lock (compare-and-swap loop to acquire, compare-and-swap back to 0 to release). */
package io.remus.alock.spin;
