/**
 * The one unchecked exception family of remus-core, rooted at
 * {@link io.remus.core.error.RemusException}, and the {@link io.remus.core.error.CompletionStatus}
 * that the remote-operation exceptions carry. It is the bottom layer: every other package of the
 * module throws these, and their code uses no type above them. A caller catches what it can handle:
 * {@link io.remus.core.error.BadArgumentException} (refused before anything changed),
 * {@link io.remus.core.error.RemoteOperationException} and its subclasses (the fabric completed an
 * operation with an error status), {@link io.remus.core.error.RemoteTimeoutException} (a bounded
 * wait ran out), and the allocator's, barrier's and handles' own failures.
 *
 * With {@code t} a compute thread of node 0 in a two-node cluster:
 * {@snippet :
 * try {
 *     t.read(RemotePtr.of(1, 1L << 40));      // outside every segment node 1 publishes
 * } catch (BadArgumentException e) {
 *     // refused before anything was posted; the message names the pointer
 * }
 * long word = t.allocator().allocate(8, 1);
 * try {
 *     t.fetchAndAdd(word, 1);
 * } catch (RemoteOperationException e) {
 *     CompletionStatus status = e.status();   // the completion's error status, from node e.nodeId()
 * } catch (RemoteTimeoutException e) {
 *     // no completion within the configured operation timeout
 * }
 * }
 */
package io.remus.core.error;
