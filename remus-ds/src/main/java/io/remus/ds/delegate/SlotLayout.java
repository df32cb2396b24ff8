package io.remus.ds.delegate;

/**
 * The slots of one trustee: how many each client has and the payload bytes each carries, and the sizes and word
 * offsets that follow from them, for the trustee, its clients and their pending applies alike. A request slot is
 * {@code [op][argument][payloadBytes of payload][check][sequence]}, a response slot
 * {@code [result][status][payloadBytes of payload][check][sequence][closed]}: the check and sequence words stand at
 * the same offsets in both, {@link Trustee#REQUEST_CHECK} and {@link Trustee#REQUEST_SEQUENCE} past the payload.
 *
 * @param slots        request slots per client, and response slots per response block
 * @param payloadBytes payload bytes of every slot, a multiple of 8
 */
record SlotLayout(int slots, int payloadBytes) {
    /** {@return the offset of a request's or a response's check word in its slot} */
    long check() {
        return Trustee.REQUEST_CHECK + payloadBytes;
    }

    /** {@return the offset of a request's or a response's sequence word in its slot} */
    long sequence() {
        return Trustee.REQUEST_SEQUENCE + payloadBytes;
    }

    /** {@return the bytes of a request slot, which ends with its sequence word} */
    long requestBytes() {
        return sequence() + 8;
    }

    /** {@return the offset of a response's closed word in its slot, the word after its sequence word} */
    long responseClosed() {
        return sequence() + 8;
    }

    /** {@return the bytes of a response slot, which ends with its closed word} */
    long responseBytes() {
        return responseClosed() + 8;
    }

    /** {@return the bytes of a client's place in the trustee's block: its response block pointer, then its request slots} */
    long clientBytes() {
        return 8 + slots * requestBytes();
    }

    /** {@return the bytes of a client's response block: its closed word, then its response slots} */
    long responseBlockBytes() {
        return Trustee.RESPONSE_HEADER_BYTES + slots * responseBytes();
    }

    /** {@return the bytes of the trustee's block: its header, then {@code maxClients} client places} */
    long blockBytes(int maxClients) {
        return Trustee.HEADER_BYTES + maxClients * clientBytes();
    }
}
