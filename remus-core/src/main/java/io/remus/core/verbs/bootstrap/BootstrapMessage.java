package io.remus.core.verbs.bootstrap;

import io.remus.core.fabric.RemoteRegion;
import io.remus.verbs.Endpoint;

import java.util.List;
import java.util.Objects;

/**
 * The messages the processes of a verbs cluster exchange over TCP before any RDMA: each is one
 * request and one reply on a short-lived connection. {@link BootstrapCodec} frames them.
 */
public sealed interface BootstrapMessage {
    /**
     * Asks which regions node {@code nodeId} publishes.
     *
     * @param nodeId the node asked about
     */
    record RegionsRequest(int nodeId) implements BootstrapMessage {
    }

    /**
     * The regions a node publishes, in publication order (empty while it has published nothing).
     *
     * @param nodeId  the node
     * @param regions its regions
     */
    record RegionsReply(int nodeId, List<RemoteRegion> regions) implements BootstrapMessage {
        /** Checks for nulls and copies the list. */
        public RegionsReply {
            regions = List.copyOf(Objects.requireNonNull(regions, "regions"));
        }
    }

    /**
     * Asks node {@code toNode} to create a queue pair connected to the requester's.
     *
     * @param fromNode the requesting node
     * @param toNode   the node that serves the queue pair's requests
     * @param endpoint the requester's queue pair
     * @param plane    the plane of the requester's queue pair ({@link io.remus.core.fabric.Plane}), which the
     *                 serving node's access switch keys by
     */
    record ConnectRequest(int fromNode, int toNode, Endpoint endpoint, int plane) implements BootstrapMessage {
        /**
         * Checks that the endpoint is there and the plane in range.
         *
         * @throws io.remus.core.error.BadArgumentException naming the plane when it is out of range
         */
        public ConnectRequest {
            Objects.requireNonNull(endpoint, "endpoint");
            io.remus.core.fabric.Plane.require(plane);
        }

        /**
         * A request of plane {@link io.remus.core.fabric.Plane#DEFAULT}.
         *
         * @param fromNode the requesting node
         * @param toNode   the node that serves the queue pair's requests
         * @param endpoint the requester's queue pair
         */
        public ConnectRequest(int fromNode, int toNode, Endpoint endpoint) {
            this(fromNode, toNode, endpoint, io.remus.core.fabric.Plane.DEFAULT);
        }
    }

    /**
     * The serving queue pair, already connected to the requester's, and the incarnation of the node that
     * serves it (a number that differs each time the node is opened, so that the requester finds out that
     * the process it reached restarted).
     *
     * @param endpoint    the serving queue pair
     * @param incarnation the serving node's incarnation, {@code 0} where it names none
     */
    record ConnectReply(Endpoint endpoint, long incarnation) implements BootstrapMessage {
        /** Checks that the endpoint is there. */
        public ConnectReply {
            Objects.requireNonNull(endpoint, "endpoint");
        }
    }

    /**
     * A request the peer could not serve.
     *
     * @param message why
     */
    record ErrorReply(String message) implements BootstrapMessage {
        /** Checks that the message is there. */
        public ErrorReply {
            Objects.requireNonNull(message, "message");
        }
    }
}
