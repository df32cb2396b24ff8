package io.remus.ds.replicate;

import io.remus.core.RemusNode;
import io.remus.core.error.BadArgumentException;

import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which logs switch a node's grant. Mu's permission switch ({@link RemusNode#setPeerAccess}) is a node's, not
 * a log's: a grant to one log's leader revokes every other peer's write access to the whole node, so two logs on
 * one node whose leaders differ fence each other. The rule this registry enforces, per node object, before any
 * switch: logs on one node may grant only the same leader, and a log with a {@link ReplicaAgent} (whose polls
 * switch the grant when its group elects another leader) is the only log on its node that grants at all. A
 * closed agent gives its log's claim back. Wait-free apart from one monitor; no RDMA operation.
 */
final class NodeGrants {
    /** Per node, per log name: the leader its replica last granted (-1 for none) and whether it has an agent. */
    private static final Map<RemusNode, Map<String, Claim>> BY_NODE = new WeakHashMap<>();

    private static final class Claim {
        int leader = -1;
        boolean agent;
    }

    private NodeGrants() {
    }

    /**
     * Records that {@code log}'s replica on {@code node} (id {@code nodeId}) grants write access to {@code leader}.
     *
     * @throws BadArgumentException naming the node, both logs and both leaders, when another log on the node has
     *                              an agent or granted another leader; nothing is recorded then
     */
    static synchronized void grant(RemusNode node, int nodeId, String log, int leader) {
        Map<String, Claim> logs = BY_NODE.computeIfAbsent(node, n -> new HashMap<>());
        for (Map.Entry<String, Claim> e : logs.entrySet()) {
            Claim other = e.getValue();
            if (e.getKey().equals(log)) {
                continue;
            }
            if (other.agent) {
                throw new BadArgumentException("node " + nodeId + " cannot grant write access to node " + leader
                        + " for log " + log + ": log " + e.getKey() + " on the same node fails over (its agent switches"
                        + " the node's grant), and a grant is the node's, not a log's");
            }
            if (other.leader >= 0 && other.leader != leader) {
                throw new BadArgumentException("node " + nodeId + " cannot grant write access to node " + leader
                        + " for log " + log + ": it granted node " + other.leader + " for log " + e.getKey()
                        + ", whose leader the switch would fence (a grant is the node's, not a log's)");
            }
        }
        logs.computeIfAbsent(log, l -> new Claim()).leader = leader;
    }

    /**
     * Records that {@code log}'s replica on {@code node} (id {@code nodeId}) has an agent.
     *
     * @throws BadArgumentException naming the node and both logs when another log on the node has an agent or
     *                              granted a leader; nothing is recorded then
     */
    static synchronized void claimForAgent(RemusNode node, int nodeId, String log) {
        Map<String, Claim> logs = BY_NODE.computeIfAbsent(node, n -> new HashMap<>());
        for (Map.Entry<String, Claim> e : logs.entrySet()) {
            Claim other = e.getValue();
            if (!e.getKey().equals(log) && (other.agent || other.leader >= 0)) {
                throw new BadArgumentException("log " + log + " cannot fail over on node " + nodeId + ": log "
                        + e.getKey() + " on the same node " + (other.agent ? "fails over" : "granted node " + other.leader)
                        + " already, and a grant is the node's, not a log's (one fail-over log per node)");
            }
        }
        logs.computeIfAbsent(log, l -> new Claim()).agent = true;
    }

    /** Gives back {@code log}'s claim on {@code node}: its agent closed. */
    static synchronized void release(RemusNode node, String log) {
        Map<String, Claim> logs = BY_NODE.get(node);
        if (logs != null) {
            logs.remove(log);
        }
    }
}
