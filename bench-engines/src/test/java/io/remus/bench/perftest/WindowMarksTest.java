package io.remus.bench.perftest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WindowMarksTest {
    @AfterEach
    void off() {
        WindowMarks.use(null);
    }

    @Test
    void shouldMarkEachWindowOnceWhenBeginAndEndRepeat() {
        List<String> lines = new ArrayList<>();
        WindowMarks.use(lines::add);
        WindowMarks.end();
        WindowMarks.begin();
        WindowMarks.begin();
        WindowMarks.end();
        WindowMarks.end();
        WindowMarks.begin();
        WindowMarks.end();
        assertEquals(List.of("begin", "end", "begin", "end"), lines);
    }

    @Test
    void shouldWriteOneLinePerMarkWhenAFileIsNamed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("marks");
        Consumer<String> sink = WindowMarks.toFile(file.toString());
        assertTrue(Files.notExists(file), "opened at the first mark, not before");
        sink.accept("begin");
        sink.accept("end");
        assertEquals(List.of("begin", "end"), Files.readAllLines(file));
    }

    @Test
    void shouldBeOffWhenNoFileIsNamed() {
        assertNull(WindowMarks.toFile(null));
        assertNull(WindowMarks.toFile(""));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldFailClearlyWhenAFifoHasNoReader(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo");
        BenchFailedException e = assertThrows(BenchFailedException.class, () -> WindowMarks.open(fifo.toString(), 1));
        assertTrue(e.getMessage().contains("did not open within 1 s"), e.getMessage());
        // let the blocked opener return, so that it does not outlive the test
        try (var reader = Files.newInputStream(fifo)) {
            assertTrue(reader.available() >= 0);
        }
    }
}
