package io.remus.core.config;

import io.remus.core.error.BadArgumentException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A hostfile: the node list, node 0 first, one line per host in either of two forms:
 * Remus' form, one {@code host} or {@code host:port} per line and one node per line (see
 * {@link NodeAddress}); or the MPI form, {@code host slots=N}, which stands for {@code N}
 * consecutive nodes on that host ({@code 1..}{@link ClusterConfig#MAX_NODES}; a bare {@code host}
 * is one slot). Forms may be mixed. {@code #} starts a comment that runs to the end of the line;
 * blank lines are skipped. Entries without a port get {@link NodeAddress#DEFAULT_BASE_PORT} plus
 * their node id, so the slots of one host get distinct ports.
 *
 * <pre>
 * # memory nodes
 * 10.0.0.1:18515
 * 10.0.0.2          # port 18515 + 1
 * 10.0.0.3 slots=2  # nodes 2 and 3, ports 18515 + 2 and 18515 + 3
 * </pre>
 */
public final class Hostfile {
    private Hostfile() {
    }

    /**
     * Reads a hostfile.
     *
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
     * Parses a hostfile's contents.
     *
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
            String where = source + ":" + (i + 1) + ": ";
            String[] words = entry.split("\\s+");
            if (words.length > 2) {
                throw new BadArgumentException(where + "expected 'host[:port]' or 'host slots=N', got '" + entry + "'");
            }
            int slots = words.length == 2 ? slots(words[1], where) : 1;
            if ((long) entries.size() + slots > ClusterConfig.MAX_NODES) {
                throw new BadArgumentException(where + "the hostfile lists more than " + ClusterConfig.MAX_NODES + " nodes");
            }
            for (int s = 0; s < slots; s++) {
                try {
                    NodeAddress.parse(words[0], entries.size());
                } catch (BadArgumentException e) {
                    throw new BadArgumentException(where + e.getMessage());
                }
                entries.add(words[0]);
            }
        }
        if (entries.isEmpty()) {
            throw new BadArgumentException(source + " lists no host");
        }
        return List.copyOf(entries);
    }

    private static int slots(String word, String where) {
        if (!word.startsWith("slots=")) {
            throw new BadArgumentException(where + "expected 'slots=N' after the host, got '" + word + "'");
        }
        String n = word.substring("slots=".length());
        int slots;
        try {
            slots = Integer.parseInt(n);
        } catch (NumberFormatException e) {
            throw new BadArgumentException(where + "slots: '" + n + "' is not an integer");
        }
        if (slots < 1 || slots > ClusterConfig.MAX_NODES) {
            throw new BadArgumentException(where + "slots must be 1.." + ClusterConfig.MAX_NODES + ", got " + slots);
        }
        return slots;
    }
}
