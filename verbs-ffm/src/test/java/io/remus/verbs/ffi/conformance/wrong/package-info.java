/**
 * Deliberately wrong raw-layer declarations that still compile in C: the negative test proves
 * that the checker reports each of them by name.
 */
package io.remus.verbs.ffi.conformance.wrong;
