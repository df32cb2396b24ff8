/**
 * The verbs API: RDMA devices, memory and reliable connections in plain English names, over
 * the raw layer {@code io.remus.verbs.ffi}.
 *
 * An RDMA READ through a queue pair connected to itself:
 * {@snippet :
 * try (Context context = Context.open("rxe0");
 *      ProtectionDomain pd = context.allocateProtectionDomain();
 *      CompletionQueue cq = context.createCompletionQueue(64);
 *      Arena arena = Arena.ofShared();
 *      WorkCompletions wc = new WorkCompletions(8)) {
 *     MemoryRegion mr = pd.registerMemory(arena.allocate(4096, 64), Access.all());
 *     try (ConnectedQueuePair qp = pd.queuePair().completionQueue(cq).build().connectToSelf()) {
 *         SendBatch batch = qp.sendBatch(4);
 *         batch.read(1, mr, 0, 8, mr.address() + 64, mr.remoteKey(), true).post();
 *         cq.pollUntilAny(wc, 1_000_000_000L);
 *         wc.throwIfFailed(0);
 *     } finally {
 *         mr.close();
 *     }
 * }
 * }
 *
 * <h2>Shape</h2>
 * <ul>
 *   <li>Owners: {@link io.remus.verbs.Context} (an open device) &rarr;
 *       {@link io.remus.verbs.ProtectionDomain}, {@link io.remus.verbs.CompletionChannel},
 *       {@link io.remus.verbs.CompletionQueue} &rarr; {@link io.remus.verbs.MemoryRegion},
 *       {@link io.remus.verbs.SharedReceiveQueue}, queue pairs. Each is {@link java.lang.AutoCloseable},
 *       closes idempotently, refuses to close while resources created from it are open
 *       ({@link io.remus.verbs.ResourceBusyException}), and checks the destroy verb's result. A close
 *       may come from any thread: it stops new native calls on the object (posts, polls, queries
 *       then throw {@link io.remus.verbs.ClosedResourceException}) and waits for the ones in flight
 *       to return before the destroy verb, so no call ever runs on a destroyed object (the raw
 *       {@code handle()} escape hatches are outside this guarantee).</li>
 *   <li>Queue pairs as typestate: {@link io.remus.verbs.QueuePairBuilder} &rarr;
 *       {@link io.remus.verbs.PreparedQueuePair} (INIT, exposes its {@link io.remus.verbs.Endpoint})
 *       &rarr; {@link io.remus.verbs.ConnectedQueuePair} (RTS), by hand, to itself (loopback), or
 *       through the connection manager ({@link io.remus.verbs.CmListener},
 *       {@link io.remus.verbs.CmConnector}), whose private data ({@link io.remus.verbs.CmPrivateData})
 *       carries the region each side offers and, optionally, the sender's identifier, checked by the
 *       listener before it accepts ({@link io.remus.verbs.CmListener.Admission}).</li>
 *   <li>Data path: {@link io.remus.verbs.SendBatch} and {@link io.remus.verbs.ReceiveBatch} fill
 *       preallocated native work requests and post a chain with one call;
 *       {@link io.remus.verbs.CompletionQueue#poll} fills a reusable
 *       {@link io.remus.verbs.WorkCompletions}. Neither allocates on the Java heap. The provider's
 *       {@code post_send}, {@code post_recv} and {@code poll_cq} are called through the function
 *       pointers of the device context, read once per queue.</li>
 *   <li>Errors: one unchecked family, {@link io.remus.verbs.VerbsException}, naming the C function
 *       and errno; bad input is refused before native code with
 *       {@link io.remus.verbs.InvalidArgumentException} or
 *       {@link io.remus.verbs.ClosedResourceException}; failed completions become
 *       {@link io.remus.verbs.CompletionException} ({@link io.remus.verbs.RemoteAccessException}
 *       for a refused remote access). What the device finds outside a completion (a completion
 *       queue overrun, a queue pair error on the serving side, a port going down) arrives as an
 *       {@link io.remus.verbs.AsyncEvent}: {@link io.remus.verbs.Context#pollAsyncEvent}.</li>
 *   <li>Placement: {@link io.remus.verbs.NumaPlacement} maps memory bound to a NUMA node and pins
 *       the calling thread to CPUs (Linux {@code mmap}, {@code mbind}, {@code move_pages},
 *       {@code sched_setaffinity}), with the same checks and errors.</li>
 * </ul>
 *
 * <h2>Nulls</h2>
 * A {@code null} passed where an object is required is a {@link java.lang.NullPointerException}
 * whose message is the parameter's name (for a builder's setter, the setter's name), thrown by
 * {@link java.util.Objects#requireNonNull(Object, String)} before any other check and before
 * anything is done. {@code null} is accepted only where a parameter's documentation says what it
 * means. No other exception type signals a null argument: the typed exceptions are for values
 * that are present but wrong.
 */
package io.remus.verbs;
