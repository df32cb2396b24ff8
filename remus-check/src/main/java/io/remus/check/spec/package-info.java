/**
 * Sequential specifications of the objects Remus tests check: {@link io.remus.check.spec.RegisterSpec},
 * {@link io.remus.check.spec.CounterSpec}, {@link io.remus.check.spec.MaxRegisterSpec},
 * {@link io.remus.check.spec.QueueSpec}, {@link io.remus.check.spec.SetSpec} (partitionable by
 * element) and {@link io.remus.check.spec.MapSpec} (partitionable by key). Each names its operations as constants; a recorded operation uses those names.
 *
 * A set's operations, recorded into {@code history} and checked key by key ({@code set} is the set under test):
 * {@snippet :
 * History.Recorder r = history.recorder(0);
 * int op = r.invoke(SetSpec.ADD, 42);
 * r.respond(op, set.insert(42) ? 1 : 0);                       // 1 when added, 0 when present
 * new LinearizabilityChecker(Budget.of(Duration.ofSeconds(10)))
 *         .checkByKey(history.operations(), new SetSpec())     // each key alone
 *         .assertLinearizable();
 * }
 */
package io.remus.check.spec;
