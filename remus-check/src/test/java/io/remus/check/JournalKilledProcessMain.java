package io.remus.check;

import io.remus.check.spec.SetSpec;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A child JVM of {@link HistoryJournalTest}: journals a completed {@code add(1)}, then the invocation of
 * {@code remove(1)}, creates the file {@code invoked} and sleeps until it is killed. Arguments:
 * {@code journal directory}.
 */
public final class JournalKilledProcessMain {
    private JournalKilledProcessMain() {
    }

    /** @param args the journal, a directory for the {@code invoked} file */
    public static void main(String[] args) throws Exception {
        HistoryJournal j = HistoryJournal.create(Path.of(args[0]), HistoryClock.EPOCH_MICROS, 1);
        j.respond(j.invoke(0, SetSpec.ADD, 1), 1);
        j.invoke(0, SetSpec.REMOVE, 1);
        Files.createFile(Path.of(args[1]).resolve("invoked"));
        Thread.sleep(120_000);
    }
}
