package io.remus.ds.replicate;

import io.remus.core.fabric.Plane;
import io.remus.core.error.BadArgumentException;

import java.util.Arrays;

/**
 * The members of a replicated log: {@code 2f + 1} distinct nodes ({@code f >= 1}), of which any {@code f + 1}
 * (a majority) commit an entry and any {@code f} may be down. The replication scheme is Mu's (Aguilera,
 * Ben-David, Guerraoui, Marathe, Xygkis, Zablotchi, "Microsecond Consensus for Microsecond Applications",
 * OSDI 2020). Immutable; no RDMA operation.
 *
 * <p><b>Plane.</b> A group replicates on a plane of its own ({@link #plane()}, {@link Plane#REPLICATION} unless
 * {@link #onPlane} chose another): its leader's compute thread is one of that plane
 * ({@code RemusNode.newComputeThread(group.plane())}), and a member's grant ({@link LogReplica#grantWriteTo})
 * switches only that plane's queue pairs, as Mu keeps replication on queue pairs of its own. So a member that
 * revoked a deposed leader still takes that node's RPC and other requests, and groups on different planes that
 * share a node grant independently.
 */
public final class ReplicaGroup {
    private final int[] members;
    private final int plane;

    private ReplicaGroup(int[] members, int plane) {
        this.members = members;
        this.plane = plane;
    }

    /**
     * A group of the given nodes, in the given order.
     *
     * @param nodeIds the members: an odd number, at least 3, distinct, none negative
     * @return the group
     * @throws BadArgumentException naming the value, for an even count or one below 3, a repeated node or a
     *                              negative one
     */
    public static ReplicaGroup of(int... nodeIds) {
        if (nodeIds == null) {
            throw new BadArgumentException("nodeIds must not be null");
        }
        int n = nodeIds.length;
        if (n < 3 || n % 2 == 0) {
            throw new BadArgumentException("a replica group has 2f+1 members with f >= 1 (3, 5, 7 ...), got " + n
                    + " members " + Arrays.toString(nodeIds));
        }
        int[] copy = nodeIds.clone();
        for (int i = 0; i < n; i++) {
            if (copy[i] < 0) {
                throw new BadArgumentException("node id must not be negative, got " + copy[i]);
            }
            for (int j = 0; j < i; j++) {
                if (copy[j] == copy[i]) {
                    throw new BadArgumentException("node " + copy[i] + " appears twice in " + Arrays.toString(nodeIds));
                }
            }
        }
        return new ReplicaGroup(copy, Plane.REPLICATION);
    }

    /**
     * The same members replicating on another plane.
     *
     * @param plane the plane, {@code 1} to {@code Plane.COUNT - 1} (plane {@link Plane#DEFAULT} is every other
     *              queue pair's, which a grant must not switch)
     * @return the group on {@code plane}
     * @throws BadArgumentException naming the plane when it is out of that range
     */
    public ReplicaGroup onPlane(int plane) {
        if (plane == Plane.DEFAULT) {
            throw new BadArgumentException("a replica group replicates on a plane of its own, 1.." + (Plane.COUNT - 1)
                    + ", not on the default plane " + Plane.DEFAULT + " that RPC and every other queue pair use");
        }
        return new ReplicaGroup(members, Plane.require(plane));
    }

    /** {@return the plane its leader's WRITEs travel on and its members' grants switch} */
    public int plane() {
        return plane;
    }

    /** {@return how many members the group has, {@code 2f + 1}} */
    public int size() {
        return members.length;
    }

    /** {@return how many members may be down while entries still commit} */
    public int faultsTolerated() {
        return members.length / 2;
    }

    /** {@return how many members commit an entry: {@code f + 1}} */
    public int majority() {
        return members.length / 2 + 1;
    }

    /**
     * {@return the node of member {@code index}}
     *
     * @param index 0..{@link #size()} - 1
     */
    public int member(int index) {
        if (index < 0 || index >= members.length) {
            throw new BadArgumentException("member index must be 0.." + (members.length - 1) + ", got " + index);
        }
        return members[index];
    }

    /**
     * {@return the index of {@code nodeId} among the members, or -1 when it is not one}
     *
     * @param nodeId any node id
     */
    public int indexOf(int nodeId) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == nodeId) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Checks that {@code nodeId} is a member.
     *
     * @param nodeId any node id
     * @param role   what the node was to be, for the message
     * @return its index among the members
     * @throws BadArgumentException naming the node and the group when it is not a member
     */
    public int requireMember(int nodeId, String role) {
        int i = indexOf(nodeId);
        if (i < 0) {
            throw new BadArgumentException(role + " node " + nodeId + " is not in the replica group " + this);
        }
        return i;
    }

    @Override
    public String toString() {
        return Arrays.toString(members);
    }
}
