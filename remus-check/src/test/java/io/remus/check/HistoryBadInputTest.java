package io.remus.check;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Process and thread numbers outside an {@code int}'s non-negative range, and responses to operations
 * never invoked, are refused with a {@link HistoryFormatException} naming the value, by the readers and
 * the writers alike.
 */
class HistoryBadInputTest {
    private static void assertRefused(Runnable action, String... named) {
        HistoryFormatException e = assertThrows(HistoryFormatException.class, action::run);
        for (String n : named) {
            assertTrue(e.getMessage().contains(n), "message should name " + n + ": " + e.getMessage());
        }
    }

    private static Path file(Path dir, String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.US_ASCII);
    }

    @Test
    void shouldRefuseAThreadOrProcessNumberBeyondAnIntInAHistoryFile(@TempDir Path dir) throws IOException {
        String head = "# remus-check history 1\nclock NANO_TIME\n";
        for (String thread : new String[] {"4294967296", "4294967297", "2147483648", "-1", "-4294967296"}) {
            Path f = file(dir, "t" + thread, head + "process 0\n" + thread + " write 10 20 (5) ()\n");
            assertRefused(() -> HistoryFiles.read(f), thread, ":4:");
        }
        for (String process : new String[] {"4294967296", "2147483648", "-1"}) {
            Path f = file(dir, "p" + process, head + "process " + process + "\n0 write 10 20 (5) ()\n");
            assertRefused(() -> HistoryFiles.read(f), process, ":3:");
        }
        Path ok = file(dir, "ok", head + "process 2147483647\n2147483647 write 10 20 (5) ()\n");
        assertEquals(Integer.MAX_VALUE, HistoryFiles.read(ok).operations().get(0).thread());
    }

    @Test
    void shouldRefuseAThreadOrProcessNumberBeyondAnIntInAJournal(@TempDir Path dir) throws IOException {
        String head = "# remus-check journal 1\nclock NANO_TIME\n";
        for (String thread : new String[] {"4294967296", "4294967303", "-1"}) {
            Path f = file(dir, "t" + thread, head + "process 0\ni " + thread + " 0 add 10 (5)\nr 0 20 (1)\n");
            assertRefused(() -> HistoryJournal.read(f), thread, ":4:");
        }
        Path p = file(dir, "p", head + "process 4294967296\ni 0 0 add 10 (5)\n");
        assertRefused(() -> HistoryJournal.read(p), "4294967296", ":3:");
    }

    @Test
    void shouldRefuseAResponseToAnOperationNeverInvokedBeforeWritingIt(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("j");
        try (HistoryJournal j = HistoryJournal.create(f, HistoryClock.NANO_TIME, 0)) {
            assertRefused(() -> j.respond(0, 1), "respond(0)");
            int op = j.invoke(3, "add", 5);
            assertRefused(() -> j.respond(op + 1, 1), "respond(" + (op + 1) + ")");
            assertRefused(() -> j.respond(-1, 1), "respond(-1)");
            assertRefused(() -> j.voided(7), "voided(7)");
            j.respond(op, 1);
            assertRefused(() -> j.respond(op, 1), "respond(" + op + ")", "already ended");
            assertRefused(() -> j.voided(op), "voided(" + op + ")");
            assertRefused(() -> j.invoke(-2, "add", 5), "-2");
        }
        List<Operation> ops = HistoryJournal.read(f).operations();
        assertEquals(1, ops.size(), "nothing refused reached the file");
        assertEquals(List.of("i", "r"), Files.readAllLines(f).stream().skip(3).map(l -> l.substring(0, 1)).toList());
    }

    @Test
    void shouldRefuseANegativeThreadOrProcessWhereAnOperationIsMade() {
        assertRefused(() -> new Operation(0, -1, 0, "write", new long[0], new long[0], 1, 2), "process -1");
        assertRefused(() -> new Operation(0, 0, -3, "write", new long[0], new long[0], 1, 2), "thread -3");
        assertRefused(() -> new History(HistoryClock.NANO_TIME).recorder(-1), "-1");
    }
}
