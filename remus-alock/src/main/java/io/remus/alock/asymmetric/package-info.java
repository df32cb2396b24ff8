/** ALock, the asymmetric lock for RDMA, and the layout of its lock word. */
package io.remus.alock.asymmetric;
