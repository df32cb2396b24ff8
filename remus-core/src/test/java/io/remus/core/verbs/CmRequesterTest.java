package io.remus.core.verbs;

import io.remus.core.verbs.bootstrap.BootstrapProtocolException;
import io.remus.verbs.CmPrivateData;
import io.remus.verbs.InvalidArgumentException;
import io.remus.verbs.RemoteRegion;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The requester a node's serving queue pair of an rdma_cm connection is for: the node id the connect
 * request's private data names, checked before the request is accepted ({@link VerbsNode#requesterOf}).
 */
class CmRequesterTest {
    private static final RemoteRegion TABLE = new RemoteRegion(0x10000, 5, 4096);

    /** {@return the requester node 0 of a 3-node list serves for a connect request with these bytes} */
    private static int requesterOfRequest(byte[] privateData) {
        return VerbsNode.requesterOf(0, CmPrivateData.fromConnectRequest(privateData).senderId(), 3);
    }

    @Test
    void shouldServeTheNodeTheRequestNames() {
        assertEquals(1, requesterOfRequest(new CmPrivateData(TABLE, 1).toBytes()));
        assertEquals(2, requesterOfRequest(new CmPrivateData(TABLE, 2).toBytes()));
        assertEquals(2, VerbsNode.requesterOf(1, 2, 3));
        assertEquals(0, VerbsNode.requesterOf(2, 0, 3));
    }

    @Test
    void shouldServeAnUnknownRequesterWhenTheRequestNamesNoNode() {
        assertEquals(ResponderQueuePair.UNKNOWN_REQUESTER, requesterOfRequest(CmPrivateData.anonymous(TABLE).toBytes()));
        assertEquals(ResponderQueuePair.UNKNOWN_REQUESTER, VerbsNode.requesterOf(0, CmPrivateData.NO_SENDER, 0));
    }

    @Test
    void shouldRefuseARequestThatNamesANodeOutsideTheNodeListOrThisNode() {
        for (int id : new int[] {3, 4, CmPrivateData.MAX_SENDER_ID}) {
            BootstrapProtocolException e = assertThrows(BootstrapProtocolException.class,
                    () -> requesterOfRequest(new CmPrivateData(TABLE, id).toBytes()));
            assertTrue(e.getMessage().contains("node " + id + ":"), e.getMessage());
            assertTrue(e.getMessage().contains("3 nodes"), e.getMessage());
        }
        BootstrapProtocolException self = assertThrows(BootstrapProtocolException.class,
                () -> requesterOfRequest(new CmPrivateData(TABLE, 0).toBytes()));
        assertTrue(self.getMessage().contains("this node itself"), self.getMessage());
        assertThrows(BootstrapProtocolException.class, () -> VerbsNode.requesterOf(0, -2, 3));
        assertThrows(BootstrapProtocolException.class, () -> VerbsNode.requesterOf(0, 1, 0),
                "a fabric with no node list serves no named requester");
    }

    @Test
    void shouldRefuseAMalformedRequestBeforeItsIdIsLookedAt() {
        byte[] badId = new CmPrivateData(TABLE, 1).toBytes();
        ByteBuffer.wrap(badId).putInt(RemoteRegion.BYTES + 4, 70_000);
        assertThrows(InvalidArgumentException.class, () -> requesterOfRequest(badId));
        assertThrows(InvalidArgumentException.class, () -> requesterOfRequest(TABLE.toBytes()), "too short");
        assertThrows(InvalidArgumentException.class, () -> requesterOfRequest(new byte[CmPrivateData.CONNECT_REQUEST_LIMIT + 1]),
                "too long");
    }
}
