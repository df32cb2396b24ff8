/**
 * The shared-memory fabric: several processes (JVMs) of one host form one cluster without an RDMA
 * device, privileges or native code. Open it with {@link io.remus.core.shm.ShmFabric#open}, or join
 * with {@code RemusCluster} and {@code --fabric=shm --shm.dir=DIR} ({@code REMUS_FABRIC=shm},
 * {@code REMUS_SHM_DIR}).
 *
 * {@snippet :
 * // Each process, e.g. under mpirun -np 4 (rank and size from Open MPI), with one fresh directory per job:
 * try (RemusCluster cluster = RemusCluster.join("--fabric=shm", "--shm.dir=/dev/shm/job-1")) {
 *     ComputeThread t = cluster.computeThread();
 *     long word = t.allocator().allocate(8, 0);   // in a file of node 0, mapped by every process that targets it
 *     t.fetchAndAdd(word, 1);                      // the processor's atomic on the mapped word
 * }
 * }
 *
 * <h2>Memory</h2>
 * Every registration that a node allocates ({@code FabricNode.allocate}) is a file of the cluster's
 * directory, mapped with {@link java.nio.channels.FileChannel#map(java.nio.channels.FileChannel.MapMode,
 * long, long, java.lang.foreign.Arena)}; the node's CPU reaches it through its segment, and every
 * process that targets it maps the same file. A work request names remote bytes as RDMA does, by
 * the owner's address and rkey; the queue pair finds the region file by rkey, checks the rkey and the
 * bounds, and executes on its own mapping. Caller-owned memory that a node registers
 * ({@code FabricNode.register}) is not a file: queue pairs of this process reach it, those of other
 * processes get {@code REMOTE_ACCESS_ERROR}.
 *
 * <h2>Semantics</h2>
 * Those of the simulator ({@code io.remus.core.sim}) with no cost model and no fault injection:
 * <ul>
 * <li>A queue pair executes each work request when it is posted, in posting order (so every fence
 *     holds), on the posting thread, and reports it only through its completion queue: a completion
 *     for each signalled request, and for each failure whether signalled or not; a failure moves the
 *     queue pair to the error state and every later request on it completes as {@code FLUSHED}
 *     until {@code reset}. Posting and polling allocate nothing once a queue pair has reached its
 *     target's regions (the first request naming a region maps its file).</li>
 * <li>Checks and their statuses: a local buffer that no registration of the node with the lkey
 *     covers, {@code LOCAL_PROTECTION_ERROR}; an rkey the target node does not have (or has
 *     deregistered) or a range outside its registration, {@code REMOTE_ACCESS_ERROR}; an atomic
 *     on an address that is not 8-byte aligned, {@code REMOTE_INVALID_REQUEST}; a target node whose
 *     process closed it, {@code RETRY_EXCEEDED}.</li>
 * <li>READ and WRITE copy the bytes in aligned 8-byte pieces, each loaded and stored whole; a
 *     transfer longer than 8 bytes is not atomic, and a concurrent one can tear it between pieces.</li>
 * <li>Compare-and-swap and fetch-and-add are the processor's atomic instructions on the mapped word
 *     ({@link java.lang.invoke.VarHandle#compareAndExchange} and
 *     {@link java.lang.invoke.VarHandle#getAndAdd}), so they are atomic among themselves in every
 *     process. Code must still treat them as RDMA atomics: a CPU's plain load or store on a word
 *     that such atomics change races with them as it does on RDMA, and the library's rule that such
 *     a word changes only by fabric atomics applies unchanged (on this fabric they happen to be
 *     atomic with CPU atomics too, which no RDMA fabric with {@code IBV_ATOMIC_HCA} promises).</li>
 * <li>Messaging: a node's receive queue is a file that senders map too. A {@code SEND} or
 *     {@code WRITE_WITH_IMMEDIATE} takes the oldest posted receive under that file's lock word
 *     (compare-and-swap), copies the message into the receive's buffer (mapped by its rkey) or runs
 *     its WRITE, and leaves the receive completion in the file, where the receiver's completion queue
 *     finds it when polled. With no receive posted it waits as verbs' receiver-not-ready retries do
 *     (about 4.5 ms) and then fails with {@code RECEIVER_NOT_READY}; a message longer than the buffer
 *     gives the receive {@code LOCAL_LENGTH_ERROR} and the sender {@code REMOTE_INVALID_REQUEST}; a
 *     queue pair connected before the peer's receive queue existed has no receives. A process that
 *     dies holding the lock stalls the queue: senders give up after their connect timeout
 *     ({@code RETRY_EXCEEDED}), the receiver after 10 s ({@code RemoteTimeoutException}).</li>
 * <li>Per-peer access ({@code FabricNode.setPeerAccess}): a WRITE, WRITE_WITH_IMMEDIATE or atomic counts
 *     itself into its writer's word of the target's access table (in the target's node file; one word per
 *     peer and plane, {@code Plane.COUNT} words a peer) for its queue pair's plane and checks the word's
 *     read-only mark before it changes memory; a switch to read-only sets the mark (of one plane, or of every
 *     plane of the peer) and waits, at most 10 s, until the writes counted before it end. A refused request
 *     completes with {@code REMOTE_ACCESS_ERROR}. The table makes the node file
 *     {@code 4096 + 8 * 65536 * 16} bytes, sparse (only pages of peers that wrote take memory); a process
 *     whose node file is shorter is not found as a peer.</li>
 * </ul>
 *
 * <h2>The directory and the life of its files</h2>
 * <pre>
 * DIR/cluster            the cluster's id (random; the first process to open DIR writes it)
 * DIR/node-N/node        node N's state: open, or closed by its process; its incarnation; its per-peer, per-plane access table
 * DIR/node-N/region-K    a registration of node N with rkey K: a header page, then its bytes
 * DIR/node-N/published   the registrations node N published, one per line
 * DIR/node-N/receive     node N's receive queue, once it made one
 * </pre>
 * Opening node N creates {@code node-N} with a new incarnation, a random nonzero number in its node file
 * that region files repeat. When {@code node-N} exists, the node it holds must be over (its process closed
 * it, or no longer runs; a node open in a running process is refused as a duplicate id): the opener marks
 * the former node file closed, moves the former directory aside and removes it, then creates its own. So a
 * process that restarts opens its node again in the same directory, with new memory; peers that still map
 * the former files get {@code RETRY_EXCEEDED}, and a queue pair reset after that maps the new node file and
 * reports its incarnation ({@code QueuePair.peerIncarnation}), so a compute thread throws
 * {@code PeerRestartedException} once and reads the new node's regions. A region file is taken only for the
 * incarnation that made it, so a former mapping never stands for the new node's memory, nor the reverse.
 * Deregistering memory marks its file deregistered and removes it; closing a node closes its
 * registrations and marks it closed, so requests to it complete with {@code RETRY_EXCEEDED}. A
 * process that dies without closing leaves its node open and its memory in place: peers keep reading
 * and writing it, as one-sided RDMA reaches a host whose CPU stopped, until a process opens the node
 * again (above). A peer keeps the mappings of a former incarnation until its own node closes, so the
 * memory of former files under {@code /dev/shm} comes back then. Everything else in the directory
 * stays until {@link io.remus.core.shm.ShmFabric#removeFiles} (or {@code rm -r}) removes it, which
 * also gives the memory of files under {@code /dev/shm} back once no process maps them.
 */
package io.remus.core.shm;
