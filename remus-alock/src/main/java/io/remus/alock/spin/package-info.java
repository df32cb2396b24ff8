/** The baseline RDMA spin lock (compare-and-swap loop, release by write). */
package io.remus.alock.spin;
