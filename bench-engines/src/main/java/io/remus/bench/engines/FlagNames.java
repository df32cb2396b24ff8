package io.remus.bench.engines;

import io.remus.core.error.BadArgumentException;

import java.util.Arrays;
import java.util.function.Function;

/** The one rule by which a value of the tool's flags names a constant of an engine's enum. */
public final class FlagNames {
    private FlagNames() {
    }

    /**
     * {@return the constant whose flag name is {@code name}, in any case}
     *
     * @param values   the enum's constants, in the order the error lists them
     * @param flagName a constant's name as the tool's flag spells it
     * @param what     what a constant is, for the error (e.g. {@code "structure"})
     * @param name     the flag's value
     * @param <E>      the enum
     * @throws BadArgumentException naming the value and the accepted ones when no constant has that name
     */
    public static <E extends Enum<E>> E parse(E[] values, Function<E, String> flagName, String what, String name) {
        for (E e : values) {
            if (flagName.apply(e).equalsIgnoreCase(name)) {
                return e;
            }
        }
        throw new BadArgumentException("unknown " + what + " '" + name + "', expected one of "
                + Arrays.stream(values).map(flagName).toList());
    }
}
