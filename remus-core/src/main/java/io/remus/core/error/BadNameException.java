package io.remus.core.error;

import java.util.Objects;

/**
 * A name handed to a {@link io.remus.core.NameDirectory} is not one it can hold: empty, longer than
 * {@link io.remus.core.NameDirectory#MAX_NAME_BYTES} bytes, or with a byte outside printable ASCII. The
 * message names the value (non-printable characters escaped) and what is wrong with it. Thrown before any
 * RDMA operation.
 */
public class BadNameException extends BadArgumentException {
    private static final long serialVersionUID = 1L;

    /** The rejected name, as given. */
    private final String name;

    /**
     * Creates the exception.
     *
     * @param name   the rejected name
     * @param reason what is wrong with it
     */
    public BadNameException(String name, String reason) {
        super("bad name " + quote(Objects.requireNonNull(name, "name")) + ": " + reason);
        this.name = name;
    }

    /** {@return the rejected name, as given} */
    public String name() {
        return name;
    }

    /**
     * {@return {@code name} in double quotes, each character outside printable ASCII written as
     * {@code \}{@code uXXXX}}
     *
     * @param name any string
     */
    public static String quote(String name) {
        StringBuilder b = new StringBuilder(name.length() + 2).append('"');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        return b.append('"').toString();
    }
}
