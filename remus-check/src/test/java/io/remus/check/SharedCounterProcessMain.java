package io.remus.check;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One process of {@link MultiProcessHistoryTest}: once every process has mapped the shared file and
 * counted itself in its second word, its threads fetch-and-add the counter in its first word, record
 * each call with {@link HistoryClock#EPOCH_MICROS}, and write the history to a file. Starting on that
 * count rather than at a time makes the processes overlap however slowly their JVMs start.
 *
 * <p>Arguments: shared file (16 bytes), history file, process number, threads, operations per thread,
 * number of processes.
 */
public final class SharedCounterProcessMain {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private SharedCounterProcessMain() {
    }

    /** @param args see the class comment */
    public static void main(String[] args) throws Exception {
        Path counterFile = Path.of(args[0]);
        Path historyFile = Path.of(args[1]);
        int process = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        int ops = Integer.parseInt(args[4]);
        int processes = Integer.parseInt(args[5]);
        History history = new History(HistoryClock.EPOCH_MICROS, process);
        try (Arena arena = Arena.ofShared();
             FileChannel ch = FileChannel.open(counterFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment counter = ch.map(FileChannel.MapMode.READ_WRITE, 0, 16, arena);
            WORD.getAndAdd(counter, 8L, 1L);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while ((long) WORD.getVolatile(counter, 8L) < processes) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the other processes did not start within 60 s");
                }
                Thread.sleep(1);
            }
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                History.Recorder r = history.recorder(t);
                workers[t] = new Thread(() -> {
                    for (int i = 0; i < ops; i++) {
                        int op = r.invoke("fetchAndAdd", 1);
                        long old = (long) WORD.getAndAdd(counter, 0L, 1L);
                        r.respond(op, old);
                    }
                });
                workers[t].start();
            }
            for (Thread w : workers) {
                w.join(60_000);
                if (w.isAlive()) {
                    throw new IllegalStateException("worker did not finish within 60 s");
                }
            }
        }
        HistoryFiles.write(history, historyFile);
    }
}
