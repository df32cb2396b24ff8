package io.remus.core.fabric;

/**
 * What a peer needs to reach a published registration: node, address, length and rkey.
 *
 * @param nodeId  the node that owns the memory
 * @param address its first byte
 * @param length  its length in bytes
 * @param rkey    its remote key
 */
public record RemoteRegion(int nodeId, long address, long length, int rkey) {
    /**
     * Validates the region.
     *
     * @throws io.remus.core.error.BadArgumentException naming the value when the node id does not fit a
     *                                            {@link io.remus.core.memory.RemotePtr}, or the range is
     *                                            empty, past 2<sup>48</sup> or wraps
     *                                            ({@link io.remus.core.memory.RemotePtr#requireRange})
     */
    public RemoteRegion {
        io.remus.core.memory.RemotePtr.requireNodeId(nodeId);
        io.remus.core.memory.RemotePtr.requireRange(address, length);
    }

    /**
     * Tells whether a range lies inside this region.
     *
     * @param address first byte
     * @param length  bytes
     * @return whether {@code [address, address + length)} lies inside this region
     */
    public boolean contains(long address, long length) {
        return length >= 0 && address >= this.address && address - this.address <= this.length - length;
    }
}
