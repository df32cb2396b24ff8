/** The baseline RDMA MCS queue lock. */
package io.remus.alock.mcs;
