/**
 * Which lock algorithm: {@link io.remus.alock.kind.LockKind} names the algorithms (ALock, the RDMA spin and MCS
 * locks) and opens a handle of one on a lock word. It sits above the implementations it picks, which share
 * the vocabulary of {@link io.remus.alock}.
 */
package io.remus.alock.kind;
