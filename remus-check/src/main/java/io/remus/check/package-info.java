/**
 * Linearizability checking for the tests of Remus objects: a history recorder and a checker.
 *
 * With {@code counter} the object under test (here a remus-ds {@code RemoteCounter}):
 * {@snippet :
 * History history = new History(HistoryClock.NANO_TIME);
 * History.Recorder r = history.recorder(0);                    // one per thread
 * int op = r.invoke(CounterSpec.FETCH_AND_ADD, 1);
 * r.respond(op, counter.fetchAndAdd(1));                       // the operation under test
 * new LinearizabilityChecker(Budget.of(Duration.ofSeconds(10)))
 *         .check(history.operations(), new CounterSpec())
 *         .assertLinearizable();
 * }
 *
 * <h2>Use</h2>
 * A test records a {@link io.remus.check.History} (one {@link io.remus.check.History.Recorder}
 * per thread: invocation and response of every operation with its arguments, result and clock
 * readings), hands its {@link io.remus.check.History#operations() operations} and a
 * {@link io.remus.check.Specification} (see {@code io.remus.check.spec}) to a
 * {@link io.remus.check.LinearizabilityChecker} with a {@link io.remus.check.Budget}, and asserts
 * the {@link io.remus.check.CheckResult} ({@link io.remus.check.CheckResult#assertLinearizable()}
 * fails with the witness in its message). An operation whose thread died or stalled before it
 * returned stays pending, and the checker lets it take effect or not.
 *
 * <h2>Several processes</h2>
 * Each process records with {@link io.remus.check.HistoryClock#EPOCH_MICROS} under its own process
 * number, writes its history with {@link io.remus.check.HistoryFiles#write}, and one merge reads
 * them all ({@link io.remus.check.HistoryFiles#merge}). That clock is the host's real-time clock in
 * microseconds, which every process of one host reads alike; {@code System.nanoTime()} is not: its
 * origin is per JVM. The checker orders two operations only when one's response reading is strictly
 * below the other's invocation reading, so the microsecond floor can hide an order but never invent
 * one. Processes on different hosts have different clocks: each bounds its clock's offset to a
 * reference process's by round trips ({@link io.remus.check.ClockOffset}, Cristian's interval),
 * before and after its run, and writes the span of the two bounds into its file; the merge widens
 * each operation by its file's bound, which can hide an order but never invent one. remus-ds's
 * cluster test does the round trips over RDMA and gathers the files to node 0 the same way.
 *
 * <h2>A process that is killed</h2>
 * A history written at the end of a run is lost with a process killed in the middle of it. Such a
 * process writes a {@link io.remus.check.HistoryJournal} instead: one line per invocation and per
 * response, each appended by one system call as it happens, so the kernel keeps every line written
 * before the kill; {@link io.remus.check.HistoryJournal#merge} reads the journals of several
 * processes into one history, an invocation without a response as a pending operation.
 *
 * <h2>Cost</h2>
 * The search is exponential in the worst case. Memoization makes it cheap where different orders
 * of concurrent operations reach equal states (counters, max registers, sets, registers whose
 * writes are distinct values). A queue is the hard case: two overlapping enqueues give two
 * different states, and the wrong one shows only when the dequeues reach those values, so the
 * configurations grow with the queue's length times the overlap; keep a tested queue short (about
 * as many dequeues as enqueues) and the threads few, and let a check that runs out of budget say
 * {@link io.remus.check.Verdict#UNKNOWN}. For sets and maps,
 * {@link io.remus.check.LinearizabilityChecker#checkByKey} checks each key alone.
 *
 * <h2>Lincheck beside this checker</h2>
 * The tests also run Lincheck ({@code org.jetbrains.lincheck:lincheck} 3.7, a test dependency) in
 * stress mode over objects on the simulated fabric: this module's over a counter, remus-ds's over
 * {@code RemoteCounter}, {@code RemoteMaxRegister}, {@code RemoteRegister}, {@code WaitFreeQueue}
 * and {@code WaitFreeStack}. Lincheck generates small scenarios (remus-ds's: 3 threads of 3
 * operations, one before and one after), runs each on its own worker threads many times, and
 * compares each outcome with a sequential class. Each worker thread takes its own
 * {@code ComputeThread} from a {@code ThreadLocal} on its first operation and so owns it, which
 * satisfies the compute thread's confinement. Stress mode sees only the results of the interleavings the
 * scheduler happens to produce (the simulator yields inside its NIC atomics to make races
 * likelier), so the simulated RDMA operations are exercised as they run. Each of those tests also
 * checks a deliberately broken variant, in which Lincheck must find a result that no sequential
 * order explains: a counter whose increment is a READ and a WRITE (an increment lost), a max
 * register whose writeMax is a READ and a WRITE (a smaller value overwrites a larger one), a
 * two-word register written in place one word at a time (a read returns half of each of two
 * values), and the queue and the stack over the universal construction without its sequence numbers
 * (an announced operation applied again).
 *
 * <p>Lincheck's model checker cannot test these objects. It instruments JVM bytecode: field and
 * array accesses, {@code java.util.concurrent} atomics and locks, and inserts thread switches
 * there. The state of a Remus object is remote memory, which the simulator keeps in
 * {@code MemorySegment}s and the verbs fabric has a NIC write by DMA: neither an access through a
 * {@code MemorySegment} nor a NIC's store is a field or array access the model checker tracks, so
 * it would neither switch threads between two RDMA operations' effects on remote memory nor
 * restore that memory between its runs. What it could see is the Java bookkeeping around them
 * (the simulator's queue pairs and completion queues, the compute thread's spin on its completion
 * queue, which it treats as a loop to interrupt). In practice, Lincheck 3.7's model checker stops
 * before the first scenario over a simulator-backed object: restoring its snapshot of the static
 * state the object reaches (the cluster and its threads) fails with a
 * {@code ConcurrentModificationException} inside Lincheck ({@code SnapshotTracker.restoreValues}).
 * Interleavings of RDMA operations are therefore this package's job: record histories over the
 * simulator (with its yielding and tearing options) and over rxe, and check them here.
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name, thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong. The same holds in {@code io.remus.check.spec}.
 */
package io.remus.check;
