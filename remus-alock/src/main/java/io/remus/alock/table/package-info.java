/** A table of locks spread over the memory nodes, acquired by key. */
package io.remus.alock.table;
