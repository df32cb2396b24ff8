/**
 * Linearizability checking for the tests of Remus objects.
 *
 * <p>A test records a {@link io.remus.check.History} (one {@link io.remus.check.History.Recorder}
 * per thread: invocation and response of every operation with its arguments, result and clock
 * readings), hands its {@link io.remus.check.History#operations() operations} and a
 * {@link io.remus.check.Specification} (see {@code io.remus.check.spec}) to a
 * {@link io.remus.check.LinearizabilityChecker} with a {@link io.remus.check.Budget}, and asserts
 * the {@link io.remus.check.CheckResult}. Several processes each write their history with
 * {@link io.remus.check.HistoryFiles#write} and one merge reads them all
 * ({@link io.remus.check.HistoryFiles#merge}); their clock is
 * {@link io.remus.check.HistoryClock#EPOCH_MICROS}, comparable between the processes of one host.
 */
package io.remus.check;
