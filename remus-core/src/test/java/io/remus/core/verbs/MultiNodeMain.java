package io.remus.core.verbs;

import java.time.Duration;
import java.util.Collections;

/**
 * A child JVM of {@link MultiProcessTest}: plays node {@code nodeId} of {@code size} processes on
 * one device, bootstrap ports {@code basePort + i} on 127.0.0.1; prints the scenario's result.
 * Arguments: {@code scenario(counts|kill) device nodeId size basePort ops}.
 */
public final class MultiNodeMain {
    private MultiNodeMain() {
    }

    /** @param args scenario, device, node id, size, base port, operation count */
    public static void main(String[] args) {
        String scenario = args[0];
        String device = args[1];
        int nodeId = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        int basePort = Integer.parseInt(args[4]);
        int ops = Integer.parseInt(args[5]);
        Duration connect = Duration.ofSeconds(90);
        VerbsFabricOptions options = MultiNodeScenario.options(device, Collections.nCopies(size, "127.0.0.1"), basePort, connect);
        String result = scenario.equals("kill")
                ? MultiNodeScenario.runUntilPeerDies(options, nodeId, size, ops, connect)
                : MultiNodeScenario.run(options, nodeId, size, ops, connect);
        System.out.println("RESULT " + result);
        System.out.flush();
        System.exit(result.startsWith("NO ERROR") ? 3 : 0);
    }
}
