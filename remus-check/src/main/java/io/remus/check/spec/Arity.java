package io.remus.check.spec;

import io.remus.check.HistoryFormatException;
import io.remus.check.Operation;

/** The argument-count check every specification makes before it applies an operation. */
final class Arity {
    private Arity() {
    }

    static void require(Operation op, int arguments) {
        if (op.arguments().length != arguments) {
            throw new HistoryFormatException(op.kind() + " takes " + arguments + " argument word(s), got "
                    + op.arguments().length + " in " + op);
        }
    }

    static HistoryFormatException unknown(String object, Operation op, String kinds) {
        return new HistoryFormatException(object + " has no operation '" + op.kind() + "' (it has " + kinds + "): " + op);
    }
}
