package io.remus.tools.cli;

import io.remus.verbs.testing.DeviceTest;

import java.util.List;

/**
 * {@link MemcachedProcessesOnVerbsTest}'s three {@code remus serve memcached} processes on rxe with the engine
 * the command chooses on 3 nodes, the replicated one (each shard a replicated log on the 3 nodes, reached through
 * every member's front door), and the same assertions: one store through every port, {@code memccapable -a}
 * against node 1's port, exit 143 on {@code SIGTERM} once everything is closed.
 */
class MemcachedReplicatedProcessesOnVerbsTest extends MemcachedProcessesOnVerbsTest {
    @Override
    List<String> engineArgs() {
        return List.of();
    }

    @Override
    String engineLine() {
        return "shards replicated on 3 nodes each";
    }

    @DeviceTest
    @Override
    void shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm() throws Exception {
        super.shouldServeOneStoreThroughEveryProcesssPortAndStopOnSigterm();
    }
}
