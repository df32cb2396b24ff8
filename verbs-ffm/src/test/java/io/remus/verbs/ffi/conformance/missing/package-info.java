/**
 * Raw-layer declarations naming things the C headers do not have: the probe cannot compile, and
 * the checker must show gcc's errors under each declaration's name.
 */
package io.remus.verbs.ffi.conformance.missing;
