package io.remus.core.config;

import io.remus.core.BadArgumentException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A hostfile: the node list, one {@code host} or {@code host:port} per line (see
 * {@link NodeAddress}), node 0 first. {@code #} starts a comment that runs to the end of the
 * line; blank lines are skipped.
 *
 * <pre>
 * # memory nodes
 * 10.0.0.1:18515
 * 10.0.0.2          # port 18515 + 1
 * </pre>
 */
public final class Hostfile {
    private Hostfile() {
    }

    /**
     * @param file the hostfile
     * @return its entries, by node id
     * @throws BadArgumentException when it cannot be read, has a malformed line or no entry
     */
    public static List<String> read(Path file) {
        Objects.requireNonNull(file, "file");
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new BadArgumentException("cannot read hostfile " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    /**
     * @param text   a hostfile's contents
     * @param source its name, for messages
     * @return its entries, by node id
     * @throws BadArgumentException naming {@code source:line} for a malformed line, or when it has no entry
     */
    public static List<String> parse(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        List<String> entries = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            String entry = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.chars().anyMatch(Character::isWhitespace)) {
                throw new BadArgumentException(source + ":" + (i + 1) + ": one host[:port] per line, got '" + entry + "'");
            }
            try {
                NodeAddress.parse(entry, entries.size());
            } catch (BadArgumentException e) {
                throw new BadArgumentException(source + ":" + (i + 1) + ": " + e.getMessage());
            }
            entries.add(entry);
        }
        if (entries.isEmpty()) {
            throw new BadArgumentException(source + " lists no host");
        }
        return List.copyOf(entries);
    }
}
