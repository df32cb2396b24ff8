package io.remus.bench.perftest.verbs;

import java.io.IOException;
import java.net.ServerSocket;

/** A TCP port for a test's control exchange. */
final class FreePort {
    private FreePort() {
    }

    /** @return a TCP port that was free a moment ago */
    static int next() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
