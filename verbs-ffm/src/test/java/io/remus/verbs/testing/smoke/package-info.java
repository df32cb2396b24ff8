/**
 * Smoke tests of the Soft-RoCE test bed itself: they prove that device tests see the device,
 * that several JVMs in one guest share it, and that the guests of a cluster reach each other.
 * Outside the test bed they are skipped with the reason.
 */
package io.remus.verbs.testing.smoke;
