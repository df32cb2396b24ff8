/**
 * Correct raw-layer declarations in the shapes the real package uses (a union, nested named and
 * anonymous structs and unions, a provider function pointer, a variadic libc function, a
 * {@code (void)} prototype, constants of each kind): the checker must find nothing wrong here.
 */
package io.remus.verbs.ffi.conformance.right;
