package io.remus.ds.index;

import io.remus.check.Budget;
import io.remus.check.CheckResult;
import io.remus.check.HistoryJournal;
import io.remus.check.LinearizabilityChecker;
import io.remus.check.Operation;
import io.remus.check.Verdict;
import io.remus.check.spec.MapSpec;
import io.remus.ds.testing.ChildProcesses;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static io.remus.ds.index.IndexKilledFollowerOnVerbsTest.expectedMap;
import static io.remus.ds.index.IndexKilledFollowerOnVerbsTest.mapPart;
import static io.remus.ds.index.IndexKilledLeaderMain.AFTER;
import static io.remus.ds.index.IndexKilledLeaderMain.CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.FOLLOWER;
import static io.remus.ds.index.IndexKilledLeaderMain.NEW_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.NODES;
import static io.remus.ds.index.IndexKilledLeaderMain.OLD_LEADER;
import static io.remus.ds.index.IndexKilledLeaderMain.OTHER_CLIENT;
import static io.remus.ds.index.IndexKilledLeaderMain.SWEEP_CLIENT;

/**
 * The checks of a run of {@link IndexKilledLeaderMain}'s five processes once the first leader is gone (killed on one
 * host by {@link IndexKilledLeaderOnVerbsTest}, its guest stopped by {@code softroce/run-guest-stop} through
 * {@link IndexGuestStopMain}), on the processes' outputs and the files they left in their directory: the clients'
 * journals ({@code map-3.journal}, {@code map-4.journal}, {@code map-sweep.journal}) and the survivors' states
 * ({@code state-1}, {@code state-2}). {@link #check} throws naming the first thing wrong:
 * <ul>
 *   <li>the clients kept completing operations: each invoked at least {@value IndexKilledLeaderMain#AFTER} after it
 *       saw the kill (its {@code CLIENT} line's {@code killSeen}), none failing, none left pending (the operations
 *       in flight at the dead leader among them, completed through the new one);</li>
 *   <li>every key's history, merged from both clients' journals with the final read of every key, is linearizable
 *       against {@link MapSpec} (remus-check), so no acknowledged write is lost;</li>
 *   <li>no operation applied twice or lost: the new leader's session table holds each client's last sequence, its
 *       state machine applied exactly as many commands as the clients completed operations, and every entry of the
 *       log is one of those commands or a duplicate that changed nothing;</li>
 *   <li>node 1 took the shard over once, in a term above node 0's, leads at the end with no WRITE refused; both
 *       survivors suspect node 0 and elect node 1; node 2 never led;</li>
 *   <li>the survivors applied the same entries and their states are equal (map and session table), and their map
 *       is what the final reads, part of the checked history, returned.</li>
 * </ul>
 */
final class IndexKilledLeaderVerdict {
    private static final Pattern OLD_TERM = Pattern.compile("PROGRESS leading node=" + OLD_LEADER + " term=(\\d+)");

    private IndexKilledLeaderVerdict() {
    }

