/**
 * Sequential specifications of the objects Remus tests check: {@link io.remus.check.spec.RegisterSpec},
 * {@link io.remus.check.spec.CounterSpec}, {@link io.remus.check.spec.MaxRegisterSpec},
 * {@link io.remus.check.spec.QueueSpec} and {@link io.remus.check.spec.SetSpec} (partitionable by
 * element). Each names its operations as constants; a recorded operation uses those names.
 */
package io.remus.check.spec;
