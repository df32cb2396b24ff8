/**
 * Sequential specifications of the objects Remus tests check: {@link io.remus.check.spec.RegisterSpec},
 * {@link io.remus.check.spec.CounterSpec}, {@link io.remus.check.spec.MaxRegisterSpec},
 * {@link io.remus.check.spec.QueueSpec}, {@link io.remus.check.spec.SetSpec} (partitionable by
 * element) and {@link io.remus.check.spec.MapSpec} (partitionable by key). Each names its operations as constants; a recorded operation uses those names.
 */
package io.remus.check.spec;
