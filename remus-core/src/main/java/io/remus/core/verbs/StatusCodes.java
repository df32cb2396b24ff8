package io.remus.core.verbs;

import io.remus.core.error.CompletionStatus;
import io.remus.core.fabric.Opcode;
import io.remus.verbs.CompletionOpcode;

/** Translates verbs' {@code ibv_wc_status} and {@code ibv_wc_opcode} codes to the fabric SPI's enums. */
final class StatusCodes {
    private StatusCodes() {
    }

    static CompletionStatus status(int code) {
        if (code == io.remus.verbs.CompletionStatus.SUCCESS) {
            return CompletionStatus.SUCCESS;
        } else if (code == io.remus.verbs.CompletionStatus.WORK_REQUEST_FLUSHED) {
            return CompletionStatus.FLUSHED;
        } else if (code == io.remus.verbs.CompletionStatus.REMOTE_ACCESS_ERROR) {
            return CompletionStatus.REMOTE_ACCESS_ERROR;
        } else if (code == io.remus.verbs.CompletionStatus.REMOTE_INVALID_REQUEST) {
            return CompletionStatus.REMOTE_INVALID_REQUEST;
        } else if (code == io.remus.verbs.CompletionStatus.RETRY_EXCEEDED) {
            return CompletionStatus.RETRY_EXCEEDED;
        } else if (code == io.remus.verbs.CompletionStatus.RECEIVER_NOT_READY_RETRY_EXCEEDED) {
            return CompletionStatus.RECEIVER_NOT_READY;
        } else if (code == io.remus.verbs.CompletionStatus.LOCAL_LENGTH_ERROR) {
            return CompletionStatus.LOCAL_LENGTH_ERROR;
        } else if (code == io.remus.verbs.CompletionStatus.LOCAL_PROTECTION_ERROR) {
            return CompletionStatus.LOCAL_PROTECTION_ERROR;
        }
        return CompletionStatus.REMOTE_OPERATION_ERROR;
    }

    static Opcode opcode(int code) {
        if (code == CompletionOpcode.RDMA_WRITE) {
            return Opcode.WRITE;
        } else if (code == CompletionOpcode.COMPARE_AND_SWAP) {
            return Opcode.COMPARE_AND_SWAP;
        } else if (code == CompletionOpcode.FETCH_AND_ADD) {
            return Opcode.FETCH_AND_ADD;
        } else if (code == CompletionOpcode.SEND) {
            return Opcode.SEND;
        } else if (code == CompletionOpcode.RECEIVE) {
            return Opcode.RECEIVE;
        } else if (code == CompletionOpcode.RECEIVE_RDMA_WITH_IMMEDIATE) {
            return Opcode.RECEIVE_WITH_IMMEDIATE;
        }
        return Opcode.READ;
    }
}