    /**
     * @param dir      the processes' directory
     * @param outputs  each node's output, by node id ({@value IndexKilledLeaderMain#NODES} of them); node 0's needs
     *                 only its {@code PROGRESS leading} line
     * @param killedAt when node 0 was gone, on {@link io.remus.check.HistoryClock#EPOCH_MICROS}, or -1 when unknown:
     *                 only for the count {@code acrossKill} of operations invoked before it and answered after it
     * @param budget   the linearizability check's budget
     * @return the run's counts, one line of {@code key=value} pairs
     * @throws IllegalStateException naming the first property that does not hold
     * @throws IOException           when a file cannot be read
     */
    static String check(Path dir, List<String> outputs, long killedAt, Duration budget) throws IOException {
        require(outputs.size() == NODES, NODES + " outputs expected, got " + outputs.size());
        Matcher oldTerm = OLD_TERM.matcher(outputs.get(OLD_LEADER));
        require(oldTerm.find(), "node " + OLD_LEADER + " printed no term it led in");
        Map<String, String> leader = fields(outputs, NEW_LEADER, "LEADER ");
        Map<String, String> follower = fields(outputs, FOLLOWER, "FOLLOWER ");
        Map<String, String> client = fields(outputs, CLIENT, "CLIENT ");
        Map<String, String> other = fields(outputs, OTHER_CLIENT, "CLIENT ");
        Map<String, String> sweep = fields(outputs, CLIENT, "SWEEP");

        List<Path> journals = Stream.of("map-" + CLIENT + ".journal", "map-" + OTHER_CLIENT + ".journal",
                "map-sweep.journal").map(dir::resolve).toList();
        for (Path j : journals) {
            require(Files.isRegularFile(j), "no journal " + j.getFileName());
        }
        List<Operation> history = HistoryJournal.merge(journals);
        long acrossKill = 0;
        for (int live : new int[] {CLIENT, OTHER_CLIENT}) {
            long killSeen = num(live == CLIENT ? client : other, "killSeen", live);
            List<Operation> mine = history.stream().filter(o -> o.process() == live).toList();
            require(mine.stream().noneMatch(Operation::isPending), "node " + live + " left an operation pending");
            long after = mine.stream().filter(o -> o.invokedAt() > killSeen).count();
            require(after >= AFTER, "node " + live + " completed " + after + " operations after it saw the kill, not "
                    + AFTER);
            acrossKill += mine.stream().filter(o -> o.invokedAt() < killedAt && o.respondedAt() > killedAt).count();
        }
        CheckResult result = new LinearizabilityChecker(Budget.of(budget)).checkByKey(history, new MapSpec());
        require(result.verdict() == Verdict.LINEARIZABLE, "per-key histories: " + result);

        long clientOps = num(client, "sequence", CLIENT);
        long otherOps = num(other, "sequence", OTHER_CLIENT);
        require(clientOps == num(leader, "seq" + (1000 + CLIENT), NEW_LEADER), "node " + CLIENT + " made " + clientOps
                + " operations, node " + NEW_LEADER + "'s session table holds " + leader.get("seq" + (1000 + CLIENT)));
        require(otherOps == num(leader, "seq" + (1000 + OTHER_CLIENT), NEW_LEADER), "node " + OTHER_CLIENT + " made "
                + otherOps + " operations, node " + NEW_LEADER + "'s session table holds "
                + leader.get("seq" + (1000 + OTHER_CLIENT)));
        require(num(leader, "seq" + SWEEP_CLIENT, NEW_LEADER) == IndexKilledFollowerMain.KEYS, "the final reads: "
                + leader.get("seq" + SWEEP_CLIENT) + " applied, not " + IndexKilledFollowerMain.KEYS);
        long applied = num(leader, "applied", NEW_LEADER);
        long operations = clientOps + otherOps + IndexKilledFollowerMain.KEYS;
        require(applied == operations, "node " + NEW_LEADER + " applied " + applied + " commands for " + operations
                + " operations");
        require(num(leader, "malformed", NEW_LEADER) == 0, "malformed entries: " + leader.get("malformed"));
        long entries = num(leader, "entries", NEW_LEADER);
        require(applied + num(leader, "duplicates", NEW_LEADER) == entries, "node " + NEW_LEADER + "'s " + entries
                + " entries are not its " + applied + " commands and " + leader.get("duplicates") + " duplicates");

        require(num(leader, "takeovers", NEW_LEADER) == 1, "node " + NEW_LEADER + " took the shard over "
                + leader.get("takeovers") + " times");
        long term = num(leader, "term", NEW_LEADER);
        require(term > Long.parseLong(oldTerm.group(1)), "node " + NEW_LEADER + "'s term " + term + " is not above node "
                + OLD_LEADER + "'s " + oldTerm.group(1));
        require(num(leader, "fencedWrites", NEW_LEADER) == 0, "node " + NEW_LEADER + "'s WRITEs refused: "
                + leader.get("fencedWrites"));
        for (int node : new int[] {NEW_LEADER, FOLLOWER}) {
            Map<String, String> survivor = node == NEW_LEADER ? leader : follower;
            require("true".equals(survivor.get("suspectsOld")), "node " + node + " does not suspect node " + OLD_LEADER);
            require(num(survivor, "elected", node) == NEW_LEADER, "node " + node + " elects " + survivor.get("elected"));
        }
        require("false".equals(follower.get("leads")), "node " + FOLLOWER + " leads");
        require(num(follower, "takeovers", FOLLOWER) == 0, "node " + FOLLOWER + " took the shard over");

        require(num(follower, "entries", FOLLOWER) == entries, "node " + FOLLOWER + " applied " + follower.get("entries")
                + " entries, node " + NEW_LEADER + " " + entries);
        require(num(follower, "applied", FOLLOWER) == applied, "node " + FOLLOWER + " applied " + follower.get("applied")
                + " commands, node " + NEW_LEADER + " " + applied);
        String leaderState = Files.readString(dir.resolve("state-" + NEW_LEADER));
        require(leaderState.equals(Files.readString(dir.resolve("state-" + FOLLOWER))), "the survivors' states differ");
        require(expectedMap(sweep).equals(mapPart(leaderState)), "the survivors' map " + mapPart(leaderState)
                + " is not what the final reads returned, " + expectedMap(sweep));
        return "operations=" + history.size() + " acrossKill=" + acrossKill + " entries=" + entries + " applied="
                + applied + " duplicates=" + leader.get("duplicates") + " oldTerm=" + oldTerm.group(1) + " term=" + term
                + " configurations=" + result.configurations() + " survivors=2 equal";
    }

    /** {@return the pairs of the first line of node {@code node}'s output that starts with {@code prefix}} */
    private static Map<String, String> fields(List<String> outputs, int node, String prefix) {
        return ChildProcesses.fields(outputs.get(node).lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + prefix.strip() + " line in node " + node + "'s output")));
    }

    private static long num(Map<String, String> fields, String key, int node) {
        String v = fields.get(key);
        require(v != null, "node " + node + "'s line has no " + key);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("node " + node + "'s " + key + " is " + v + ", not a number", e);
        }
    }

    private static void require(boolean ok, String problem) {
        if (!ok) {
            throw new IllegalStateException(problem);
        }
    }
}
