/**
 * The one unchecked exception family of remus-core, rooted at
 * {@link io.remus.core.error.RemusException}, and the {@link io.remus.core.error.CompletionStatus}
 * that the remote-operation exceptions carry. It is the bottom layer: every other package of the
 * module throws these, and their code uses no type above them. A caller catches what it can handle:
 * {@link io.remus.core.error.BadArgumentException} (refused before anything changed),
 * {@link io.remus.core.error.RemoteOperationException} and its subclasses (the fabric completed an
 * operation with an error status), {@link io.remus.core.error.RemoteTimeoutException} (a bounded
 * wait ran out), and the allocator's, barrier's and handles' own failures.
 */
package io.remus.core.error;
