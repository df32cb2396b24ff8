/**
 * What the module wires together and no application calls: the verbs layer's provider of the raw layer's
 * {@link io.remus.verbs.ffi.MissingLibraryReport}. Above both layers; not exported.
 */
package io.remus.verbs.internal;
