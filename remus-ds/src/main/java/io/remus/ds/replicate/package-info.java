/**
 * State-machine replication after Mu (Aguilera, Ben-David, Guerraoui, Marathe, Xygkis, Zablotchi,
 * "Microsecond Consensus for Microsecond Applications", OSDI 2020; "The Impact of RDMA on Agreement",
 * PODC 2019): the replication plane of a replicated log over one-sided RDMA.
 *
 * <p>A {@link io.remus.ds.replicate.ReplicaGroup} names {@code 2f + 1} member nodes. Each member keeps its
 * copy of the log in its own memory and applies committed entries to a deterministic
 * {@link io.remus.ds.replicate.StateMachine} ({@link io.remus.ds.replicate.LogReplica}: CPU loads only, no
 * RDMA). One {@link io.remus.ds.replicate.LogLeader} appends: one RDMA WRITE of the entry into each follower's
 * log, committed once a majority holds it (one round trip, {@code 2f} WRITEs). Only the leader a member
 * granted write access to can write its log ({@link io.remus.ds.replicate.LogReplica#grantWriteTo}, Mu's
 * permission switch over {@link io.remus.core.RemusNode#setPeerAccess}); a deposed leader's append throws
 * {@link io.remus.ds.replicate.LeaderFencedException}. The log's layout is {@link io.remus.ds.replicate.LogLayout}.
 *
 * <p>Leader change after Mu: each member's {@link io.remus.ds.replicate.ReplicaAgent}, polled by the member's
 * thread, READs the other members' heartbeat words, suspects the ones that stop advancing and grants write
 * access to the lowest trusted node once it asks with a higher term; that node's
 * {@link io.remus.ds.replicate.LogLeader#takeOver} waits for a majority's promises, reads their logs, adopts
 * the highest-term entry of every unfinished index and rewrites them under its own term.
 * {@link io.remus.ds.replicate.LogLeader#reattach} catches a detached follower up from the leader's log.
 *
 * <p>Snapshots after Raft's InstallSnapshot (Ongaro, "Consensus: Bridging Theory and Practice", PhD thesis,
 * Stanford 2014, ch. 5): a log created with a snapshot capacity has a snapshot region beside it, named in its
 * header; a member stores checksummed images of its {@link io.remus.ds.replicate.StateMachine} there
 * ({@link io.remus.ds.replicate.LogReplica#takeSnapshot}); a leader brings back a follower further behind than
 * its ring by WRITEing its own member's image into the follower's region and then the entries after it
 * ({@code reattach}); a new leader behind the ring READs a granting member's image first ({@code takeOver}); a
 * restarted member starts from the image in its region. A member restores only an image whose checksum holds
 * over its own copy, never a torn or partial one.
 *
 * <p>A group replicates on a plane of its own ({@link io.remus.ds.replicate.ReplicaGroup#plane()}): its leader's
 * compute thread is one of that plane, and a member's grant switches that plane's queue pairs alone, so a revoked
 * leader's RPC and other requests still reach the member, as Mu keeps replication on queue pairs of its own.
 *
 * <p>With {@code node}, a member's {@code RemusNode}, and {@code t}, a compute thread of it on the group's plane
 * ({@code node.newComputeThread(Plane.REPLICATION)}):
 * {@snippet :
 * ReplicaGroup group = ReplicaGroup.of(0, 1, 2);                    // replicates on Plane.REPLICATION
 * LogReplica replica = LogReplica.create(node, t, group, "kv-log", 1024, 256,
 *         (index, entry) -> System.out.println(index + ": " + entry.byteSize() + " bytes"));
 * replica.grantWriteTo(0);                                         // on every member: node 0 leads
 * LogLeader leader = LogLeader.open(t, group, "kv-log", 1, Duration.ofSeconds(5));   // on node 0
 * long index = leader.append(MemorySegment.ofArray(new byte[] {1, 2, 3}), Duration.ofMillis(10)); // 2 WRITEs, 1 round trip
 * replica.applyCommitted();                                        // on every member, in its loop: CPU only
 * }
 */
package io.remus.ds.replicate;
